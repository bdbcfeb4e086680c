import SetNet
import SetRules
import SetWire

/// What a bot is told to do.
public struct BotOptions: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port: UInt16 = 7380
    /// The match to join; nil pairs it with whoever is waiting.
    public var match: String?
    public var level = BotLevel.normal
    public var name = "bot"
    /// Seeds the bot's decisions; the same seed and the same game make the same choices.
    public var seed: UInt64 = 1
    /// Whether it asks for a rematch after each game, as a good opponent does.
    public var asksForRematch = true
    /// A seat token from an earlier `joined`: the bot takes that seat back, even from a connection
    /// of its own the server has not yet seen close.
    public var token: String?
    /// The variant it asks for; nil plays whatever the match plays (classic for a new one).
    public var variant: Variant?

    public init() {}
}

/// One bot: an ordinary protocol client. It sees exactly what a player sees and acts only by
/// sending messages. It trusts nothing the server says: a refused join or a fatal error ends it
/// with the server's words (made printable), and a server that stops answering or reading is
/// given up on rather than waited for, or queued for, without end.
final class BotPlayer {
    let options: BotOptions
    let connection: LineSocket
    private(set) var view: MatchView?
    private(set) var brain: BotBrain?
    private(set) var errorsReceived = 0
    private(set) var closedReason: String?
    /// The seat token the server gave it.
    private(set) var token: String?
    /// The match joined, once the server said so.
    private(set) var joinedMatch: String?
    /// Why the bot failed (a refused join, a fatal error, a silent server); nil while all is well.
    private(set) var failure: String?
    /// Called once, when the server confirms the join.
    var onJoined: (String) -> Void = { _ in }
    /// A snapshot was asked for after a gap: further gaps wait for it instead of asking again.
    private var awaitingSnapshot = false
    /// When the oldest unanswered ping was sent.
    private var awaitingPongSince: Instant?

    /// How long a ping may go unanswered before the server is given up on.
    static let unansweredLimitMs: Int64 = 30_000
    /// A bot sends a few short lines a second: this much waiting means the server stopped reading.
    static let maxQueuedBytes = 64 * 1024

    init(_ options: BotOptions, loop: EventLoop) throws(SocketError) {
        self.options = options
        connection = try LineSocket.connect(host: options.host, port: options.port, maxQueuedBytes: Self.maxQueuedBytes)
        try connection.serve(on: loop)
        connection.send(ClientMessageEncoder.line(ClientRequest(.join(
            JoinRequest(name: options.name, match: options.match, mode: .duel, token: options.token,
                        takeOver: options.token != nil, variant: options.variant)))))
        connection.flush()
    }

    var isOpen: Bool { connection.isOpen }

    /// Takes in one line from the server and lets the brain see the new view.
    func receive(_ line: [UInt8], at now: Instant) {
        guard case .success(let message) = ServerMessageCoding.decode(line) else { return }
        switch message {
        case .joined(_, let match, _, let seat, let token, _, _):
            guard joinedMatch == nil else { return }
            joinedMatch = match
            self.token = token
            if let seat {
                brain = BotBrain(level: options.level, seat: seat, seed: options.seed, asksForRematch: options.asksForRematch)
            }
            onJoined(match)
        case .snapshot(let snapshot):
            view = snapshot
            awaitingSnapshot = false
        case .event(let event):
            guard let seq = view?.seq, !awaitingSnapshot, event.seq > seq else { return }
            if view?.apply(event) == false {
                awaitingSnapshot = true
                request(.snapshot)
            }
        case .insight(_, _, let sets): view?.setsOnTable = sets
        case .error(let error, _):
            errorsReceived += 1
            if joinedMatch == nil {
                return fail("the server refused to seat it: \(ServerText.printable(error.message)) (\(error.code.rawValue))")
            }
            if error.fatal { return fail("the server ended the connection: \(ServerText.printable(error.message)) (\(error.code.rawValue))") }
        case .goodbye(let reason): closedReason = ServerText.printable(reason)
        case .pong: awaitingPongSince = nil
        default: return
        }
        if let view { brain?.observe(view, at: now) }
    }

    /// Remembers why the connection ended, unless a better reason is known already.
    func noteClosed(_ reason: String) {
        if closedReason == nil { closedReason = reason }
    }

    /// Ends the bot with a reason; the runner reports it and exits non-zero.
    func fail(_ reason: String) {
        guard failure == nil else { return }
        failure = reason
        closedReason = reason
        connection.close(reason)
    }

    /// Sends whatever the brain has due now.
    func act(at now: Instant) {
        guard let view, var current = brain else { return }
        let actions = current.due(at: now, view: view)
        brain = current
        for action in actions { request(.act(action, seat: nil)) }
    }

    var nextWakeUp: Instant? { brain?.nextWakeUp }

    private func request(_ message: ClientMessage) {
        connection.send(ClientMessageEncoder.line(ClientRequest(message)))
    }

    /// Pings, unless a ping is still unanswered: then the server gets until `unansweredLimitMs`.
    func keepAlive(at now: Instant) {
        if let since = awaitingPongSince {
            if now.milliseconds(since: since) >= Self.unansweredLimitMs {
                fail("the server did not answer for \(Self.unansweredLimitMs / 1_000) s")
            }
            return
        }
        awaitingPongSince = now
        request(.ping(time: now.milliseconds))
    }
}
