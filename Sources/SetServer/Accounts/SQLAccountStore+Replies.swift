import SetDatabase
import SetRatings
import SetRules
import SetWire

// The answers to account questions from the tables, field for field the ones the accounts log's
// engine gave before issue 34 deleted it: a differential test holds them to its frozen answers.
extension SQLAccountStore {
    func profile(_ name: String) throws(StoreError) -> Result<StoredProfile, WireError> {
        try Self.storing { () throws(DatabaseError) in
            // One statement, so one round trip to PostgreSQL: the account (part 0, with whether it
            // ever joined an arena), its ratings (1) and its set times' histogram (2, by ms), told
            // apart by the first column.
            let rows = try database.query("""
                SELECT 0, a.id, a.bot, a.games, a.wins, a.losses, a.draws, a.self_games, a.best_set_ms, a.name,
                        CASE WHEN EXISTS (SELECT 1 FROM arena_players p WHERE p.account_id = a.id) THEN 1 ELSE 0 END, NULL, NULL
                    FROM accounts a WHERE a.name_skeleton = $1
                UNION ALL SELECT 1, r.rated_games, NULL, NULL, NULL, NULL, NULL, NULL, NULL, r.variant, r.rating, r.deviation, r.volatility
                    FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE a.name_skeleton = $1
                UNION ALL SELECT 2, t.ms, t.sets, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
                    FROM set_times t JOIN accounts a ON a.id = t.account_id WHERE a.name_skeleton = $1
                ORDER BY 1, 2
                """, .text(PlayerName.skeleton(name)))
            guard let row = rows.first, try row.int(0) == 0 else { return .failure(AccountReplies.noSuchPlayer(name)) }
            var perVariant: [String: JSONValue] = [:]
            var setTimes: [(ms: Int, sets: Int)] = []
            for part in rows.dropFirst() {
                if try part.int(0) == 1 {
                    let value = Rating(rating: try part.double(10), deviation: try part.double(11), volatility: try part.double(12))
                    perVariant[try part.text(9)] = ["rating": .int(Int64(value.rounded)), "deviation": .int(Int64(value.deviation.rounded())),
                                                    "provisional": .bool(value.isProvisional), "games": .int(try part.int(1))]
                } else {
                    setTimes.append((try part.int(1), try part.int(2)))
                }
            }
            var fields: [String: JSONValue] = [
                "name": .string(try row.text(9)), "bot": .bool(try row.bool(2)), "ratings": .object(perVariant),
                "games": .int(try row.int(3)), "wins": .int(try row.int(4)), "losses": .int(try row.int(5)), "draws": .int(try row.int(6))]
            // Games against itself (one account in both seats) are neither wins, losses nor draws.
            let selfGames: Int64 = try row.int(7)
            if selfGames > 0 { fields["selfGames"] = .int(selfGames) }
            if let best = try row.optionalInt(8), let median = Self.median(of: setTimes) {
                fields["bestSetMs"] = .int(Int64(best))
                fields["medianSetMs"] = .int(Int64(median))
            }
            return .success(StoredProfile(info: AccountInfo(.profile, fields), joinedArenas: try row.double(10) != 0))
        }
    }

    /// The median set time (the upper one of an even count), as `SetTimes` gives it: walked up
    /// the account's histogram in order of ms, which holds a few hundred rows at most.
    private static func median(of counts: [(ms: Int, sets: Int)]) -> Int? {
        let total = counts.reduce(0) { $0 + $1.sets }
        guard total > 0 else { return nil }
        var seen = 0
        for (ms, sets) in counts {
            seen += sets
            if seen > total / 2 { return ms }
        }
        return nil
    }

    func crosstable(_ name: String, _ other: String) throws(StoreError) -> Result<AccountInfo, WireError> {
        try Self.storing { () throws(DatabaseError) in
            guard let first = try accountRow(named: name) else { return .failure(AccountReplies.noSuchPlayer(name)) }
            guard let second = try accountRow(named: other) else { return .failure(AccountReplies.noSuchPlayer(other)) }
            var counts: [String: Int64] = [:]
            if first.id != second.id {
                for row in try database.query("""
                    SELECT result, COUNT(*) FROM account_games WHERE account_id = $1 AND opponent_id = $2 GROUP BY result
                    """, .int(first.id), .int(second.id)) {
                    counts[try row.text(0)] = try row.int(1)
                }
            }
            return .success(AccountInfo(.crosstable, [
                "name": .string(first.name), "other": .string(second.name), "games": .int(counts.values.reduce(0, +)),
                "wins": .int(counts["win"] ?? 0), "losses": .int(counts["loss"] ?? 0), "draws": .int(counts["draw"] ?? 0)]))
        }
    }

    /// A page of the variant's listed players, best first, after the cursor's row (by key, not
    /// by offset: ties in rating are ordered by account id, so a page boundary inside a tie
    /// neither repeats nor skips anyone).
    func leaderboard(_ variant: Variant, after: String?, limit: Int) throws(StoreError) -> Result<AccountInfo, WireError> {
        var cursor = LeaderboardCursor.start
        if let after {
            guard let given = LeaderboardCursor(after) else { return .failure(AccountReplies.badCursor) }
            cursor = given
        }
        let wanted = max(0, min(limit, 1_000_000))
        let rows = try Self.storing { () throws(DatabaseError) in
            let columns = "SELECT a.name, a.bot, r.rating, r.deviation, r.account_id FROM ratings r JOIN accounts a ON a.id = r.account_id"
            guard let key = cursor.key else {
                return try database.query("""
                    \(columns) WHERE r.variant = $1 AND r.listed = 1 ORDER BY r.rating DESC, r.account_id LIMIT $2
                    """, .text(variant.rawValue), .int(wanted + 1))
            }
            return try database.query("""
                \(columns) WHERE r.variant = $1 AND r.listed = 1 AND (r.rating < $3 OR (r.rating = $3 AND r.account_id > $4))
                ORDER BY r.rating DESC, r.account_id LIMIT $2
                """, .text(variant.rawValue), .int(wanted + 1), .double(key.rating), .int(key.account))
        }
        var players: [JSONValue] = []
        var last = cursor
        for (index, row) in rows.prefix(wanted).enumerated() {
            try Self.storing { () throws(DatabaseError) in
                let rating = Rating(rating: try row.double(2), deviation: try row.double(3), volatility: Rating.initial.volatility)
                players.append(["rank": .int(Int64(cursor.rank + index + 1)), "name": .string(try row.text(0)), "bot": .bool(try row.bool(1)),
                                "rating": .int(Int64(rating.rounded)), "deviation": .int(Int64(rating.deviation.rounded()))])
                last = LeaderboardCursor(rank: cursor.rank + index + 1, key: (rating.rating, try row.int(4)))
            }
        }
        var fields: [String: JSONValue] = ["variant": .string(variant.rawValue), "players": .array(players)]
        if rows.count > wanted { fields["next"] = .string(last.text) }
        return .success(AccountInfo(.leaderboard, fields))
    }
}
