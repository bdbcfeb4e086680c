import Dispatch
import SetServer

/// A real server on a thread of its own, for tests in every target: what a test may still touch
/// once the thread owns the server (its port, its control, what it restored), and a stop that
/// waits until the server has shut down.
package final class RunningServer: Sendable {
    package let port: UInt16
    package let control: ServerControl
    /// The names of the matches the server restored at start.
    package let restoredMatches: [String]
    private let finished = DispatchSemaphore(value: 0)

    package init(_ server: sending Server) {
        port = server.port
        control = server.control
        restoredMatches = server.restoredMatches
        let finished = self.finished
        Server.runOnNewThread(server) { finished.signal() }
    }

    /// Starts a server on a free loopback port with `config` as it is otherwise.
    package convenience init(config: ServerConfig, log: ServerLog = .silent) throws {
        var config = config
        config.port = 0
        self.init(try Server(config: config, log: log))
    }

    /// Stops the server and waits until it has shut down. Once.
    package func stop() {
        control.stop()
        finished.wait()
    }
}
