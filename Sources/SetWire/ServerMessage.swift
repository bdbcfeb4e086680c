import SetRules

/// The limits a server enforces, announced in its welcome so clients can keep within them.
package struct ServerLimits: Hashable, Sendable {
    package var maxLineBytes = 4_096
    /// Messages a connection may send per second on average, and in a burst.
    package var messagesPerSecond = 50
    package var messageBurst = 100
    package var maxConnections = 8_192
    /// Bytes that may wait to be sent to one connection before it is dropped as too slow.
    package var outboundQueueBytes = 1 << 20
    /// A connection that sends nothing for this long is closed; clients should ping well within it.
    package var idleTimeoutMs: Int64 = 60_000
    /// How long a playing match waits for a player who dropped before their seat forfeits.
    package var seatWaitMs: Int64 = 120_000
    /// What every connection's queue together may hold before the fullest are dropped as too
    /// slow: a crowd of clients that stopped reading, each under `outboundQueueBytes`, cannot
    /// take the server's memory between them. Kept by the server, not announced.
    package var queuedBytesTotal = 64 << 20

    package init() {}
}

/// The state of a match as a whole.
package enum MatchPhase: String, CaseIterable, Sendable {
    /// A duel waiting for its second player.
    case waiting
    case playing
    case over
}

/// A seat and who sits in it.
package struct PlayerInfo: Hashable, Sendable {
    package var seat: Seat
    package var name: String
    /// Whether the player is connected now.
    package var present: Bool
    package var score: Int
    /// The player's rating in the match's variant, for an account; nil for a guest.
    package var rating: Int?
    /// Whether that rating is provisional (shown with `?`).
    package var provisional = false

    package init(seat: Seat, name: String, present: Bool, score: Int, rating: Int? = nil, provisional: Bool = false) {
        self.rating = rating
        self.provisional = provisional
        self.seat = seat
        self.name = name
        self.present = present
        self.score = score
    }
}

/// One line of the match list.
package struct MatchListing: Hashable, Sendable {
    package var name: String
    package var mode: Mode
    package var phase: MatchPhase
    package var players: [PlayerInfo]
    package var spectators: Int
    package var variant: Variant
    /// Where the match is played when another server (node) sharing this one's store holds it,
    /// `HOST:PORT`; nil for a match on the server that answered.
    package var address: String?

    package init(name: String, mode: Mode, phase: MatchPhase, players: [PlayerInfo], spectators: Int,
                variant: Variant = .classic, address: String? = nil) {
        self.variant = variant
        self.address = address
        self.name = name
        self.mode = mode
        self.phase = phase
        self.players = players
        self.spectators = spectators
    }
}

/// What a server says when a game begins, first or after a rematch.
package struct GameStart: Hashable, Sendable {
    package var game: Int
    package var table: [Card]
    package var deck: Int
    package var scores: [Int]
    /// SHA-256 of "setgame:<seed>", published now, the seed revealed at the end.
    package var commitment: String

    package init(game: Int, table: [Card], deck: Int, scores: [Int], commitment: String) {
        self.game = game
        self.table = table
        self.deck = deck
        self.scores = scores
        self.commitment = commitment
    }
}

/// What an event says happened. Rules events travel as they are; the host adds its own.
package enum EventBody: Hashable, Sendable {
    /// Any rules event except `matchEnded`, which travels as `gameOver` with the seed.
    case rules(MatchEvent)
    /// `ratings`: how a rated game moved each seat's rating; empty for an unrated game.
    case gameOver(MatchResult, seed: UInt64?, ratings: [RatingChange] = [])
    case gameStarted(GameStart)
    /// `rating`: an account's rating in the match's variant (`provisional`: shown with `?`); nil for a guest.
    case playerJoined(seat: Seat, name: String, rating: Int? = nil, provisional: Bool = false)
    /// A player left or came back. While one is away a playing match is paused; `forfeitAt` is
    /// the server time at which the absent seat loses if it has not returned.
    case presence(seat: Seat, present: Bool, forfeitAt: Int64?)
    /// Play goes on after a pause; running timers moved later by the time the match stood still.
    case resumed(window: Window?, tableChangedAt: Int64)
    case spectators(count: Int)
}

/// One state change in a match, numbered by `seq`, which rises by one per event.
package struct WireEvent: Hashable, Sendable {
    package var match: String
    package var seq: Int
    /// Server time, in milliseconds on its monotonic clock.
    package var time: Int64
    package var body: EventBody

    package init(match: String, seq: Int, time: Int64, body: EventBody) {
        self.match = match
        self.seq = seq
        self.time = time
        self.body = body
    }
}

/// Everything a server may send.
package enum ServerMessage: Hashable, Sendable {
    case welcome(server: String, versions: [Int], time: Int64, limits: ServerLimits)
    /// `resumed`: a seat token brought the player back to a seat they held.
    case joined(role: Role, match: String, mode: Mode, seat: Seat?, token: String?, resumed: Bool, id: JSONValue?)
    case snapshot(MatchView)
    case event(WireEvent)
    /// Spectators only: how many sets the table holds, after each change of the table.
    case insight(match: String, seq: Int, setsOnTable: Int)
    /// One page of live matches; `next` is the cursor of the following page, nil on the last.
    case matches([MatchListing], next: String?, id: JSONValue?)
    /// An accepted request that carried an id; the outcome is the broadcast event.
    case ack(id: JSONValue, seq: Int)
    case pong(time: Int64, clientTime: Int64?, id: JSONValue?)
    case error(WireError, id: JSONValue?)
    case goodbye(reason: String)
    /// The server has heard nothing for half the idle timeout: answer with any line (a `ping`).
    /// With `echo` the server is measuring the round trip (lag compensation): answer at once with
    /// a `pong` carrying the same `time`.
    case ping(time: Int64, echo: Bool = false)
    /// Each seat's round trip as the server measures it (smoothed, milliseconds; nil where not
    /// measured), for every scoreboard, when it changes; only while lag compensation is on.
    case roundTrips(match: String, ms: [Int64?])
    /// A line said in a match's chat, to those who may read its room.
    case chat(ChatLine)
    /// The answer to a `profile`, `history`, `crosstable` or `leaderboard` request.
    case accountInfo(AccountInfo, id: JSONValue?)
    /// Who is listed in the lobby: the answer to `lobby`.
    case lobby([LobbyEntry], id: JSONValue?)
    /// A challenge made, answered or accepted, told to both its sides.
    case challenge(ChallengeNotice, id: JSONValue?)
    /// The answer to `health`.
    case health(HealthReport, id: JSONValue?)
    /// The answer to a `join` for a match another server (node) holds: send the same join there.
    case redirect(Redirect, id: JSONValue?)
    /// The arenas listed: the answer to `arenas`.
    case arenas([ArenaSummary], id: JSONValue?)
    /// An arena's whole state: the answer to an arena request, and pushed on every change.
    case arena(ArenaView, id: JSONValue?)
    /// A duel dealt to this player in their arena.
    case arenaPairing(ArenaPairingNotice)
    /// An arena's standings with performance, and its winners.
    case arenaResults(ArenaResults, id: JSONValue?)
}

/// Where a match lives when another server (node) sharing the store holds it.
package struct Redirect: Hashable, Sendable {
    package var match: String
    /// `HOST:PORT` of the node holding the match.
    package var address: String
    /// Only on the door socket: the one-use handoff ticket the door's join carries there.
    package var ticket: String?

    package init(match: String, address: String, ticket: String? = nil) {
        self.match = match
        self.address = address
        self.ticket = ticket
    }
}
