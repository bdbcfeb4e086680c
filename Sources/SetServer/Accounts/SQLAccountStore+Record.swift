import SetDatabase
import SetRatings
import SetRules

// A finished game's transaction: the facts the decision needs are read inside it, the record
// and every count it moves are written in it, so two servers finishing games of one player at
// once both count (PostgreSQL runs it again when the other committed first).
extension SQLAccountStore {
    func record(_ finished: FinishedGame, journal: String, wallSeconds: Int64, policy: RatingPolicy) throws(StoreError) -> GameRecord? {
        try Self.storing { () throws(DatabaseError) in
            try racing { () throws(DatabaseError) in
                try database.transaction { () throws(DatabaseError) -> GameRecord? in
                    if let kept = try gameRow(commitment: finished.commitment) { return kept }
                    var ratings: [Int: Rating] = [:]
                    for seated in finished.seats {
                        // Whether the account exists, and its rating in the variant: one round trip.
                        guard let id = seated.account, let row = try database.row("""
                            SELECT r.rating, r.deviation, r.volatility FROM accounts a
                            LEFT JOIN ratings r ON r.account_id = a.id AND r.variant = $2 WHERE a.id = $1
                            """, .int(id), .text(finished.variant.rawValue)) else { continue }
                        ratings[id] = try row.optionalDouble(0).map { rating throws(DatabaseError) in
                            Rating(rating: rating, deviation: try row.double(1), volatility: try row.double(2))
                        } ?? .initial
                    }
                    let pairGames = try GameRecord.pair(of: finished).map { (first, second) throws(DatabaseError) in
                        try ratedGames(of: first, against: second, since: wallSeconds - policy.pairWindowSeconds)
                    } ?? 0
                    var game = GameRecord(of: finished, ratings: ratings, pairGamesInWindow: pairGames, wallSeconds: wallSeconds,
                                          journal: journal, policy: policy)
                    // A game of guests alone moved no rating and nobody can ask about it.
                    guard game.concernsAccounts else { return nil }
                    // Never seen while the rater keeps to `RatingBounds`; if it ever is, the game
                    // is kept unrated rather than lost.
                    if game.rated, game.players.contains(where: { player in
                        [player.before, player.after].contains { !($0.map(RatingBounds.contains) ?? false) }
                    }) { game = game.unrated }
                    try insert(game, policy: policy)
                    return game
                }
            }
        }
    }

    func game(commitment: String) throws(StoreError) -> GameRecord? {
        try Self.storing { () throws(DatabaseError) in try gameRow(commitment: commitment) }
    }

    /// Rated games `first` played against `second` at or after `since` (wall seconds).
    func ratedGames(of first: Int, against second: Int, since: Int64) throws(DatabaseError) -> Int {
        try database.row("SELECT COUNT(*) FROM account_games WHERE account_id = $1 AND opponent_id = $2 AND rated = 1 AND wall >= $3",
                         .int(first), .int(second), .int(since))?.int(0) ?? 0
    }

