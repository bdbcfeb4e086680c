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
                    let pair = GameRecord.pair(of: finished)
                    // Whether the game is kept already, each seat's account that exists with its
                    // rating and standing, and the pair's rated games: one round trip.
                    let facts = try recordFacts(accounts: finished.seats.compactMap(\.account), variant: finished.variant,
                                                commitment: finished.commitment, pair: pair,
                                                since: wallSeconds - policy.pairWindowSeconds)
                    // Told again (a commit whose answer was lost): the game as it was kept, never twice.
                    if facts.keptGame, let kept = try gameRow(commitment: finished.commitment) { return kept }
                    var game = GameRecord(of: finished, ratings: facts.accounts.mapValues { $0.rating ?? .initial },
                                          pairGamesInWindow: facts.pairGames, wallSeconds: wallSeconds, journal: journal, policy: policy)
                    guard game.isKept else { return nil }
                    // No account of it is in the store (an arena's duel of guests), so the facts
                    // did not say whether it is kept already: told again, the game as it was kept.
                    if !game.concernsAccounts, let kept = try gameRow(commitment: finished.commitment) { return kept }
                    // Never seen while the rater keeps to `RatingBounds`; if it ever is, the game
                    // is kept unrated rather than lost.
                    if game.rated, game.players.contains(where: { player in
                        [player.before, player.after].contains { !($0.map(RatingBounds.contains) ?? false) }
                    }) { game = game.unrated }
                    try insert(game, policy: policy, facts: facts)
                    return game
                }
            }
        }
    }

    func game(commitment: String) throws(StoreError) -> GameRecord? {
        try Self.storing { () throws(DatabaseError) in try gameRow(commitment: commitment) }
    }

    /// What a record's decision and its writes read, in one statement: which of `accounts` exist,
    /// each with its rating and standing in `variant` and whether it played the other of `pair`
    /// rated before; whether a game with `commitment` is kept; the pair's rated games since `since`.
    func recordFacts(accounts: [Int], variant: Variant, commitment: String, pair: (Int, Int)?, since: Int64) throws(DatabaseError) -> RecordFacts {
        var facts = RecordFacts()
        let ids = Array(Swift.Set(accounts)).sorted()
        guard !ids.isEmpty else { return facts }
        let rows = try database.query("""
            SELECT a.id, r.rating, r.deviation, r.volatility, r.rated_games, r.first_wall, r.last_wall, r.opponents,
                EXISTS (SELECT 1 FROM rated_opponents o WHERE o.account_id = a.id AND o.variant = $1 AND o.opponent_id = CAST($3 AS BIGINT) + CAST($4 AS BIGINT) - a.id),
                (SELECT COUNT(*) FROM games WHERE commitment = $2),
                (SELECT COUNT(*) FROM account_games p WHERE p.account_id = $3 AND p.opponent_id = $4 AND p.rated = 1 AND p.wall >= $5)
            FROM accounts a LEFT JOIN ratings r ON r.account_id = a.id AND r.variant = $1
            WHERE a.id IN (\((0..<ids.count).map { "$\($0 + 6)" }.joined(separator: ", ")))
            """, [.text(variant.rawValue), .text(commitment), .optional(pair?.0), .optional(pair?.1), .int(since)] + ids.map { .int($0) })
        for row in rows {
            var account = RecordFacts.Account()
            if let rating = try row.optionalDouble(1) {
                account.rating = Rating(rating: rating, deviation: try row.double(2), volatility: try row.double(3))
                account.standing = RecordFacts.Kept(games: try row.int(4), firstWall: try row.int(5), lastWall: try row.int(6),
                                                    opponents: try row.int(7))
            }
            account.playedOpponent = try row.bool(8)
            facts.accounts[try row.int(0)] = account
            facts.keptGame = try row.int(9) as Int > 0
            facts.pairGames = pair == nil ? 0 : try row.int(10)
        }
        return facts
    }

    /// Writes a decided game and everything it moves: its rows, each account's list, counts,
    /// set times, and for a rated game each rating with its standing (`policy` says who is listed),
    /// in a few statements whatever the seats. `facts` are what the decision read (read here
    /// when nil: the import's games).
    func insert(_ game: GameRecord, policy: RatingPolicy, facts given: RecordFacts? = nil) throws(DatabaseError) {
        // The database hands out the id (`DatabaseIDs`): two overlapping commits never share one.
        guard let inserted = try database.row("""
            INSERT INTO games (id, commitment, match, game, mode, variant, rated, outcome, reason, winner, ended_at, duration_ms, wall, journal,
                by_seat)
            VALUES (\(DatabaseIDs.nextID(in: "games", database.dialect)), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
            RETURNING id
            """, .text(game.commitment), .text(game.match), .int(game.game), .text(game.mode.rawValue),
            .text(game.variant.rawValue), .bool(game.rated), .text(game.outcome.rawValue), .text(game.reason.rawValue),
            .optional(game.winner?.rawValue), .int(game.endedAt), .int(game.durationMs), .int(game.wallSeconds), .text(game.journal),
            .optional(game.by?.rawValue)) else {
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
        let parts = RecordedPart.parts(of: game)
        guard !parts.isEmpty else { return }
        try addToLists(parts, gameID: gameID, game: game)
        try addSetTimes(parts)
        if game.rated {
            var facts = given
            if facts == nil {
                facts = try recordFacts(accounts: parts.map(\.account), variant: game.variant, commitment: game.commitment,
                                        pair: game.ratedPair, since: .max)
            }
            try rate(parts, in: game, facts: facts ?? RecordFacts(), policy: policy)
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

    /// Each account's entry in its list of games, numbered by its count of games read in the same
    /// statement, and its counts and best set time: two statements for every account of the game.
    private func addToLists(_ parts: [RecordedPart], gameID: Int, game: GameRecord) throws(DatabaseError) {
        let entries: [[SQLValue]] = parts.map { part in
            [.int(part.account), .int(gameID), .int(part.seat), .optional(part.opponent), .text(part.result), .bool(game.rated),
             .int(game.wallSeconds)]
        }
        try database.execute("""
            INSERT INTO account_games (account_id, number, game_id, seat, opponent_id, result, rated, wall)
            SELECT a.id, a.games, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7
            FROM accounts a JOIN (VALUES \(Self.casted(rows: entries.count, types: ["BIGINT", "BIGINT", "INTEGER", "BIGINT", "TEXT", "INTEGER", "BIGINT"])))
                AS v ON a.id = v.column1
            """, entries.flatMap { $0 })
        let counts: [[SQLValue]] = parts.map { part in
            [.int(part.account), .bool(part.score == .win), .bool(part.score == .loss), .bool(part.score == .draw), .bool(part.playedItself),
             .optional(part.bestSetMs)]
        }
        try database.execute("""
            UPDATE accounts SET games = accounts.games + 1, wins = accounts.wins + v.column2, losses = accounts.losses + v.column3,
                draws = accounts.draws + v.column4, self_games = accounts.self_games + v.column5,
                best_set_ms = CASE WHEN v.column6 IS NOT NULL AND (accounts.best_set_ms IS NULL OR accounts.best_set_ms > v.column6)
                    THEN v.column6 ELSE accounts.best_set_ms END
            FROM (VALUES \(Self.casted(rows: counts.count, types: ["BIGINT", "BIGINT", "BIGINT", "BIGINT", "BIGINT", "BIGINT"]))) AS v
            WHERE accounts.id = v.column1
            """, counts.flatMap { $0 })
    }

    /// `(CAST($1 AS T1), …), (…)`: rows of a `VALUES` list whose columns PostgreSQL cannot type
    /// from a target column (a join or an update reads them).
    static func casted(rows: Int, types: [String]) -> String {
        (0..<rows).map { row in
            "(" + types.enumerated().map { "CAST($\(row * types.count + $0.offset + 1) AS \($0.element))" }.joined(separator: ", ") + ")"
        }.joined(separator: ", ")
    }

    /// Moves each account's rating in the game's variant and its standing after a rated game: its
    /// new opponents in one statement, every rating in one more.
    private func rate(_ parts: [RecordedPart], in game: GameRecord, facts: RecordFacts, policy: RatingPolicy) throws(DatabaseError) {
        var newOpponents: [[SQLValue]] = []
        var ratings: [[SQLValue]] = []
        for part in parts {
            guard let after = game.players[part.seat].after else { continue }
            let known = facts.accounts[part.account]
            let kept = known?.standing
            var opponents = kept?.opponents ?? 0
            let opponentBefore = game.players.count == 2 ? game.players[1 - part.seat].before : nil
            if let opponent = part.opponent, known?.playedOpponent != true, policy.countsOpponent(ratedBefore: opponentBefore) {
                newOpponents.append([.int(part.account), .text(game.variant.rawValue), .int(opponent)])
                opponents += 1
            }
            // The standing the leaderboard rule reads: its opponents are the different ones, up
            // to the number the rule asks for.
            var standing = Standing()
            standing.games = (kept?.games ?? 0) + 1
            standing.firstWall = min(kept?.firstWall ?? .max, game.wallSeconds)
            standing.lastWall = max(kept?.lastWall ?? .min, game.wallSeconds)
            // The rule reads only how many different opponents, up to its number: the count kept
            // (`ratings.opponents`, one per `rated_opponents` row) says it without reading the rows.
            standing.opponents = Array(0..<min(opponents, policy.leaderboardOpponents))
            ratings.append([.int(part.account), .text(game.variant.rawValue), .double(after.rating), .double(after.deviation),
                            .double(after.volatility), .int(standing.games), .int(opponents), .int(standing.firstWall),
                            .int(standing.lastWall), .bool(policy.isListed(after, standing))])
        }
        if !newOpponents.isEmpty {
            try database.execute("""
                INSERT INTO rated_opponents (account_id, variant, opponent_id) VALUES \(Self.placeholders(rows: newOpponents.count, columns: 3))
                ON CONFLICT DO NOTHING
                """, newOpponents.flatMap { $0 })
        }
        guard !ratings.isEmpty else { return }
        try database.execute("""
            INSERT INTO ratings (account_id, variant, rating, deviation, volatility, rated_games, opponents, first_wall, last_wall, listed)
            VALUES \(Self.placeholders(rows: ratings.count, columns: 10))
            ON CONFLICT (account_id, variant) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
                volatility = excluded.volatility, rated_games = excluded.rated_games, opponents = excluded.opponents,
                first_wall = excluded.first_wall, last_wall = excluded.last_wall, listed = excluded.listed
            """, ratings.flatMap { $0 })
    }

    /// Counts every seat's set times in its account's histogram (`SetTimes`' rounding), every
    /// account's in one statement.
    private func addSetTimes(_ parts: [RecordedPart]) throws(DatabaseError) {
        let rows = parts.flatMap { part in
            part.setTimeBuckets.map { ms, count -> [SQLValue] in [.int(part.account), .int(ms), .int(count)] }
        }
        guard !rows.isEmpty else { return }
        try database.execute("""
            INSERT INTO set_times (account_id, ms, sets) VALUES \(Self.placeholders(rows: rows.count, columns: 3))
            ON CONFLICT (account_id, ms) DO UPDATE SET sets = set_times.sets + excluded.sets
            """, rows.flatMap { $0 })
    }

    /// The game dealt with this commitment, as it was recorded (exact ratings and set times).
    func gameRow(commitment: String) throws(DatabaseError) -> GameRecord? {
        guard let row = try database.row("""
            SELECT id, match, game, mode, variant, rated, outcome, reason, winner, ended_at, duration_ms, wall, journal, by_seat
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
                          rated: try row.bool(5), outcome: outcome, reason: reason,
                          by: try row.optionalInt(13).flatMap(Seat.init(rawValue:)), winner: try row.optionalInt(8).flatMap(Seat.init(rawValue:)),
                          players: players, endedAt: try row.int(9), durationMs: try row.int(10), wallSeconds: try row.int(11),
                          journal: try row.text(12))
    }

    private func rating(_ row: Row, from column: Int) throws(DatabaseError) -> Rating? {
        guard let rating = try row.optionalDouble(column) else { return nil }
        return Rating(rating: rating, deviation: try row.double(column + 1), volatility: try row.double(column + 2))
    }
}
