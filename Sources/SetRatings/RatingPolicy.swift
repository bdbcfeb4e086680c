/// Who is rated against whom, and who stands on a leaderboard: the answers a public server gives
/// to rating farms (issue 32 item 8). Pure: the facts come in as values (counts, wall-clock
/// seconds), so the rules stay the same whatever keeps the accounts.
package struct RatingPolicy: Sendable, Equatable {
    /// Rated games one pair of accounts may play in any `pairWindowSeconds`; later ones that day
    /// are played casual. Two friends' evening is rated; two accounts trading wins is not.
    package var pairGamesPerWindow: Int
    package var pairWindowSeconds: Int64
    /// What a leaderboard asks of a player in a variant besides an established rating (RD ≤ 110):
    /// this many rated games, against this many different accounts, the first at least
    /// `leaderboardSpanSeconds` before the latest. A farm of fresh accounts meets none of it in
    /// an evening.
    package var leaderboardGames: Int
    package var leaderboardOpponents: Int
    package var leaderboardSpanSeconds: Int64
    /// Whether an opponent counts among the different ones only if its rating was established
    /// (RD ≤ 110) before the game: a farm of fresh accounts, each losing once on purpose, then
    /// counts for nothing toward a leaderboard, however many there are.
    package var opponentsMustBeEstablished: Bool

    package init(pairGamesPerWindow: Int, pairWindowSeconds: Int64, leaderboardGames: Int, leaderboardOpponents: Int,
                 leaderboardSpanSeconds: Int64, opponentsMustBeEstablished: Bool = false) {
        self.pairGamesPerWindow = pairGamesPerWindow
        self.pairWindowSeconds = pairWindowSeconds
        self.leaderboardGames = leaderboardGames
        self.leaderboardOpponents = leaderboardOpponents
        self.leaderboardSpanSeconds = leaderboardSpanSeconds
        self.opponentsMustBeEstablished = opponentsMustBeEstablished
    }

    /// The server's rules: six rated games a pair a day; on a leaderboard after ten rated games
    /// against five different accounts with established ratings, spread over at least a day.
    package static let standard = RatingPolicy(pairGamesPerWindow: 6, pairWindowSeconds: 86_400, leaderboardGames: 10,
                                               leaderboardOpponents: 5, leaderboardSpanSeconds: 86_400,
                                               opponentsMustBeEstablished: true)

    /// Whether a rated game against an opponent rated `before` it counts that opponent among the
    /// different ones (`opponentsMustBeEstablished`); nil: the opponent had no rating yet.
    package func countsOpponent(ratedBefore before: Rating?) -> Bool {
        !opponentsMustBeEstablished || (before.map { !$0.isProvisional } ?? false)
    }

    /// No limits beyond an established rating (tests of ranking order, benchmarks).
    package static let open = RatingPolicy(pairGamesPerWindow: .max, pairWindowSeconds: 0, leaderboardGames: 0,
                                           leaderboardOpponents: 0, leaderboardSpanSeconds: 0)

    /// Whether a pair that played `recent` rated games within the window may play another rated.
    package func ratesAnother(pairGamesInWindow recent: Int) -> Bool { recent < pairGamesPerWindow }

    /// Whether a player with this record in a variant has done what a leaderboard asks
    /// besides its rating. Once true it stays true: the record only grows.
    package func qualifies(_ standing: Standing) -> Bool {
        standing.games >= leaderboardGames && standing.opponents.count >= leaderboardOpponents
            && standing.spanSeconds >= leaderboardSpanSeconds
    }

    /// Whether a player is listed on a variant's leaderboard.
    package func isListed(_ rating: Rating, _ standing: Standing) -> Bool { !rating.isProvisional && qualifies(standing) }
}

/// One player's rated record in a variant, as the leaderboard rule reads it.
package struct Standing: Sendable, Equatable {
    package var games = 0
    /// Different opponents, kept up to the number the policy asks for.
    package var opponents: [Int] = []
    /// Wall-clock seconds of the first and the latest rated game.
    package var firstWall: Int64 = .max
    package var lastWall: Int64 = .min

    package init() {}

    /// Seconds from the first rated game to the latest (0 with none).
    package var spanSeconds: Int64 { games == 0 ? 0 : lastWall - firstWall }

    /// Counts one more rated game against `opponent` (nil: nobody the rules count) at `wall`.
    package mutating func add(opponent: Int?, wall: Int64, keeping cap: Int) {
        games += 1
        if let opponent, opponents.count < cap, !opponents.contains(opponent) { opponents.append(opponent) }
        firstWall = min(firstWall, wall)
        lastWall = max(lastWall, wall)
    }
}
