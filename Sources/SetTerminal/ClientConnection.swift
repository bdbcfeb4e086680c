import Glibc
import SetNet
import SetWire

/// One non-blocking TCP connection to the server, for a single thread's poll loop: connect
/// without blocking, queue lines out, read and decode lines in.
final class ClientConnection {
    let fd: Int32
    /// True until the non-blocking connect has finished.
    private(set) var isConnecting: Bool
    private var reader = LineReader(maxLineBytes: 1 << 20)
    private var outbound = OutboundBuffer()
    private var closed = false
    /// Why the connection is no good any more, once it is not.
    private(set) var failure: String?
    /// The most this client queues for a server that does not read: far more than a person's
    /// keys and the pings make while an honest server is merely slow.
    static let maxQueuedBytes = 64 * 1024

    /// Starts connecting to `host:port` (a name or an IPv4 address); the caller waits for
    /// writability and then calls `finishConnecting()`.
    init(host: String, port: UInt16) throws(SocketError) {
        let address = try Sockets.ipv4Address(host: host, port: port)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        do {
            try Sockets.setNonBlocking(fd)
        } catch {
            Glibc.close(fd)
            throw error
        }
        Sockets.setNoDelay(fd)
        var target = address
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 && errno != EINPROGRESS {
            let error = SocketError("connect to \(host):\(port)")
            Glibc.close(fd)
            throw error
        }
        self.fd = fd
        isConnecting = result != 0
    }

    deinit { close() }

    /// Completes a connect once the socket is writable; throws why it failed.
    func finishConnecting() throws(SocketError) {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        guard code == 0 else { throw SocketError("connect", code: code) }
        isConnecting = false
    }

    /// Whether to poll for writability: connecting, or output waiting.
    var wantsWrite: Bool { isConnecting || !outbound.isEmpty }

    /// Bytes queued and not yet taken by the socket.
    var queuedBytes: Int { outbound.count }

    /// Queues a request; `flush()` writes it. Past `maxQueuedBytes` the connection is given up.
    func send(_ message: ClientMessage) {
        guard failure == nil else { return }
        let line = ClientMessageEncoder.line(ClientRequest(message))
        guard outbound.count + line.count <= Self.maxQueuedBytes else {
            failure = "the server is not reading what this client sends (\(outbound.count / 1024) KiB waiting); disconnected"
            return
        }
        outbound.append(line)
    }

    /// Writes what the socket takes now; false when the connection is broken (see `failure`).
    @discardableResult
    func flush() -> Bool {
        guard failure == nil else { return false }
        guard !isConnecting else { return true }
        if case .failed(let code) = outbound.flush(to: fd) {
            failure = "the connection broke: \(SocketError("write", code: code).description)"
            return false
        }
        return true
    }

    /// What one read gave.
    enum ReadResult {
        case messages([ServerMessage])
        case closed(String)
    }

    /// Reads what is available and decodes the complete lines; undecodable lines are skipped
    /// (and reported as nothing) rather than ending the session.
    func read() -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count == 0 { return .closed("the server closed the connection") }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .messages([]) }
            return .closed(SocketError("read").description)
        }
        var messages: [ServerMessage] = []
        for line in reader.feed(buffer[0..<count]) {
            guard case .text(let text) = line, case .success(let message) = ServerMessageCoding.decode(Array(text.utf8)) else { continue }
            messages.append(message)
        }
        return .messages(messages)
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }
}
