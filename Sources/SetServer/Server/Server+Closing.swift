import SetNet
import SetRules

/// A socket closed after a fatal error, on its way out: its last lines are still being written,
/// for at most `Server.lingerMs`.
struct Lingering {
    let socket: LineSocket
    let deadline: Instant
}

// Closing after a fatal error so that the error arrives (see `LineSocket.closeAfterDelivering`):
// the socket does it; the server bounds how long and how many.
extension Server {
    /// How long a closing socket may stay open to deliver its last line and be drained.
    static let lingerMs: Int64 = 2_000

    /// Takes a socket over from its connection (or from a refusal) to deliver what it still queues.
    func linger(_ socket: LineSocket) {
        let fd = socket.fd
        socket.onClose = { [unowned self] _ in self.lingering[fd] = nil }
        guard socket.closeAfterDelivering(on: loop) else { return }
        lingering[fd] = Lingering(socket: socket, deadline: clock.now().adding(Self.lingerMs))
    }

    /// Closes lingering sockets whose time is up; the sweep calls it.
    func closeOverdueLingering(at now: Instant) {
        for entry in lingering.values where entry.deadline <= now { entry.socket.close("overdue") }
    }

    /// On shutdown: whatever still lingers is closed now.
    func closeAllLingering() {
        for entry in lingering.values { entry.socket.close("shutting down") }
    }
}
