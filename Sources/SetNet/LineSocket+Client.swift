import Glibc
import SetWire

// A client's socket drives itself on a loop: it finishes its connect, writes what waits, reads
// once per readiness, and closes with a reason a person can read when any of it fails. The
// terminal, the bots and the bench all hear it through the same callbacks (`serve(on:)`).
extension LineSocket {
    /// What one readiness brought a client's socket.
    enum Arrival: Equatable {
        case nothing
        /// The connect started without waiting has finished; what was queued is on its way.
        case connected
        /// Complete lines, in order; lines too long or not UTF-8 are left out.
        case lines([[UInt8]])
        /// The socket failed or the server closed it; it is closed now, for this reason.
        case ended(String)
    }

    /// Does what `readiness` allows: finishes connecting, writes what waits, reads once.
    func handle(_ readiness: Readiness) -> Arrival {
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
    package func write(_ bytes: [UInt8]) -> Bool {
        guard send(bytes) else { return false }
        if case .failed(let code) = flush() {
            close(Self.broke("write", code))
            return false
        }
        return true
    }

    /// Lets `loop` drive the socket: a connect started without waiting is told to `onConnected`,
    /// each complete line goes to `onLine`, and a failure closes it (`onClose` says why).
    package func serve(on loop: EventLoop) throws(SystemCallError) {
        try watch(on: loop) { [unowned self] readiness in
            switch handle(readiness) {
            case .nothing, .ended: return
            case .connected: onConnected()
            case .lines(let lines):
                for line in lines {
                    guard isOpen else { return }
                    onLine(line)
                }
            }
        }
    }

    /// Completes a connect once the socket is writable; throws why it failed.
    func finishConnecting() throws(SystemCallError) {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        guard code == 0 else { throw SystemCallError("connect", code: code) }
        isConnecting = false
    }

    private func end(_ reason: String) -> Arrival {
        close(reason)
        return .ended(reason)
    }

    static func broke(_ call: String, _ code: Int32) -> String {
        "the connection broke: \(SystemCallError(call, code: code))"
    }
}
