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
/// sending messages.
final class BotPlayer {
    let options: BotOptions
    let connection: LineConnection
    private(set) var view: MatchView?
    private(set) var brain: BotBrain?
    private(set) var errorsReceived = 0
    private(set) var closedReason: String?
    /// The seat token the server gave it.
    private(set) var token: String?

    init(_ options: BotOptions, loop: EventLoop) throws(SocketError) {
        self.options = options
        connection = try LineConnection(host: options.host, port: options.port, loop: loop)
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
        case .joined(_, _, _, let seat, let token, _, _):
            self.token = token
            if let seat {
                brain = BotBrain(level: options.level, seat: seat, seed: options.seed, asksForRematch: options.asksForRematch)
            }
        case .snapshot(let snapshot): view = snapshot
        case .event(let event):
            if view?.apply(event) == false { request(.snapshot) }
        case .insight(_, _, let sets): view?.setsOnTable = sets
        case .error: errorsReceived += 1
        case .goodbye(let reason): closedReason = reason
        default: return
        }
        if let view { brain?.observe(view, at: now) }
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

    func keepAlive(at now: Instant) { request(.ping(time: now.milliseconds)) }
}
