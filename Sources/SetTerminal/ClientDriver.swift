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
    /// The connection, while there is one.
    private(set) var socket: LineSocket?
    /// Connections closed while one of their own callbacks may still run (a redirect read in a
    /// batch of lines, a close), kept until the next tick: the callbacks hold them unowned.
    private var retired: [LineSocket] = []
    /// When a connect still under way is given up: a node killed, or an address that drops
    /// packets, must not hold the client for the kernel's two minutes.
    private(set) var connectDeadline: Int64?
    /// Performs every effect but connecting, sending and disconnecting.
    var onEffect: (ClientEffect) -> Void = { _ in }

    init(app: App, loop: EventLoop, clock: any TimeSource, host: String, port: UInt16, route: UnixRoute? = nil) {
        self.route = route
        self.app = app
        self.loop = loop
        self.clock = clock
        serverHost = host
        serverPort = port
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
        retired.removeAll()
        if let deadline = connectDeadline, now >= deadline, let socket, socket.isConnecting {
            connectDeadline = nil
            lose("cannot connect: no answer within \(ClientSocketLimits.connectTimeoutMs / 1_000) s")
        }
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
        disconnect()
        let socket: LineSocket
        // The server this driver was given, until a redirect names the node holding the match.
        let place = app.redirectedPlace ?? route.map(ServerPlace.door) ?? .tcp(host: serverHost, port: serverPort)
        do {
            socket = try LineSocket.connect(to: place, waitForConnection: false, maxLineBytes: ClientSocketLimits.maxLineBytes,
                                            maxQueuedBytes: ClientSocketLimits.maxQueuedBytes)
            try socket.serve(on: loop)
        } catch {
            return update { $0.connectionLost("cannot connect to \(place.description): \(error)", at: $1) }
        }
        self.socket = socket
        // Callbacks of a socket that is no longer the current one (replaced, or closed by us) are
        // nobody's news.
        connectDeadline = socket.isConnecting ? now + ClientSocketLimits.connectTimeoutMs : nil
        socket.onConnected = { [unowned self, unowned socket] in
            guard self.socket === socket else { return }
            self.connectDeadline = nil
            self.update { $0.connected(at: $1) }
        }
        socket.onLine = { [unowned self, unowned socket] line in
            // Undecodable lines are skipped rather than ending the session.
            guard self.socket === socket, case .success(let message) = ServerMessageCoding.decode(line) else { return }
            self.update { $0.receive(message, at: $1) }
        }
        socket.onClose = { [unowned self, unowned socket] reason in
            guard self.socket === socket else { return }
            self.retired.append(socket)
            self.socket = nil
            self.update { $0.connectionLost(reason, at: $1) }
        }
        if !socket.isConnecting { update { $0.connected(at: $1) } }
    }

    /// Sends a request at once; a server that stopped reading, or a broken socket, loses the
    /// connection (the socket's close says why).
    func send(_ message: ClientMessage) {
        socket?.write(ClientMessageEncoder.line(ClientRequest(message)))
    }

    /// Closes the connection without telling the app: it asked for this.
    func disconnect() {
        guard let socket else { return }
        self.socket = nil
        retired.append(socket)
        socket.close("closed by the client")
    }

    /// Drops the connection as a failure would, and tells the app why.
    func lose(_ reason: String) {
        socket?.close(reason)
    }
}

/// How much a client's socket holds.
enum ClientSocketLimits {
    /// The most this client queues for a server that does not read: far more than a person's
    /// keys and the pings make while an honest server is merely slow.
    static let maxQueuedBytes = 64 * 1024
    static let maxLineBytes = 1 << 20
    /// The longest a connect may take.
    static let connectTimeoutMs: Int64 = 10_000
}
