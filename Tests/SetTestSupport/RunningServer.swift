import Dispatch
import SetServer

/// A real server on a thread of its own, for tests in every target: what a test may still touch
/// once the thread owns the server (its port, its control, what it restored), and a stop that
/// waits until the server has shut down.
public final class RunningServer: Sendable {
    public let port: UInt16
    public let control: ServerControl
    /// The names of the matches the server restored at start.
    public let restoredMatches: [String]
    private let finished = DispatchSemaphore(value: 0)

    public init(_ server: sending Server) {
        port = server.port
        control = server.control
        restoredMatches = server.restoredMatches
        let finished = self.finished
        Server.runOnNewThread(server) { finished.signal() }
    }

    /// Starts a server on a free loopback port with `config` as it is otherwise.
    public convenience init(config: ServerConfig, log: ServerLog = .silent) throws {
        var config = config
        config.port = 0
        self.init(try Server(config: config, log: log))
    }

    /// Stops the server and waits until it has shut down. Once.
    public func stop() {
        control.stop()
        finished.wait()
    }
}
