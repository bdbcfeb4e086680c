import SetClient
import SetNet
import SetRules
import SetWire

/// What a bot is told to do.
package struct BotOptions: Sendable, Equatable {
    package var host = "127.0.0.1"
    package var port: UInt16 = 7380
    /// The match to join; nil pairs it with whoever is waiting.
    package var match: String?
    package var level = BotLevel.normal
    package var name = "bot"
    /// Seeds the bot's decisions; the same seed and the same game make the same choices.
    package var seed: UInt64 = 1
    /// Whether it asks for a rematch after each game, as a good opponent does.
    package var asksForRematch = true
    /// A seat token from an earlier `joined`: the bot takes that seat back, even from a connection
    /// of its own the server has not yet seen close.
    package var token: String?
    /// The variant it asks for; nil plays whatever the match plays (classic for a new one).
    package var variant: Variant?
    /// Set by `setgame door`: reach the server through the door's Unix socket, not `host:port`.
    package var route: UnixRoute?
    /// The bot's own account key on this server (it is listed as a bot); nil: a guest.
    package var account: String?
    /// Whether its games are unrated.
    package var casual = false
    /// Whether it joins under the server's `suggestion` when its name is taken or kept (a name
    /// nobody chose: `setgame bot` without `--name`, whose level's name the house bot keeps).
    package var takesSuggestedName = false
    /// The arena it plays in (`setgame bot --arena`): it joins the arena, plays each duel dealt to
    /// it on the same connection, and ends once the arena's standings are final. Nil: one match.
    package var arena: String?

    package init() {}
}

extension BotOptions {
    /// `count` bots like this one, named NAME-1 to NAME-N and seeded apart; one keeps its name.
    package func team(of count: Int) -> [BotOptions] {
        guard count > 1 else { return [self] }
        return (1...count).map { number in
            var one = self
            one.name = "\(name)-\(number)"
            one.seed = seed &+ UInt64(number)
            return one
        }
    }
}

/// One bot: an ordinary protocol client driving a `ClientSession`, as the terminal does. It sees
/// exactly what a player sees and acts only by sending messages. It trusts nothing the server says:
/// a refused join or a fatal error ends it with the server's words (made printable), and a server
/// that stops answering or reading is given up on rather than waited for, or queued for, without end.
final class BotPlayer {
    let options: BotOptions
    let loop: EventLoop
    /// The connection now: a `redirect` replaces it with one to the node holding the match.
    private(set) var connection: LineSocket
    /// Where it is connected: its server, or the node a redirect sent it to.
    private(set) var place: ServerPlace
    private(set) var session: ClientSession
    private(set) var brain: BotBrain?
    private(set) var errorsReceived = 0
    private(set) var closedReason: String?
    /// The match joined, once the server said so.
    private(set) var joinedMatch: String?
    /// Why the bot failed (a refused join, a fatal error, a silent server); nil while all is well.
    private(set) var failure: String?
    /// An arena bot's arena as last heard: its final standings once the bot is done.
    private(set) var arenaState: ArenaView?
    /// Arena duels dealt to it so far: each has a brain of its own, seeded apart.
    private(set) var duelsDealt = 0
    /// Called once, when the server confirms the join (an arena bot: the arena's name, once).
    var onJoined: (String) -> Void = { _ in }
    /// Called on an arena bot's events: each pairing, each duel's end, and each state (the last final).
    var onArena: (ArenaHeard) -> Void = { _ in }
    /// Called with each connection the bot opens after a redirect, for its runner to hear it.
    var onConnection: (LineSocket) -> Void = { _ in }
    /// Called with what its session has to say for a log (events missed, a snapshot asked for).
    var onLog: (String) -> Void = { _ in }
    /// When the bot connects again after a redirect's node did not answer; nil while it need not.
    private(set) var reconnectAt: Instant?

    /// A bot sends a few short lines a second: this much waiting means the server stopped reading.
    static let maxQueuedBytes = 64 * 1024

    /// The runner's clock, which `act` and `receive` are given the time of: a claim is stamped with it.
    private let clock: TimeSource

