import SetRules

/// What `arena_create` asks for (Protocol.md, "Arenas").
package struct ArenaCreation: Hashable, Sendable {
    package var arena: String
    package var minutes: Int
    package var variant: Variant
    package var rated: Bool
    package var startsInS: Int
    /// The creator's account key, for the per-account allowance (nil: a guest).
    package var account: String?

    package init(arena: String, minutes: Int, variant: Variant = .classic, rated: Bool = true, startsInS: Int = 0, account: String? = nil) {
        self.arena = arena
        self.minutes = minutes
        self.variant = variant
        self.rated = rated
        self.startsInS = startsInS
        self.account = account
    }
}

/// What `arena_join` asks for: to play under `name` (with the account, as `join` takes it), or
/// with `watch` only to follow the arena's state.
package struct ArenaJoinRequest: Hashable, Sendable {
    package var arena: String
    package var name: String
    package var account: String?
    package var bot: Bool
    package var watch: Bool
    /// On the door socket, a redirect's one-use handoff ticket (as a `join` carries it).
    package var ticket: String?

    package init(arena: String, name: String, account: String? = nil, bot: Bool = false, watch: Bool = false, ticket: String? = nil) {
        self.arena = arena
        self.name = name
        self.account = account
        self.bot = bot
        self.watch = watch
        self.ticket = ticket
    }
}

/// A request about arenas: timed tournaments any player may join.
package enum ArenaRequest: Hashable, Sendable {
    case list
    case create(ArenaCreation)
    case join(ArenaJoinRequest)
    case pause
    case resume
    case leave
    case results(arena: String)

    /// The request's `type` on the wire.
    package var type: RequestType {
        switch self {
        case .list: .arenas
        case .create: .arenaCreate
        case .join: .arenaJoin
        case .pause: .arenaPause
        case .resume: .arenaResume
        case .leave: .arenaLeave
        case .results: .arenaResults
        }
    }

    /// 1–20 of `A–Z a–z 0–9 - _`: `arena-NAME-N` stays a match name for any game number.
    package static func isAcceptable(arenaName: String) -> Bool {
        !arenaName.isEmpty && arenaName.utf8.count <= maxNameLength
            && arenaName.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
            }
    }

    /// The longest arena name.
    package static let maxNameLength = 20
    /// `minutes`' range.
    package static let minutesRange: ClosedRange<Int64> = 1...180
    /// `startsInS`' range.
    package static let startsInRange: ClosedRange<Int64> = 0...3_600
}

/// Where an arena is in its life, from its clock.
package enum ArenaState: String, CaseIterable, Hashable, Sendable {
    case starting, running, finished
}

/// One line of an arena's standings.
package struct ArenaEntry: Hashable, Sendable {
    package var rank: Int
    package var name: String
    package var score: Int
    package var games: Int
    package var wins: Int
    /// Wins in a row now.
    package var streak: Int
    /// The next win counts double.
    package var fire: Bool
    /// Rating at the arena's start (nil: a guest or none yet), with `provisional` as the lobby's.
    package var rating: Int?
    package var provisional: Bool
    package var bot: Bool
    package var paused: Bool
    /// The duel they play now (nil: free).
    package var playing: String?
    /// In results only: their performance (nil: no played game).
    package var performance: Int?

    package init(rank: Int, name: String, score: Int = 0, games: Int = 0, wins: Int = 0, streak: Int = 0, fire: Bool = false,
                 rating: Int? = nil, provisional: Bool = false, bot: Bool = false, paused: Bool = false, playing: String? = nil,
                 performance: Int? = nil) {
        self.rank = rank
        self.name = name
        self.score = score
        self.games = games
        self.wins = wins
        self.streak = streak
        self.fire = fire
        self.rating = rating
        self.provisional = provisional
        self.bot = bot
        self.paused = paused
        self.playing = playing
        self.performance = performance
    }
}

/// A duel under way in an arena, with its players' arena scores.
package struct ArenaBoard: Hashable, Sendable {
    package var match: String
    package var players: [String]
    package var scores: [Int]

    package init(match: String, players: [String], scores: [Int]) {
        self.match = match
        self.players = players
        self.scores = scores
    }
}

/// What every message about one arena begins with: which arena, how it is played, and its clock.
/// `arenas`, `arena` and `arena_results` each carry these fields at the top level of their object.
package struct ArenaHeader: Hashable, Sendable {
    package var arena: String
    package var variant: Variant
    package var rated: Bool
    package var state: ArenaState
    package var endsAt: Int64

    package init(arena: String, variant: Variant, rated: Bool, state: ArenaState, endsAt: Int64) {
        self.arena = arena
        self.variant = variant
        self.rated = rated
        self.state = state
        self.endsAt = endsAt
    }
}

/// A message about one arena: its header's fields read as the message's own (`view.state`).
@dynamicMemberLookup
package protocol ArenaHeaded {
    var header: ArenaHeader { get set }
}

extension ArenaHeaded {
    package subscript<Field>(dynamicMember field: WritableKeyPath<ArenaHeader, Field>) -> Field {
        get { header[keyPath: field] }
        set { header[keyPath: field] = newValue }
    }
}

/// An arena as `arenas` lists it.
package struct ArenaSummary: ArenaHeaded, Hashable, Sendable {
    package var header: ArenaHeader
    package var startsAt: Int64
    package var players: Int
    /// The first in the standings, once someone scored.
    package var leader: String?

    package init(header: ArenaHeader, startsAt: Int64, players: Int, leader: String? = nil) {
        self.header = header
        self.startsAt = startsAt
        self.players = players
        self.leader = leader
    }
}

/// An arena's whole state: the answer to `arena_join` and friends, and pushed on every change.
package struct ArenaView: ArenaHeaded, Hashable, Sendable {
    package var header: ArenaHeader
    package var startsAt: Int64
    package var standings: [ArenaEntry]
    /// The duels under way, top board first.
    package var boards: [ArenaBoard]

    package init(header: ArenaHeader, startsAt: Int64, standings: [ArenaEntry] = [], boards: [ArenaBoard] = []) {
        self.header = header
        self.startsAt = startsAt
        self.standings = standings
        self.boards = boards
    }
}

/// A duel dealt to this player: join `match` with `token`.
package struct ArenaPairingNotice: Hashable, Sendable {
    package var arena: String
    package var match: String
    package var token: String
    package var opponent: String

    package init(arena: String, match: String, token: String, opponent: String) {
        self.arena = arena
        self.match = match
        self.token = token
        self.opponent = opponent
    }
}

/// An arena's standings with each player's performance, and its winners.
package struct ArenaResults: ArenaHeaded, Hashable, Sendable {
    package var header: ArenaHeader
    package var standings: [ArenaEntry]
    package var winners: [String]

    package init(header: ArenaHeader, standings: [ArenaEntry], winners: [String]) {
        self.header = header
        self.standings = standings
        self.winners = winners
    }
}