    /// Writes a decided game and everything it moves: its rows, each account's list, counts,
    /// set times, and for a rated game each rating with its standing (`policy` says who is listed).
    func insert(_ game: GameRecord, policy: RatingPolicy) throws(DatabaseError) {
        // The database hands out the id (`DatabaseIDs`): two overlapping commits never share one.
        guard let inserted = try database.row("""
            INSERT INTO games (id, commitment, match, game, mode, variant, rated, outcome, reason, winner, ended_at, duration_ms, wall, journal)
            VALUES (\(DatabaseIDs.nextID(in: "games", database.dialect)), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
            RETURNING id
            """, .text(game.commitment), .text(game.match), .int(game.game), .text(game.mode.rawValue),
            .text(game.variant.rawValue), .bool(game.rated), .text(game.outcome.rawValue), .text(game.reason.rawValue),
            .optional(game.winner?.rawValue), .int(game.endedAt), .int(game.durationMs), .int(game.wallSeconds), .text(game.journal)) else {
            throw DatabaseError(.invalidStatement, "the insert of game \(game.commitment) returned no id")
        }
        let gameID: Int = try inserted.int(0)
        // Every seat in one statement: a round trip fewer per seat.
        let seatValues: [[SQLValue]] = game.players.enumerated().map { seat, player in
            [.int(gameID), .int(seat), .optional(player.account), .text(player.name), .int(player.points), .int(player.sets),
             .text(player.setTimes.map(String.init).joined(separator: ",")), .optional(player.before?.rating),
             .optional(player.before?.deviation), .optional(player.before?.volatility), .optional(player.after?.rating),
             .optional(player.after?.deviation), .optional(player.after?.volatility)]
        }
        if !seatValues.isEmpty {
            try database.execute("""
                INSERT INTO game_seats (game_id, seat, account_id, name, points, sets, set_times, before_rating, before_deviation,
                    before_volatility, after_rating, after_deviation, after_volatility)
                VALUES \(Self.placeholders(rows: seatValues.count, columns: 13))
                """, seatValues.flatMap { $0 })
        }
        for (seat, player) in game.players.enumerated() {
            guard let id = player.account else { continue }
            try addSetTimes(player.setTimes, to: id)
            // One account in both seats (two terminals, one key) played itself: the game is its
            // once, and neither a win nor a loss.
            let seats = game.players.indices.filter { game.players[$0].account == id }
            guard seats.first == seat else { continue }
            let playedItself = seats.count == 2
            let opponent = game.players.count == 2 ? game.players[1 - seat].account : nil
            let score = playedItself ? nil : game.score(of: seat)
            let result = playedItself ? "self" : score.map(Self.resultText) ?? game.outcome.rawValue
            // Numbered by the account's count of games, read in the same statement.
            try database.execute("""
                INSERT INTO account_games (account_id, number, game_id, seat, opponent_id, result, rated, wall)
                SELECT id, games, $2, $3, $4, $5, $6, $7 FROM accounts WHERE id = $1
                """, .int(id), .int(gameID), .int(seat), .optional(opponent), .text(result), .bool(game.rated), .int(game.wallSeconds))
            try database.execute("""
                UPDATE accounts SET games = games + 1, wins = wins + $2, losses = losses + $3, draws = draws + $4,
                    self_games = self_games + $5 WHERE id = $1
                """, .int(id), .bool(score == .win), .bool(score == .loss), .bool(score == .draw), .bool(playedItself))
            if game.rated, let after = player.after {
                try rate(id, in: game.variant, to: after, against: opponent, wall: game.wallSeconds, policy: policy)
            }
        }
    }

    /// `($1, $2, …), (…)`: the placeholders of `rows` rows of `columns` values each.
    static func placeholders(rows: Int, columns: Int) -> String {
        (0..<rows).map { row in "(" + (1...columns).map { "$\(row * columns + $0)" }.joined(separator: ", ") + ")" }.joined(separator: ", ")
    }

    static func resultText(_ score: Score) -> String {
        switch score {
        case .win: "win"
        case .loss: "loss"
        case .draw: "draw"
        }
    }

    /// Moves an account's rating in a variant and its standing after a rated game.
    private func rate(_ id: Int, in variant: Variant, to rating: Rating, against opponent: Int?, wall: Int64,
                      policy: RatingPolicy) throws(DatabaseError) {
        var standing = Standing()
        let kept = try database.row("SELECT rated_games, first_wall, last_wall, opponents FROM ratings WHERE account_id = $1 AND variant = $2",
                                    .int(id), .text(variant.rawValue))
        if let kept {
            (standing.games, standing.firstWall, standing.lastWall) = (try kept.int(0), try kept.int(1), try kept.int(2))
            standing.opponents = try database.query("""
                SELECT opponent_id FROM rated_opponents WHERE account_id = $1 AND variant = $2 ORDER BY opponent_id LIMIT $3
                """, .int(id), .text(variant.rawValue), .int(policy.leaderboardOpponents)).map { (row) throws(DatabaseError) -> Int in try row.int(0) }
        }
        standing.add(opponent: opponent, wall: wall, keeping: policy.leaderboardOpponents)
        var opponents: Int = try kept?.int(3) ?? 0
        // A new opponent is inserted and counted; one already there returns no row: one round trip.
        if let opponent, try database.row("""
            INSERT INTO rated_opponents (account_id, variant, opponent_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING opponent_id
            """, .int(id), .text(variant.rawValue), .int(opponent)) != nil {
            opponents += 1
        }
        let values: [SQLValue] = [.int(id), .text(variant.rawValue), .double(rating.rating), .double(rating.deviation), .double(rating.volatility),
                                  .int(standing.games), .int(opponents), .int(standing.firstWall), .int(standing.lastWall),
                                  .bool(policy.isListed(rating, standing))]
        if kept == nil {
            try database.execute("""
                INSERT INTO ratings (account_id, variant, rating, deviation, volatility, rated_games, opponents, first_wall, last_wall, listed)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                """, values)
        } else {
            try database.execute("""
                UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, rated_games = $6, opponents = $7, first_wall = $8,
                    last_wall = $9, listed = $10 WHERE account_id = $1 AND variant = $2
                """, values)
        }
    }