    init(_ options: BotOptions, loop: EventLoop, clock: TimeSource) throws(SystemCallError) {
        let now = clock.now()
        self.options = options
        self.loop = loop
        self.clock = clock
        // A kept token is the bot's own seat: it takes it back even from its own connection the
        // server has not yet seen close.
        var client = ClientOptions(name: options.name, match: options.match, mode: .duel, variant: options.variant,
                                   pings: .keepAlive)
        client.joinsAtOnce = true
        client.account = options.account
        client.casual = options.casual
        client.bot = true
        client.takesSuggestedName = options.takesSuggestedName
        session = ClientSession(client, token: options.token, takeOver: options.token != nil)
        if let arena = options.arena { _ = session.enterArena(arena, at: now.milliseconds) }  // not connected yet: the welcome joins it
        place = options.route.map(ServerPlace.door) ?? .tcp(host: options.host, port: options.port)
        connection = try LineSocket.connect(to: place, maxQueuedBytes: Self.maxQueuedBytes)
        try connection.serve(on: loop)
        perform(session.connected(at: now.milliseconds), at: now)
        connection.flush()
    }

    /// Connected, or waiting to connect again.
    var isOpen: Bool { connection.isOpen || reconnectAt != nil }
    var view: MatchView? { session.view }
    /// The seat token the server gave it.
    var token: String? { session.token }

    /// Takes in one line from the server and lets the brain see the new view.
    func receive(_ line: [UInt8], at now: Instant) {
        guard case .success(let message) = ServerMessageCoding.decode(line) else { return }
        perform(session.receive(message, at: now.milliseconds), at: now)
        if case .error = message { claimSentAt = nil } else { claimAnswered(by: session.view) }
        if let view = session.view { brain?.observe(view, at: now) }
    }

    /// Pings when due, and gives up on a server that owes an answer for too long.
    func keepAlive(at now: Instant) {
        if let due = reconnectAt, now >= due {
            reconnectAt = nil
            connect(to: session.redirectedPlace ?? firstPlace, at: now)
        }
        perform(session.tick(at: now.milliseconds), at: now)
    }

    /// The server the bot was given.
    private var firstPlace: ServerPlace { options.route.map(ServerPlace.door) ?? .tcp(host: options.host, port: options.port) }

    /// Its connection ended for `reason`: a redirect's node that never answered is tried again
    /// later, through the server first given, as the session's patience allows (true: the bot goes
    /// on); any other end is the bot's.
    func connectionEnded(_ reason: String, at now: Instant) -> Bool {
        guard failure == nil else { return false }
        for effect in session.lost(reason, at: now.milliseconds) {
            switch effect {
            case .unreachable(let wait):
                reconnectAt = Instant(milliseconds: wait.retryAt)
                return true
            case .gaveUp(let end):
                fail(end.reason)
            default: break
            }
        }
        return false
    }

