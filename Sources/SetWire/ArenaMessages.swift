import SetRules

/// A request about arenas (issue 44): the list, opening one, joining, pausing, leaving, results.
package enum ArenaRequest: Hashable, Sendable {
    /// The arenas running and starting soon.
    case list
    /// Open an arena; the creator is not joined by it.
    case create(ArenaCreate)
    /// Play in the arena (or, `watch`, follow its state without playing); a redirect's `ticket`
    /// goes with it on the door's socket, as the lobby's does.
    case join(arena: String, name: String, account: String? = nil, bot: Bool = false, watch: Bool = false, ticket: String? = nil)
    /// Not paired until `resume`.
    case pause
    case resume
    /// No longer listed as joined; the points stay in the standings.
    case leave
    /// The final (or current) standings with each player's performance.
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
}

/// What `arena_create` asks for.
package struct ArenaCreate: Hashable, Sendable {
    package var arena: String
    /// 1–180.
    package var minutes: Int
    package var variant: Variant
    package var rated = true
    /// 0–3600.
    package var startsInS = 0
    package var account: String?

    package init(arena: String, minutes: Int, variant: Variant, rated: Bool = true, startsInS: Int = 0, account: String? = nil) {
        self.arena = arena
        self.minutes = minutes
        self.variant = variant
        self.rated = rated
        self.startsInS = startsInS
        self.account = account
    }
}

/// Where an arena stands on its clock.
package enum ArenaPhase: String, CaseIterable, Sendable {
    /// Open to join; no pairing before `startsAt`.
    case starting
    /// Pairing free players until `endsAt`.
    case running
    /// The clock reached zero and every game under way has counted: the standings are final.
    case finished
}

/// One line of the `arenas` list.
package struct ArenaSummary: Hashable, Sendable {
    package var arena: String
    package var variant: Variant
    package var rated: Bool
    package var phase: ArenaPhase
    /// Server times, milliseconds.
    package var startsAt: Int64
    package var endsAt: Int64
    package var players: Int
    /// The leader's name; nil while nobody has scored.
    package var leader: String?

    package init(arena: String, variant: Variant, rated: Bool, phase: ArenaPhase, startsAt: Int64, endsAt: Int64, players: Int, leader: String? = nil) {
        self.arena = arena
        self.variant = variant
        self.rated = rated
        self.phase = phase
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.players = players
        self.leader = leader
    }
}

/// One player's line in an arena's standings.
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
    /// Nil: a guest, as in the lobby.
    package var rating: Int?
    package var provisional: Bool
    package var bot: Bool
    package var paused: Bool
    /// The duel this player is in now; nil while free.
    package var playing: String?
    /// Final standings only (`arena_results`): the rating the player's results were worth.
    package var performance: Int?

    package init(rank: Int, name: String, score: Int, games: Int = 0, wins: Int = 0, streak: Int = 0, fire: Bool = false, rating: Int? = nil,
                 provisional: Bool = false, bot: Bool = false, paused: Bool = false, playing: String? = nil, performance: Int? = nil) {
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

/// A duel under way in an arena: its match, its two players and their scores in it.
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

/// An arena's whole state: the answer to a join, pause, resume or leave, and pushed on change.
package struct ArenaState: Hashable, Sendable {
    package var arena: String
    package var variant: Variant
    package var rated: Bool
    package var phase: ArenaPhase
    package var startsAt: Int64
    package var endsAt: Int64
    package var standings: [ArenaEntry]
    /// The duels under way, top board first.
    package var boards: [ArenaBoard]

    package init(arena: String, variant: Variant, rated: Bool, phase: ArenaPhase, startsAt: Int64, endsAt: Int64,
                 standings: [ArenaEntry] = [], boards: [ArenaBoard] = []) {
        self.arena = arena
        self.variant = variant
        self.rated = rated
        self.phase = phase
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.standings = standings
        self.boards = boards
    }
}

/// The duel an arena dealt this player: join `match` with `token`.
package struct ArenaPairing: Hashable, Sendable {
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

/// An arena's results: its standings (each with `performance`) and the winner(s).
package struct ArenaResults: Hashable, Sendable {
    package var arena: String
    package var variant: Variant
    package var rated: Bool
    package var phase: ArenaPhase
    package var endsAt: Int64
    package var standings: [ArenaEntry]
    package var winners: [String]

    package init(arena: String, variant: Variant, rated: Bool, phase: ArenaPhase, endsAt: Int64, standings: [ArenaEntry], winners: [String]) {
        self.arena = arena
        self.variant = variant
        self.rated = rated
        self.phase = phase
        self.endsAt = endsAt
        self.standings = standings
        self.winners = winners
    }
}
