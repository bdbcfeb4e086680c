import Glibc
import SetNet
import SetRules
import SetWire

/// A socket closed after a fatal error, on its way out: its last lines are still being written.
struct Lingering {
    var outbound: OutboundBuffer
    var deadline: Instant
    var shutDown = false
}

// Closing after a fatal error so that the error arrives: `close` on a socket whose peer's
// requests are unread makes the kernel send a reset, which can destroy lines not yet read. So the
// server writes what is left, shuts down writing (the peer reads the line, then end of stream),
// reads and drops whatever the peer still sends, and closes at its end or after a short time.
extension Server {
    /// How long a closing socket may stay open to deliver its last line and be drained.
    static let lingerMs: Int64 = 2_000

    /// Takes `fd` over from its connection (or from a refusal); `outbound` is what it must still be sent.
    func linger(_ fd: Int32, outbound: OutboundBuffer) {
        var entry = Lingering(outbound: outbound, deadline: clock.now().adding(Self.lingerMs))
        if case .failed = entry.outbound.flush(to: fd) {
            Glibc.close(fd)
            return
        }
        if entry.outbound.isEmpty {
            shutdown(fd, Int32(SHUT_WR))
            entry.shutDown = true
        }
        do {
            try loop.register(fd, writable: !entry.shutDown) { [unowned self] readiness in self.lingerReady(fd, readiness) }
        } catch {
            Glibc.close(fd)
            return
        }
        lingering[fd] = entry
    }

    private func lingerReady(_ fd: Int32, _ readiness: Readiness) {
        guard var entry = lingering[fd] else { return }
        if readiness.contains(.writable) && !entry.shutDown {
            switch entry.outbound.flush(to: fd) {
            case .drained:
                shutdown(fd, Int32(SHUT_WR))
                entry.shutDown = true
                loop.watchWritable(fd, false)
            case .blocked: break
            case .failed: return endLinger(fd)
            }
            lingering[fd] = entry
        }
        if readiness.contains(.readable) || readiness.contains(.closed) {
            var scratch = [UInt8](repeating: 0, count: 4_096)
            let count = scratch.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { endLinger(fd) }
        }
    }

    /// Closes lingering sockets whose time is up; the sweep calls it.
    func closeOverdueLingering(at now: Instant) {
        for (fd, entry) in lingering where entry.deadline <= now { endLinger(fd) }
    }

    func endLinger(_ fd: Int32) {
        guard lingering.removeValue(forKey: fd) != nil else { return }
        loop.unregister(fd)
        Glibc.close(fd)
    }

    /// On shutdown: whatever still lingers is closed now.
    func closeAllLingering() {
        for fd in Array(lingering.keys) { endLinger(fd) }
    }

    /// A connection over the limit: the server still speaks first with `welcome`, then says why
    /// it closes, then closes as after any fatal error.
    func refuse(_ fd: Int32) {
        var outbound = OutboundBuffer()
        outbound.append(ServerMessageCoding.line(.welcome(server: config.serverName, versions: ProtocolVersion.supported,
                                                          time: clock.now().milliseconds, limits: config.limits)))
        outbound.append(ServerMessageCoding.line(.error(WireError(.serverFull, "The server is full; try again later.", fatal: true), id: nil)))
        linger(fd, outbound: outbound)
    }
}
