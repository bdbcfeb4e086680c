import SetNet
import SetWire

/// One client connection on an `EventLoop`: it connects to a place without waiting, hands its
/// coming up, each decoded server message and its loss to callbacks, writes requests, and gives
/// up a connect that hangs. `ClientDriver` drives one app on one of these; the arena's TV two.
final class ClientConnection {
    let loop: EventLoop
    let clock: any TimeSource
    /// The connection, while there is one.
    private(set) var socket: LineSocket?
    /// Connections closed while one of their own callbacks may still run (a redirect read in a
    /// batch of lines, a close), kept until the next tick: the callbacks hold them unowned.
    private var retired: [LineSocket] = []
    /// When a connect still under way is given up: a node killed, or an address that drops
    /// packets, must not hold the client for the kernel's two minutes.
    private(set) var connectDeadline: Int64?
    /// The socket is up; the server speaks first.
    var onConnected: () -> Void = {}
    /// A line decoded from the server (undecodable lines are skipped rather than ending the session).
    var onMessage: (ServerMessage) -> Void = { _ in }
    /// The connection failed or was lost, with the reason.
    var onLost: (String) -> Void = { _ in }

    init(loop: EventLoop, clock: any TimeSource) {
        self.loop = loop
        self.clock = clock
    }

    var now: Int64 { clock.now().milliseconds }

    /// Starts a new connection to `place` without waiting for it (an old one is closed first).
    func connect(to place: ServerPlace) {
        disconnect()
        let socket: LineSocket
        do {
            socket = try LineSocket.connect(to: place, waitForConnection: false, maxLineBytes: ClientSocketLimits.maxLineBytes,
                                            maxQueuedBytes: ClientSocketLimits.maxQueuedBytes)
            try socket.serve(on: loop)
        } catch {
            return onLost("cannot connect to \(place.description): \(error)")
        }
        self.socket = socket
        // Callbacks of a socket that is no longer the current one (replaced, or closed by us) are
        // nobody's news.
        connectDeadline = socket.isConnecting ? now + ClientSocketLimits.connectTimeoutMs : nil
        socket.onConnected = { [unowned self, unowned socket] in
            guard self.socket === socket else { return }
            self.connectDeadline = nil
            self.onConnected()
        }
        socket.onLine = { [unowned self, unowned socket] line in
            guard self.socket === socket, case .success(let message) = ServerMessageCoding.decode(line) else { return }
            self.onMessage(message)
        }
        socket.onClose = { [unowned self, unowned socket] reason in
            guard self.socket === socket else { return }
            self.retired.append(socket)
            self.socket = nil
            self.onLost(reason)
        }
        if !socket.isConnecting { onConnected() }
    }

    /// Lets go of closed sockets and gives up a connect past its deadline.
    func tick() {
        retired.removeAll()
        if let deadline = connectDeadline, now >= deadline, let socket, socket.isConnecting {
            connectDeadline = nil
            lose("cannot connect: no answer within \(ClientSocketLimits.connectTimeoutMs / 1_000) s")
        }
    }

    /// Sends a request at once; a server that stopped reading, or a broken socket, loses the
    /// connection (the socket's close says why).
    func send(_ message: ClientMessage) {
        socket?.write(ClientMessageEncoder.line(ClientRequest(message)))
    }

    /// Closes the connection without telling anyone: its owner asked for this.
    func disconnect() {
        guard let socket else { return }
        self.socket = nil
        connectDeadline = nil
        retired.append(socket)
        socket.close("closed by the client")
    }

    /// Drops the connection as a failure would (`onLost` says why).
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