    private func perform(_ effects: [SessionEffect], at now: Instant) {
        for effect in effects where failure == nil {
            switch effect {
            case .send(let message): request(message)
            case .joined(let match, let seat, _, _):
                // An arena's duels come one after another, each with a brain of its own; a plain
                // bot's later joins (a redirect, a resume) keep the seat and the brain it has.
                guard joinedMatch == nil || (session.inArenaDuel && brain == nil) else { continue }
                let first = joinedMatch == nil
                joinedMatch = match
                if let seat {
                    brain = BotBrain(level: options.level, seat: seat, seed: options.seed &+ UInt64(duelsDealt),
                                     asksForRematch: options.asksForRematch && options.arena == nil)
                }
                if first && options.arena == nil { onJoined(match) }
            case .arena(let heard): hear(heard)
            case .refused(let error) where Self.chatCodes.contains(error.code):
                // Its "gg" was not said (chat off, a limit): nothing a bot needs to answer.
                owesGoodGame = false
            case .refused(let error) where error.code == .rateLimited:
                // Sent faster than the server takes (an instant bot against another): quiet for a
                // while, so its lines, pings too, are read again rather than dropped.
                errorsReceived += 1
                quietUntil = now.adding(Self.quietAfterRateLimitMs)
                // The dropped line may be a join (an arena's next duel, sent right after a burst
                // of moves): unanswered after the quiet, it is sent again, or the seat stays empty.
                joinAgainAfterQuiet = session.stage == .joining
            case .refused(let error), .seatInUse(let error):
                errorsReceived += 1
                if !hasJoined {
                    fail("the server refused to seat it: \(ServerText.printable(error.message)) (\(error.code.rawValue))")
                } else if error.fatal {
                    fail("the server ended the connection: \(ServerText.printable(error.message)) (\(error.code.rawValue))")
                }
            case .goodbye(let reason): closedReason = ServerText.printable(reason)
            case .gaveUp(.silent(let ms)) where !session.greetedHere && session.redirectedPlace != nil:
                // A node that never greeted us: the connection's end says what follows.
                connection.close("no answer within \(ms / 1_000) s")
            case .gaveUp(let end): fail(end.reason)
            case .redirected(let place): move(to: place, at: now)
            case .eventApplied(let event, _):
                // A short "gg" as each game ends, as people say it; after the quiet, if in one.
                if case .gameOver = event.body, brain != nil {
                    owesGoodGame = true
                    if quietUntil == nil { request(session.say(Self.goodGame)) }
                }
            case .chatHeard(let line, _):
                if line.seat != nil, line.seat == session.seat, line.text == Self.goodGame { owesGoodGame = false }
            case .log(let line): onLog(line)
            case .saveToken, .welcomed, .readyToChoose, .viewReplaced, .setsOnTable, .roundTrips, .listed, .pong,
                 .lobbyListed, .challenge, .nodeAway, .unreachable:
                break
            }
        }
    }

    /// Whether the server took the bot in: its match, or its arena.
    var hasJoined: Bool { joinedMatch != nil || arenaState != nil }

    /// Whether its arena's standings are final: an arena bot's run is over.
    var arenaIsOver: Bool { arenaState.map { $0.state == .finished && $0.boards.isEmpty } ?? false }

    /// What the arena said: its state (the first joins, the final ends the bot), a duel dealt (a
    /// fresh brain once seated), or the duel's end (the brain goes until the next one).
    private func hear(_ heard: ArenaHeard) {
        switch heard {
        case .state(let state):
            guard state.arena == options.arena else { return }
            let first = arenaState == nil
            arenaState = state
            if first { onJoined(state.arena) }
            onArena(heard)
            if arenaIsOver {
                closedReason = "the arena is over"
                session.disconnected()
                connection.close("the arena is over")
            }
        case .paired:
            duelsDealt += 1
            brain = nil
            onArena(heard)
        case .duelOver:
            brain = nil
            onArena(heard)
        case .listed, .results:
            break
        }
    }

    /// Follows its match to another node: the old connection goes quietly (its close is not the
    /// bot's end), the new one is handed to the runner, and the session joins again there.
    private func move(to place: ServerPlace, at now: Instant) {
        let old = connection
        old.onClose = { _ in }
        old.onLine = { _ in }
        old.close("redirected to \(place.description)")
        connect(to: place, at: now)
    }

    /// Opens a connection to `place` without waiting for it (the session's wait for the welcome
    /// bounds it), hands it to the runner, and joins on it. One that cannot even start is told to
    /// the session as a connection that ended at once.
    private func connect(to place: ServerPlace, at now: Instant) {
        let next: LineSocket
        do {
            next = try LineSocket.connect(to: place, waitForConnection: false, maxQueuedBytes: Self.maxQueuedBytes)
            try next.serve(on: loop)
        } catch {
            let reason = "cannot connect to \(place.description): \(error)"
            if !connectionEnded(reason, at: now) { fail(reason) }
            return
        }
        connection = next
        self.place = place
        onConnection(connection)
        perform(session.connected(at: now.milliseconds), at: now)
    }

    /// What a bot says when a game ends.
    static let goodGame = "gg"
    /// The refusals of a chat line.
    static let chatCodes: Set<ErrorCode> = [.chatOff, .chatRoomClosed, .chatLimited, .chatRepeated, .chatSilenced]

    /// Remembers why the connection ended, unless a better reason is known already.
    func noteClosed(_ reason: String) {
        if closedReason == nil { closedReason = reason }
    }

