import SetDatabase
import SetRatings
import SetRules
import SetWire

// A player's history, one page from its numbered games, written straight into the reply's line
// with keys in order (`JSONObjectWriter`): byte for byte the line the generic encoder makes
// (`HistoryPageTests`).
extension SQLAccountStore {
    func history(_ name: String, after: String?, limit: Int, id: JSONValue?) throws(StoreError) -> Result<[UInt8], WireError> {
        // A cursor that is no count of games reads no page (-1), and is refused once the player
        // is known to exist: an unknown player is told so whatever the cursor.
        let skip: Int? = after.map { Int($0).map { max(-1, $0) } ?? -1 }
        let wanted = max(0, limit)
        return try Self.storing { () throws(DatabaseError) in
            // One statement, so one round trip to PostgreSQL: the account's name and count of
            // games on every row (the last two columns), and its page of games, the `limit` games
            // before the cursor (or the last ones). An account without games in that page comes
            // as one row whose game columns are NULL.
            let rows = try database.query("""
                SELECT ag.number, ag.seat, ag.result, g.commitment, g.duration_ms, g.game, g.journal, g.match, g.mode, g.rated, g.reason,
                    g.variant, g.wall, s.account_id, a.bot, s.name, s.points, s.sets, s.before_rating, s.after_rating, s.after_deviation,
                    p.name, p.games
                FROM accounts p LEFT JOIN account_games ag ON ag.account_id = p.id
                    AND ag.number >= COALESCE(CAST($2 AS BIGINT), p.games) - $3 AND ag.number < COALESCE(CAST($2 AS BIGINT), p.games)
                LEFT JOIN games g ON g.id = ag.game_id LEFT JOIN game_seats s ON s.game_id = g.id
                LEFT JOIN accounts a ON a.id = s.account_id
                WHERE p.name_skeleton = $1 ORDER BY ag.number DESC, s.seat
                """, .text(PlayerName.skeleton(name)), skip.map { .int($0) } ?? .null, .int(wanted))
            guard let account = rows.first else { return .failure(AccountReplies.noSuchPlayer(name)) }
            let count: Int = try account.int(22)
            // The cursor is how many of the player's games lie before the page: stable while new games come.
            if let skip, !(0...count).contains(skip) { return .failure(AccountReplies.badCursor) }
            let start = max(0, (skip ?? count) - wanted)
            var games: [[Row]] = []
            var number: Int64 = -1
            for row in rows where !row.isNull(0) {
                let next: Int64 = try row.int(0)
                if next != number || games.isEmpty { games.append([]) }
                number = next
                games[games.count - 1].append(row)
            }
            var reply = JSONObjectWriter(capacity: 8_192)
            var failure: DatabaseError?
            reply.objects("games", games) { entry, seats in
                do throws(DatabaseError) { try Self.write(seats, into: &entry) } catch { failure = error }
            }
            if let failure { throw failure }
            if let id { reply.raw("id", JSONWriter.bytes(id)) }
            reply.string("name", try account.text(21))
            if start > 0 { reply.string("next", String(start)) }
            reply.plain("type", AccountInfoType.history)
            return .success(reply.line())
        }
    }

    /// One game of the page from its seats' rows (the game's columns repeat on each). Numbers are
    /// clamped as the log's compact game store kept them, so the lines stay the same.
    private static func write(_ seats: [Row], into entry: inout JSONObjectWriter) throws(DatabaseError) {
        let game = seats[0]
        guard let mode = Mode(rawValue: try game.text(8)), let reason = MatchResult.Reason(rawValue: try game.text(10)),
              let variant = Variant(rawValue: try game.text(11)) else {
            throw DatabaseError(.invalidStatement, "a game holds a mode, reason or variant this program does not know")
        }
        entry.string("commitment", try game.text(3))
        entry.int("durationMs", Int64(UInt32(clamping: try game.int(4) as Int64)))
        entry.int("game", Int64(Int32(clamping: try game.int(5) as Int64)))
        entry.string("journal", try game.text(6))
        entry.string("match", try game.text(7))
        entry.plain("mode", mode)
        var failure: DatabaseError?
        entry.objects("players", seats) { player, seat in
            do throws(DatabaseError) {
                if seat.isNull(13) || seat.isNull(14) {
                    player.bool("guest", true)
                } else {
                    player.bool("bot", try seat.bool(14))
                }
                player.string("name", try seat.text(15))
                player.int("points", Int64(Int32(clamping: try seat.int(16) as Int64)))
                if let before = try seat.optionalDouble(18), let after = try seat.optionalDouble(19) {
                    let afterRating = Rating(rating: after, deviation: try seat.double(20), volatility: Rating.initial.volatility)
                    player.bool("provisional", afterRating.isProvisional)
                    player.int("ratingAfter", Int64(Int16(clamping: afterRating.rounded)))
                    player.int("ratingBefore", Int64(Int16(clamping: Int(before.rounded()))))
                }
                player.int("sets", Int64(UInt8(clamping: try seat.int(17) as Int64)))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        entry.bool("rated", try game.bool(9))
        entry.plain("reason", reason)
        entry.string("result", try game.text(2))
        entry.int("seat", try game.int(1) as Int64)
        entry.plain("variant", variant)
        entry.int("wall", Int64(UInt32(clamping: try game.int(12) as Int64)))
    }
}
