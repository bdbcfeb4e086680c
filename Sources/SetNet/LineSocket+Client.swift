import Glibc
import SetWire

// A client's socket drives itself: it finishes its connect, writes what waits, reads once, and
// closes with a reason a person can read when any of it fails. The bots and the bench let it
// call them back on their loop (`serve(on:)`); the terminal polls and asks `handle(_:)`.
extension LineSocket {
    /// What one readiness brought a client's socket.
    public enum Arrival: Equatable {
        case nothing
        /// The connect started without waiting has finished; what was queued is on its way.
        case connected
        /// Complete lines, in order; lines too long or not UTF-8 are left out.
        case lines([[UInt8]])
        /// The socket failed or the server closed it; it is closed now, for this reason.
        case ended(String)
    }

    /// Does what `readiness` allows: finishes connecting, writes what waits, reads once.
    public func handle(_ readiness: Readiness) -> Arrival {
        guard isOpen else { return .nothing }
        if isConnecting {
            guard readiness.contains(.writable) || readiness.contains(.closed) else { return .nothing }
            do { try finishConnecting() } catch { return end("cannot connect to \(target ?? "the server"): \(error)") }
            if case .failed(let code) = flush() { return end(Self.broke("write", code)) }
            return .connected
        }
        if readiness.contains(.writable), case .failed(let code) = flush() { return end(Self.broke("write", code)) }
        guard readiness.contains(.readable) || readiness.contains(.closed) else { return .nothing }
        switch read() {
        case .nothing: return .nothing
        case .endOfStream: return end("the server closed the connection")
        case .failed(let error): return end("the connection broke: \(error)")
        case .lines(let lines): return .lines(lines.compactMap { if case .complete(let bytes) = $0 { bytes } else { nil } })
        }
    }

    /// Queues `bytes` and writes what the socket takes now; false when that ended the
    /// connection (`closeReason` says why).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard send(bytes) else { return false }
        if case .failed(let code) = flush() {
            close(Self.broke("write", code))
            return false
        }
        return true
    }

    /// Lets `loop` drive the socket: each complete line goes to `onLine`, and a failure closes it
    /// (`onClose` says why).
    public func serve(on loop: EventLoop) throws(SocketError) {
        try watch(on: loop) { [unowned self] readiness in
            guard case .lines(let lines) = handle(readiness) else { return }
            for line in lines {
                guard isOpen else { return }
                onLine(line)
            }
        }
    }

    /// The events to poll for: input always, writability while the socket wants to write.
    public var pollEvents: Int16 { Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0) }

    /// Completes a connect once the socket is writable; throws why it failed.
    func finishConnecting() throws(SocketError) {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        guard code == 0 else { throw SocketError("connect", code: code) }
        isConnecting = false
    }

    private func end(_ reason: String) -> Arrival {
        close(reason)
        return .ended(reason)
    }

    static func broke(_ call: String, _ code: Int32) -> String {
        "the connection broke: \(SocketError(call, code: code))"
    }
}

extension Readiness {
    /// The readiness poll(2) reported in `revents`.
    public init(pollEvents: Int16) {
        self = []
        if pollEvents & Int16(POLLIN) != 0 { insert(.readable) }
        if pollEvents & Int16(POLLOUT) != 0 { insert(.writable) }
        if pollEvents & Int16(POLLHUP | POLLERR) != 0 { insert(.closed) }
    }
}