    /// Ends the bot with a reason; the runner reports it and exits non-zero.
    func fail(_ reason: String) {
        guard failure == nil else { return }
        failure = reason
        closedReason = reason
        session.disconnected()
        connection.close(reason)
    }

    /// How long a bot told `rate_limited` sends no move: the server's allowance refills meanwhile.
    static let quietAfterRateLimitMs: Int64 = 1_000
    /// Until when it sends no move, after `rate_limited`.
    private(set) var quietUntil: Instant?
    /// Whether the join goes again once the quiet is over, if still unanswered.
    private var joinAgainAfterQuiet = false
    /// Whether its "gg" for the game that ended is still unheard. `rate_limited` names no line,
    /// and an instant bot's last moves can spend the allowance just before the end: an unheard
    /// "gg" is said again once the quiet is over, as the join is.
    private var owesGoodGame = false

    /// Sends whatever the brain has due now. A bot `leaving` its seat (`BotRunner.Control.stepOut`)
    /// sends only what finishes a turn of its own (the picks of its claim). One held back that
    /// stays after all looks at the table afresh, as it would coming back: a set it had seen
    /// before the pause is not claimed at once. One that was finishing its turn goes on with it.
    func act(at now: Instant, leaving: Bool = false) {
        if leaving && mayStepOut(at: now) {
            heldBack = true
            return
        }
        if heldBack && !leaving, let view = session.view {
            heldBack = false
            brain?.lookAfresh(at: view, now: now)
        }
        if let quiet = quietUntil {
            guard now >= quiet else { return }
            quietUntil = nil
            if joinAgainAfterQuiet && session.stage == .joining { request(session.joinMessage) }
            joinAgainAfterQuiet = false
            // Only while that game is the one shown: a rematch or an arena's next duel has begun.
            if owesGoodGame, session.view?.phase == .over { request(session.say(Self.goodGame)) }
        }
        guard let view = session.view, var current = brain else { return }
        let actions = current.due(at: now, view: view)
        brain = current
        for action in actions { request(session.request(action)) }
    }

    /// The next instant the bot has something to do: its brain's next move or the session's next ping.
    var nextWakeUp: Instant? {
        [quietUntil.map { quiet in owesGoodGame ? quiet : max(quiet, brain?.nextWakeUp ?? quiet) } ?? brain?.nextWakeUp,
         session.nextWake.map(Instant.init(milliseconds:)), reconnectAt].compactMap { $0 }.min()
    }

    private func request(_ message: ClientMessage) {
        if case .act(.claim, _, _) = message { claimSentAt = clock.now() }
        connection.send(ClientMessageEncoder.line(ClientRequest(message)))
    }

    // MARK: Stepping out

    /// Whether a tick held the bot back while it was leaving: it has a plan it did not carry out.
    private var heldBack = false
    /// When its last claim was sent, until the server answers it (a window opens, or an error);
    /// a held claim (lag compensation) is answered within the hold's cap.
    private var claimSentAt: Instant?
    /// The longest a claim is waited for before the bot takes it as lost: far more than any hold.
    static let claimAnswerMs: Int64 = 3_000

    /// Whether the bot may leave its seat now at no cost to itself: no claim of its on the way or
    /// held, and no window of its own open (a claim's picks, a second chance, a deal's grace).
    func mayStepOut(at now: Instant) -> Bool {
        if let sent = claimSentAt, now.milliseconds(since: sent) < Self.claimAnswerMs { return false }
        guard let view = session.view, let seat = session.seat, view.phase == .playing else { return true }
        return view.window?.holder != seat
    }

    /// Leaves the seat quietly: the server sees the connection end, as when a player drops, and
    /// the seat waits; the runner is not told of an end it asked for.
    func stepOut() {
        closedReason = "stepped out"
        session.disconnected()
        connection.onClose = { _ in }
        connection.close("stepped out")
    }

    /// A claim of ours was answered: a window opened (ours or the rival's), the game moved on, or
    /// an error came back.
    private func claimAnswered(by view: MatchView?) {
        guard claimSentAt != nil else { return }
        if view == nil || view?.window != nil || view?.phase != .playing { claimSentAt = nil }
    }
}