    /// Counts a seat's set times in its account's histogram (`SetTimes`' rounding) and best.
    private func addSetTimes(_ times: [Int], to id: Int) throws(DatabaseError) {
        guard let best = times.map({ max(0, $0) }).min() else { return }
        var buckets: [Int: Int] = [:]
        for time in times {
            let ms = max(0, time)
            let tenths = (ms + 50) / 100
            buckets[tenths < 255 ? tenths * 100 : ms, default: 0] += 1
        }
        // Every bucket in one statement, not one round trip each.
        let rows = buckets.sorted(by: { $0.key < $1.key }).map { ms, count -> [SQLValue] in [.int(id), .int(ms), .int(count)] }
        try database.execute("""
            INSERT INTO set_times (account_id, ms, sets) VALUES \(Self.placeholders(rows: rows.count, columns: 3))
            ON CONFLICT (account_id, ms) DO UPDATE SET sets = set_times.sets + excluded.sets
            """, rows.flatMap { $0 })
        try database.execute("UPDATE accounts SET best_set_ms = $2 WHERE id = $1 AND (best_set_ms IS NULL OR best_set_ms > $2)",
                             .int(id), .int(best))
    }

    /// The game dealt with this commitment, as it was recorded (exact ratings and set times).
    func gameRow(commitment: String) throws(DatabaseError) -> GameRecord? {
        guard let row = try database.row("""
            SELECT id, match, game, mode, variant, rated, outcome, reason, winner, ended_at, duration_ms, wall, journal
            FROM games WHERE commitment = $1
            """, .text(commitment)) else { return nil }
        guard let mode = Mode(rawValue: try row.text(3)), let variant = Variant(rawValue: try row.text(4)),
              let outcome = GameRecord.Outcome(rawValue: try row.text(6)), let reason = MatchResult.Reason(rawValue: try row.text(7)) else {
            throw DatabaseError(.invalidStatement, "game \(commitment) holds a mode, variant, outcome or reason this program does not know")
        }
        let seats = try database.query("""
            SELECT account_id, name, points, sets, set_times, before_rating, before_deviation, before_volatility,
                after_rating, after_deviation, after_volatility FROM game_seats WHERE game_id = $1 ORDER BY seat
            """, .int(try row.int(0) as Int))
        var players: [GameRecord.Player] = []
        for seat in seats {
            let times = try seat.text(4).split(separator: ",").compactMap { Int($0) }
            players.append(GameRecord.Player(account: try seat.optionalInt(0), name: try seat.text(1), points: try seat.int(2),
                                             sets: try seat.int(3), setTimes: times, before: try rating(seat, from: 5),
                                             after: try rating(seat, from: 8)))
        }
        return GameRecord(match: try row.text(1), game: try row.int(2), commitment: commitment, mode: mode, variant: variant,
                          rated: try row.bool(5), outcome: outcome, reason: reason, winner: try row.optionalInt(8).flatMap(Seat.init(rawValue:)),
                          players: players, endedAt: try row.int(9), durationMs: try row.int(10), wallSeconds: try row.int(11),
                          journal: try row.text(12))
    }

    private func rating(_ row: Row, from column: Int) throws(DatabaseError) -> Rating? {
        guard let rating = try row.optionalDouble(column) else { return nil }
        return Rating(rating: rating, deviation: try row.double(column + 1), volatility: try row.double(column + 2))
    }
}
