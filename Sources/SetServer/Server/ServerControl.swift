import Foundation
import SetNet
import Synchronization

/// What other threads may do to a running server: ask it to stop, or to look at its clock again.
/// It holds only the loop's thread-safe half, so it is plainly `Sendable`; the `Server` itself
/// belongs to the thread that runs it.
package struct ServerControl: Sendable {
    private let loop: EventLoop

    init(loop: EventLoop) { self.loop = loop }

    /// Asks `run()` to finish. Safe from any thread or signal handler queue.
    package func stop() { loop.stop() }

    /// Makes the loop look at the clock again; tests call it after moving a manual clock.
    package func wake() { loop.wake() }
}

extension Server {
    /// Runs `server` on a thread of its own, which owns it from then on (the caller can no longer
    /// touch it: keep its `control` and `port` first); `stopped` runs on that thread once the
    /// server has shut down.
    package static func runOnNewThread(_ server: sending Server, stopped: @escaping @Sendable () -> Void = {}) {
        let handoff = Handoff(server)
        Thread.detachNewThread {
            handoff.take()?.run()
            stopped()
        }
    }
}

/// Moves a server to the thread that will run it: the compiler checks that the sender keeps no
/// reference (`sending`), and the mutex hands it over exactly once.
private final class Handoff: Sendable {
    private let server: Mutex<Server?>

    init(_ server: sending Server) { self.server = Mutex(server) }

    func take() -> sending Server? {
        server.withLock { slot -> sending Server? in
            let taken = slot.take()
            return taken
        }
    }
}
