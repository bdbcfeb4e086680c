import SetRules
import SetWire

/// One client's side of the protocol, written once for the terminal, the bots and the bench: the
/// welcome and the join (or the resume, with its token, `lastSeq` and `takeOver`), the pings, giving
/// up on a server that stopped answering, the match view kept current by events, and a snapshot
/// asked for after a gap. A value with no I/O and no clock: messages and local times (milliseconds,
/// monotonic) come in, `SessionEffect`s come out, and the driver performs them.
package struct ClientSession: Hashable, Sendable {
    /// When a client pings.
    package enum PingPolicy: Hashable, Sendable {
        /// At the welcome and every interval, answered or not: each pong is a sample for the
        /// terminal's clock sync and its round-trip display.
        case measuring
        /// Only to keep the connection alive, one at a time, the first an interval after the welcome:
        /// a silent server gets one unanswered ping, not one every interval (bots).
        case keepAlive
    }

    /// Where the session stands on its connection.
    package enum Stage: Hashable, Sendable {
        /// No connection.
        case offline
        /// Connected; the server speaks first.
        case greeting
        /// Greeted; a spectator has not chosen a match yet.
        case choosing
        /// The join was sent and not answered yet.
        case joining
        case joined
        /// Greeted and listed in the lobby (or asking to be): no match joined yet.
        case lobby
        /// Greeted and joined to an arena (or asking to be), between its duels.
        case arena
    }

    /// The usual ping interval: well within the server's 60 s idle timeout.
    package static let pingInterval: Int64 = 5_000
    /// The usual wait for an owed answer: a server that neither reads nor answers must not keep a
    /// client waiting, or its requests piling up.
    package static let unansweredLimit: Int64 = 30_000

    /// Who this client is and what it asks for (the name may become the server's suggestion).
    package var options: ClientOptions
    package internal(set) var stage = Stage.offline
    /// The seat token to resume with; the server's newest.
    package internal(set) var token: String?
    /// Take the seat even while another connection holds it: asked for, or our own old connection.
    package internal(set) var takeOver: Bool
    /// True once a join (or, for a spectator choosing, a list) succeeded: later losses are retried
    /// and a seat still held is our own old connection's.
    package internal(set) var everJoined = false
    /// The match joined as the server named it, or the one a spectator chose.
    package internal(set) var matchName: String?
    package internal(set) var seat: Seat?
    /// The match as the server last told it: a snapshot, then every event in order.
    package internal(set) var view: MatchView?
    /// When the snapshot asked for after a gap was asked; events are ignored until it arrives.
    package internal(set) var snapshotAskedAt: Int64?
    /// Events are ignored until the snapshot asked for after a gap arrives.
    package var awaitingSnapshot: Bool { snapshotAskedAt != nil }
    /// How long a snapshot asked for after a gap may take before it is asked for again: the
    /// request may have been dropped (`rate_limited` names no line), and a session waiting for
    /// it would ignore every event for good.
    package static let snapshotPatience: Int64 = 5_000
    /// Spectators: how many sets the table holds.
    package internal(set) var setsOnTable: Int?
    /// The match's chat as heard here, and whom this person muted.
    package var chat = ChatLog()
    /// A spectator without a match to watch: greeted, it waits for `watch(_:)`.
    package internal(set) var isChoosing: Bool
    /// When the next ping is due.
    package internal(set) var nextPingAt: Int64 = 0
    /// Since when the client waits for the server's word: the welcome after connecting, or the pong
    /// for its oldest unanswered ping; nil while nothing is owed.
    package internal(set) var awaitingAnswerSince: Int64?
    /// How many suggested names this session took (`takesSuggestedName`): a few, never a loop.
    package internal(set) var suggestionsTaken = 0
    /// The most suggested names one session takes before passing the refusal on.
    package static let maxSuggestionsTaken = 3
    /// When we last answered a measuring ping.
    package internal(set) var lastPongAt: Int64?
    /// The least time between two pongs: the server measures every 2 s.
    package static let pongSpacing: Int64 = 500
    /// The node the last `redirect` named: where the driver connects from then on (resumes
    /// included); nil while the session has not been redirected (the driver's own server).
    package internal(set) var redirectedPlace: ServerPlace?
    /// Redirects followed since the last join was answered (`maxRedirects` at most).
    package internal(set) var redirectsFollowed = 0
    /// The handoff ticket the last redirect gave (a door connection's), for the next join only.
    package internal(set) var ticket: String?
    /// The match the last redirect named: a quick pairing's redirect names the match waiting there.
    package internal(set) var redirectedMatch: String?
    /// A join answered `node_away`, waiting to be sent again.
    package internal(set) var nodeAway: NodeAwayWait?
    /// Joins sent again after `node_away` since the last join was answered.
    package internal(set) var nodeAwayRetries = 0
    /// Whether the server greeted us on this connection: one that ended before is a node that
    /// never answered (`lost(_:at:)`).
    package internal(set) var greetedHere = false
    /// Connections tried again after a redirect's node did not answer, since the last join was answered.
    package internal(set) var unreachableRetries = 0
    /// How long a join answered `node_away` keeps asking: a program (a bot, the bench) a few
    /// times; the screen, where a person watches the countdown and can quit, until the node is back.
    package var awayNodePatience = AwayNodePatience.tries(ClientSession.maxNodeAwayRetries)
    /// The session's goal is the lobby, not a match (`enterLobby`): greeted, it enters the lobby
    /// and keeps its lists fresh until an accepted challenge gives it a seat.
    package internal(set) var inLobby = false
    /// When the lobby's lists are asked for again.
    package internal(set) var nextLobbyRefreshAt: Int64 = 0
    /// The arena the session plays in or watches (`enterArena`); nil for any other session.
    package internal(set) var arena: ArenaGoal?

    package init(_ options: ClientOptions, token: String? = nil, takeOver: Bool = false) {
        self.options = options
        self.token = token
        self.takeOver = takeOver
        isChoosing = options.role == .spectator && options.match == nil
    }

    // MARK: Connection

    /// The connection is open. Whatever waited on an old connection's answers is forgotten: a
    /// snapshot asked for there never comes here, and waiting for it would drop every event.
    @discardableResult
    package mutating func connected(at now: Int64) -> [SessionEffect] {
        stage = .greeting
        greetedHere = false
        snapshotAskedAt = nil
        nodeAway = nil
        awaitingAnswerSince = now  // the welcome is owed
        arena?.joinedHere = false
        guard options.joinsAtOnce && !isChoosing && !inLobby && (arena == nil || inArenaDuel) else { return [] }
        stage = .joining
        return [.send(joinMessage)]
    }

    /// The connection ended; nothing is sent or owed until the next one.
    package mutating func disconnected() {
        stage = .offline
    }

    /// The join request as it stands now: a resume when a token is kept.
    package var joinMessage: ClientMessage {
        if options.role == .spectator {
            var request = JoinRequest(role: .spectator, name: options.name, match: redirectedMatch ?? matchName ?? options.match,
                                      mode: options.mode, lastSeq: view?.seq)
            request.ticket = ticket
            return .join(request)
        }
        let resuming = token != nil
        // A resume names its match (`resumeMatch`): a node that does not hold it redirects.
        var request = JoinRequest(role: .player, name: options.name, match: redirectedMatch ?? (resuming ? resumeMatch : options.match),
                                  mode: options.mode, token: token, lastSeq: resuming ? view?.seq : nil,
                                  takeOver: resuming && takeOver, variant: resuming ? nil : options.variant)
        request.account = options.account
        request.casual = options.casual
        request.bot = options.bot
        request.ticket = ticket
        return .join(request)
    }

    /// A spectator chose a match to watch.
    package mutating func watch(_ match: String) -> [SessionEffect] {
        matchName = match
        isChoosing = false
        guard stage == .choosing else { return [] }
        stage = .joining
        return [.send(joinMessage)]
    }

    /// The user agreed to take over a seat still held by another connection.
    package mutating func agreeToTakeOver() -> [SessionEffect] {
        takeOver = true
        return stage == .joining ? [.send(joinMessage)] : []
    }

    /// A chat line to say in our own room (the server knows which that is).
    package func say(_ text: String) -> ClientMessage { .chat(room: nil, text: text) }

    /// The request that carries a move of ours (the server knows our seat); a claim says the last
    /// event we had when it was made (`seen`): the table it claims.
    package func request(_ action: Action) -> ClientMessage {
        .act(action, seat: nil, seen: action == .claim ? view?.seq : nil)
    }

    // MARK: Time

    /// Pings when due, refreshes the lobby's lists when due, and gives up on a server that owes an
    /// answer for too long.
    package mutating func tick(at now: Int64) -> [SessionEffect] {
        guard stage != .offline else { return [] }
        let retried = retryAfterNodeAway(at: now)
        if !retried.isEmpty { return retried }
        if let since = awaitingAnswerSince, now.saturatingSubtracting(since) >= options.unansweredLimit {
            stage = .offline
            return [.gaveUp(.silent(ms: options.unansweredLimit))]
        }
        var refreshed = stage == .lobby && nodeAway == nil && now >= nextLobbyRefreshAt ? refreshLobby(at: now) : []
        if let asked = snapshotAskedAt, now.saturatingSubtracting(asked) >= Self.snapshotPatience {
            snapshotAskedAt = now
            refreshed += [.send(.snapshot), .log("the snapshot asked for after a gap did not come; asking again")]
        }
        guard now >= nextPingAt else { return refreshed }
        nextPingAt = now.saturatingAdding(options.pingInterval)
        if options.pings == .keepAlive && awaitingAnswerSince != nil { return refreshed }
        return refreshed + [ping(at: now)]
    }

    /// When `tick` next has something to do; nil while offline.
    package var nextWake: Int64? {
        guard stage != .offline else { return nil }
        let retry = min(nodeAway?.retryAt ?? Int64.max, stage == .lobby && nodeAway == nil ? nextLobbyRefreshAt : Int64.max,
                        snapshotAskedAt.map { $0.saturatingAdding(Self.snapshotPatience) } ?? Int64.max)
        guard let since = awaitingAnswerSince else { return min(nextPingAt, retry) }
        return min(nextPingAt, since.saturatingAdding(options.unansweredLimit), retry)
    }

    /// A ping of ours, remembered until its pong.
    mutating func ping(at now: Int64) -> SessionEffect {
        if awaitingAnswerSince == nil { awaitingAnswerSince = now }
        return .send(.ping(time: now))
    }
}
