import CLinux
import Glibc
import SetWire

/// A client's non-blocking connection that speaks lines, driven by an `EventLoop`. Sends are
/// queued and leave together at the next `flush()`, one write per batch.
public final class LineConnection {
    public let fd: Int32
    private let loop: EventLoop
    private var reader: LineReader
    private var outbound = OutboundBuffer()
    private var watchingWritable = false
    /// The most that may wait to be sent: a peer that does not read is given up on past it.
    public let maxQueuedBytes: Int
    public private(set) var isOpen = true
    /// Called on the loop thread for each complete line.
    public var onLine: ([UInt8]) -> Void = { _ in }
    /// Called once, on the loop thread, when the connection ends.
    public var onClose: (String) -> Void = { _ in }
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    /// With arrival stamps on: when the kernel received the bytes of the line being handled, in
    /// CLOCK_REALTIME nanoseconds (see `LineConnection.realtimeNanoseconds`).
    public private(set) var arrivalNanoseconds: UInt64 = 0
    private var stampsArrivals = false

    /// Asks the kernel to stamp each arrival, so a measurement does not include the time this
    /// process took to get round to reading it.
    public func stampArrivals() {
        stampsArrivals = setgame_enable_arrival_stamps(fd) == 0
    }

    /// The clock arrival stamps use.
    public static func realtimeNanoseconds() -> UInt64 { UInt64(setgame_realtime_ns()) }

    /// Connects (blocking, on loopback this is immediate) and registers with `loop`.
    public init(host: String, port: UInt16, loop: EventLoop, maxLineBytes: Int = 1 << 20,
                maxQueuedBytes: Int = 4 << 20) throws(SocketError) {
        fd = try Sockets.connect(host: host, port: port)
        self.loop = loop
        self.maxQueuedBytes = maxQueuedBytes
        reader = LineReader(maxLineBytes: maxLineBytes)
        try Sockets.setNonBlocking(fd)
        try loop.register(fd) { [unowned self] readiness in self.ready(readiness) }
    }

    deinit { if isOpen { Glibc.close(fd) } }

    public var pendingBytes: Int { outbound.count }

    /// Queues bytes; call `flush()` to send what is queued. Past `maxQueuedBytes` the connection
    /// is closed: the peer has stopped reading.
    public func send(_ bytes: [UInt8]) {
        guard isOpen else { return }
        guard outbound.count + bytes.count <= maxQueuedBytes else {
            return close("the server is not reading what we send (\(outbound.count / 1024) KiB waiting); disconnected")
        }
        outbound.append(bytes)
    }

    public func flush() {
        guard isOpen, !outbound.isEmpty else { return }
        switch outbound.flush(to: fd) {
        case .drained where watchingWritable:
            loop.watchWritable(fd, false)
            watchingWritable = false
        case .blocked where !watchingWritable:
            loop.watchWritable(fd, true)
            watchingWritable = true
        case .failed(let code): close("write failed: \(SocketError("write", code: code))")
        default: break
        }
    }

    public func close(_ reason: String = "closed") {
        guard isOpen else { return }
        isOpen = false
        loop.unregister(fd)
        Glibc.close(fd)
        onClose(reason)
    }

    private func ready(_ readiness: Readiness) {
        if readiness.contains(.writable) { flush() }
        guard readiness.contains(.readable) || readiness.contains(.closed) else { return }
        var stamp: Int64 = 0
        let count = scratch.withUnsafeMutableBytes { buffer in
            stampsArrivals ? setgame_read_stamped(fd, buffer.baseAddress, UInt(buffer.count), &stamp)
                           : read(fd, buffer.baseAddress, buffer.count)
        }
        arrivalNanoseconds = stamp > 0 ? UInt64(stamp) : Self.realtimeNanoseconds()
        if count == 0 { return close("the server closed the connection") }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return }
            return close("read failed: \(SocketError("read"))")
        }
        for line in reader.feed(scratch[0..<count]) {
            guard isOpen else { return }
            if case .text(let text) = line { onLine(Array(text.utf8)) }
        }
    }
}
