import Glibc
import SetNet
import SetScreen
import SetWire

/// What holds a client app's connection to the server and drives it from one thread's poll
/// loop: the terminal's run loop, and the tests' headless clients, which share this half of the
/// loop instead of a copy of it. The socket is SetNet's `LineSocket`: lines in, requests out.
protocol ClientConnection: AnyObject {
    var app: ClientApp { get set }
    /// The connection, while there is one.
    var socket: LineSocket? { get set }
    var serverHost: String { get }
    var serverPort: UInt16 { get }
    /// Performs the app's effects, in order; the socket's own come back to `connect`, `send`
    /// and `disconnect`.
    func perform(_ effects: [ClientEffect])
}

/// How much a client's socket holds.
enum ClientSocketLimits {
    /// The most this client queues for a server that does not read: far more than a person's
    /// keys and the pings make while an honest server is merely slow.
    static let maxQueuedBytes = 64 * 1024
    static let maxLineBytes = 1 << 20
}

extension ClientConnection {
    /// Starts a new connection without waiting for it; the app hears when it is up or lost.
    func connect(at now: Int64) {
        socket?.close()
        do {
            socket = try LineSocket.connect(host: serverHost, port: serverPort, waitForConnection: false,
                                            maxLineBytes: ClientSocketLimits.maxLineBytes, maxQueuedBytes: ClientSocketLimits.maxQueuedBytes)
            if socket?.isConnecting == false { perform(app.connected(at: now)) }
        } catch {
            socket = nil
            perform(app.connectionLost("cannot connect to \(serverHost):\(serverPort): \(error)", at: now))
        }
    }

    /// Sends a request at once; a server that stopped reading, or a broken socket, loses the connection.
    func send(_ message: ClientMessage, at now: Int64) {
        guard let socket else { return }
        if !socket.write(ClientMessageEncoder.line(ClientRequest(message))) { lose(socket.closeReason ?? "the connection broke", at: now) }
    }

    func disconnect() {
        socket?.close()
        socket = nil
    }

    /// The poll entry for the socket, while there is one.
    var pollEntry: pollfd? { socket.map { pollfd(fd: $0.fd, events: $0.pollEvents, revents: 0) } }

    /// Handles what poll reported for the socket: a finished connect, lines, or the end.
    func handleSocket(_ revents: Int16, at now: Int64) {
        guard let socket else { return }
        switch socket.handle(Readiness(pollEvents: revents)) {
        case .nothing: break
        case .connected: perform(app.connected(at: now))
        case .lines(let lines):
            // Undecodable lines are skipped rather than ending the session.
            for line in lines {
                if case .success(let message) = ServerMessageCoding.decode(line) { perform(app.receive(message, at: now)) }
            }
        case .ended(let reason): lose(reason, at: now)
        }
    }

    /// Drops the connection and tells the app why.
    func lose(_ reason: String, at now: Int64) {
        disconnect()
        perform(app.connectionLost(reason, at: now))
    }
}
