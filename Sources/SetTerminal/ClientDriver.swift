import SetNet
import SetScreen
import SetWire

/// Drives a client app (the game's `ClientApp`, the lobby's `LobbyApp`) on an `EventLoop`: its
/// connection to the server, and time read from a `TimeSource`. The terminal adds its keyboard,
/// signals and screen to the same loop; tests drive it bare, on a clock they set. Effects that
/// are not the socket's go to `onEffect`.
final class ClientDriver<App: DrivenClient> {
    private(set) var app: App
    let loop: EventLoop
    let clock: any TimeSource
    let serverHost: String
    let serverPort: UInt16
    /// The door's Unix socket, when the server is reached through it.
    let route: UnixRoute?
    /// The connection: its socket, its connect deadline, its callbacks.
    let connection: ClientConnection
    /// The socket, while there is one.
    var socket: LineSocket? { connection.socket }
    /// When a connect still under way is given up.
    var connectDeadline: Int64? { connection.connectDeadline }
    /// Performs every effect but connecting, sending and disconnecting.
    var onEffect: (ClientEffect) -> Void = { _ in }

    init(app: App, loop: EventLoop, clock: any TimeSource, host: String, port: UInt16, route: UnixRoute? = nil) {
        self.route = route
        self.app = app
        self.loop = loop
        self.clock = clock
        serverHost = host
        serverPort = port
        connection = ClientConnection(loop: loop, clock: clock)
        connection.onConnected = { [unowned self] in self.update { $0.connected(at: $1) } }
        connection.onMessage = { [unowned self] message in self.update { $0.receive(message, at: $1) } }
        connection.onLost = { [unowned self] reason in self.update { $0.connectionLost(reason, at: $1) } }
    }

    /// Local time as the app counts it.
    var now: Int64 { clock.now().milliseconds }

    /// Gives the app one happening at `now` and performs what it returns.
    func update(_ happening: (inout App, Int64) -> [ClientEffect]) {
        let now = self.now
        perform(happening(&app, now))
    }

    /// Changes the app without effects (a resize).
    func change(_ change: (inout App, Int64) -> Void) { change(&app, now) }

    func start() { update { $0.start(at: $1) } }

    /// Does what is due now: pings, reconnection, notices ending.
    func tick() {
        connection.tick()
        update { $0.tick(at: $1) }
    }

    /// When the loop must look at the clock again, in milliseconds from now; -1 when only input
    /// can change anything.
    func waitMilliseconds(alsoAt extra: Int64? = nil) -> Int32 {
        let now = self.now
        guard let wake = [app.nextWake(at: now), extra, connectDeadline].compactMap({ $0 }).min() else { return -1 }
        return Int32(clamping: max(0, wake - now))
    }

    func perform(_ effects: [ClientEffect]) {
        for effect in effects {
            switch effect {
            case .connect: connect()
            case .disconnect: disconnect()
            case .send(let message): send(message)
            case .saveToken, .log, .quit, .startLocal, .holdLocal, .saveRecords: onEffect(effect)
            }
        }
    }

    // MARK: The socket

    /// Starts a new connection without waiting for it; the app hears when it is up or lost.
    private func connect() {
        // The server this driver was given, until a redirect names the node holding the match.
        connection.connect(to: app.redirectedPlace ?? route.map(ServerPlace.door) ?? .tcp(host: serverHost, port: serverPort))
    }

    /// Sends a request at once; a server that stopped reading, or a broken socket, loses the
    /// connection (the socket's close says why).
    func send(_ message: ClientMessage) { connection.send(message) }

    /// Closes the connection without telling the app: it asked for this.
    func disconnect() { connection.disconnect() }

    /// Drops the connection as a failure would, and tells the app why.
    func lose(_ reason: String) { connection.lose(reason) }
}
