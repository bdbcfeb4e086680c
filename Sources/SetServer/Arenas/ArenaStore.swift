import SetArena
import SetDatabase
import SetRules

/// An arena as the store holds it (issue 44): its settings, its players, and each duel it dealt
/// with how it ended, in the order the ends were counted. The standings are never stored: they
/// are recounted from the games (`Arena.restored`), so a restart or a second node sees the same.
package struct StoredArena: Hashable, Sendable {
    package var name: String
    package var variant: Variant
    package var rated: Bool
    /// Wall-clock milliseconds, which every node compares.
    package var startsAt: Int64
    package var endsAt: Int64
    package var players: [StoredArenaPlayer]
    /// The games that ended, in the order they were counted.
    package var ended: [(ArenaGame, ArenaGameEnd)]
    /// The games dealt and not ended yet, with their two seat tokens.
    package var underWay: [(ArenaGame, [String])]

    package static func == (a: StoredArena, b: StoredArena) -> Bool {
        a.name == b.name && a.variant == b.variant && a.rated == b.rated && a.startsAt == b.startsAt && a.endsAt == b.endsAt
            && a.players == b.players && a.ended.map(\.0) == b.ended.map(\.0) && a.ended.map(\.1) == b.ended.map(\.1)
            && a.underWay.map(\.0) == b.underWay.map(\.0) && a.underWay.map(\.1) == b.underWay.map(\.1)
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The arena this row stands for at wall time `now`, its standings recounted.
    package func arena(at now: Int64) -> Arena {
        Arena.restored(startsAt: startsAt, endsAt: endsAt, now: now, players: players.map { ($0.entrant, $0.pause) },
                       ended: ended, underWay: underWay.map(\.0))
    }
}

/// One player of a stored arena: who joined, and why they are not paired (nil: they are).
package struct StoredArenaPlayer: Hashable, Sendable {
    package var entrant: ArenaEntrant
    package var pause: ArenaPause?
    /// The account they joined as (nil: a guest, or not known to this write): its profile lists the arena.
    package var account: Int?

    package init(entrant: ArenaEntrant, pause: ArenaPause? = nil, account: Int? = nil) {
        self.entrant = entrant
        self.pause = pause
        self.account = account
    }
}

/// The arenas' tables and every read and write of them. Each write is one transaction; an
/// arena's node is its only writer (its placement), so what it reads back is what it wrote.
package enum ArenaStore {
    /// Migration 11: arenas, their players, and their games linked to the stored game records.
    static let migration = Migration(version: 11, summary: "arenas, their players and their games (issue 44)") { _ in
        [
            """
            CREATE TABLE arenas (
                name TEXT PRIMARY KEY, variant TEXT NOT NULL, rated INTEGER NOT NULL, starts_at BIGINT NOT NULL, ends_at BIGINT NOT NULL,
                created_wall BIGINT NOT NULL, creator_address TEXT NOT NULL, creator_account TEXT)
            """,
            "CREATE INDEX arenas_ends ON arenas (ends_at)",
            "CREATE INDEX arenas_creator_address ON arenas (creator_address, created_wall)",
            "CREATE INDEX arenas_creator_account ON arenas (creator_account, created_wall)",
            // pause: NULL while paired; else `asked`, `noShows` or `left`.
            """
            CREATE TABLE arena_players (
                arena TEXT NOT NULL REFERENCES arenas(name), name TEXT NOT NULL, rating BIGINT, provisional INTEGER NOT NULL,
                bot INTEGER NOT NULL, pause TEXT, PRIMARY KEY (arena, name))
            """,
            // One row per duel dealt, written before either player is told. `outcome` stays NULL
            // until it ends: `first`, `second` or `draw` when played (its game record's match is
            // `arena-NAME-N`), `absent:first`, `absent:second` or `absent:both` for a no-show;
            // `counted` numbers the ends in the order they were counted, so streaks recount.
            """
            CREATE TABLE arena_games (
                arena TEXT NOT NULL REFERENCES arenas(name), number BIGINT NOT NULL, first TEXT NOT NULL, second TEXT NOT NULL,
                tokens TEXT NOT NULL, outcome TEXT, counted BIGINT, PRIMARY KEY (arena, number))
            """,
        ]
    }

    /// The match name of an arena's duel.
    package static func match(arena: String, game: Int) -> String { "arena-\(arena)-\(game)" }

    /// Writes a new arena; false when one of that name exists (in any state).
    static func create(_ name: String, variant: Variant, rated: Bool, startsAt: Int64, endsAt: Int64, wall: Int64,
                       address: String, account: String?, in database: Database) throws(DatabaseError) -> Bool {
        try database.row(
            """
            INSERT INTO arenas (name, variant, rated, starts_at, ends_at, created_wall, creator_address, creator_account)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (name) DO NOTHING RETURNING name
            """,
            .text(name), .text(variant.rawValue), .int(rated ? 1 : 0), .int(startsAt), .int(endsAt), .int(wall), .text(address),
            account.map { .text($0) } ?? .null) != nil
    }

    /// How many arenas `address`, and `account`, created since `wall`: their allowances.
    static func created(since wall: Int64, address: String, account: String?, in database: Database) throws(DatabaseError) -> (address: Int, account: Int) {
        let byAddress: Int = try database.row("SELECT COUNT(*) FROM arenas WHERE creator_address = $1 AND created_wall >= $2",
                                              .text(address), .int(wall))?.int(0) ?? 0
        guard let account else { return (byAddress, 0) }
        let byAccount: Int = try database.row("SELECT COUNT(*) FROM arenas WHERE creator_account = $1 AND created_wall >= $2",
                                              .text(account), .int(wall))?.int(0) ?? 0
        return (byAddress, byAccount)
    }

    /// Adds a player, or writes their presence again (a join back, a pause, a leave).
    static func put(_ player: StoredArenaPlayer, in arena: String, database: Database) throws(DatabaseError) {
        let entrant = player.entrant
        try database.execute(
            """
            INSERT INTO arena_players (arena, name, rating, provisional, bot, pause, account_id) VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (arena, name) DO UPDATE SET bot = excluded.bot, pause = excluded.pause,
                account_id = COALESCE(excluded.account_id, arena_players.account_id)
            """,
            .text(arena), .text(entrant.name), entrant.rating.map { .int(Int64($0)) } ?? .null, .int(entrant.provisional ? 1 : 0),
            .int(entrant.bot ? 1 : 0), player.pause.map { .text($0.rawValue) } ?? .null, player.account.map { .int(Int64($0)) } ?? .null)
    }

    /// Writes a dealt duel with its two seat tokens; false when its number is taken already.
    static func deal(_ game: ArenaGame, tokens: [String], in arena: String, database: Database) throws(DatabaseError) -> Bool {
        try database.row(
            """
            INSERT INTO arena_games (arena, number, first, second, tokens) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (arena, number) DO NOTHING RETURNING number
            """,
            .text(arena), .int(Int64(game.number)), .text(game.players[0]), .text(game.players[1]), .text(tokens.joined(separator: " "))) != nil
    }

    /// Counts a duel's end, once: false when it was counted already (or never dealt).
    static func finish(_ number: Int, _ end: ArenaGameEnd, of game: ArenaGame, in arena: String, database: Database) throws(DatabaseError) -> Bool {
        try database.transaction { () throws(DatabaseError) -> Bool in
            let next: Int64 = try database.row("SELECT COALESCE(MAX(counted), 0) + 1 FROM arena_games WHERE arena = $1", .text(arena))?.int(0) ?? 1
            return try database.row(
                "UPDATE arena_games SET outcome = $3, counted = $4 WHERE arena = $1 AND number = $2 AND outcome IS NULL RETURNING number",
                .text(arena), .int(Int64(number)), .text(outcomeText(end, of: game)), .int(next)) != nil
        }
    }

    /// The arena named so, with its players and games; nil when there is none.
    package static func load(_ name: String, in database: Database) throws(DatabaseError) -> StoredArena? {
        try database.transaction { () throws(DatabaseError) -> StoredArena? in
            guard let row = try database.row("SELECT variant, rated, starts_at, ends_at FROM arenas WHERE name = $1", .text(name)) else { return nil }
            var stored = StoredArena(name: name, variant: Variant(rawValue: try row.text(0)) ?? .classic, rated: try row.bool(1),
                                     startsAt: try row.int(2), endsAt: try row.int(3), players: [], ended: [], underWay: [])
            for player in try database.query(
                "SELECT name, rating, provisional, bot, pause, account_id FROM arena_players WHERE arena = $1 ORDER BY name", .text(name)) {
                let entrant = ArenaEntrant(name: try player.text(0), rating: try player.optionalInt(1), provisional: try player.bool(2),
                                           bot: try player.bool(3))
                stored.players.append(StoredArenaPlayer(entrant: entrant, pause: try player.optionalText(4).flatMap(ArenaPause.init),
                                                        account: try player.optionalInt(5)))
            }
            for game in try database.query(
                "SELECT number, first, second, tokens, outcome FROM arena_games WHERE arena = $1 ORDER BY counted, number", .text(name)) {
                let number: Int = try game.int(0)
                let dealt = ArenaGame(number: number, players: [try game.text(1), try game.text(2)])
                if let outcome = try game.optionalText(4) {
                    guard let end = Self.end(outcome, of: dealt) else {
                        throw DatabaseError(.invalidStatement, "arena \(name) game \(dealt.number) has an unknown outcome \(outcome)")
                    }
                    stored.ended.append((dealt, end))
                } else {
                    stored.underWay.append((dealt, try game.text(3).split(separator: " ").map(String.init)))
                }
            }
            return stored
        }
    }

    /// The names of the arenas that end after `wall`, the first to start first.
    static func names(endingAfter wall: Int64, in database: Database) throws(DatabaseError) -> [String] {
        try database.query("SELECT name FROM arenas WHERE ends_at > $1 ORDER BY starts_at, name", .int(wall)).map { row throws(DatabaseError) in
            try row.text(0)
        }
    }

    /// The arenas with a duel dealt and not counted yet: those a restarted node holds again.
    static func namesWithDuelsDealt(in database: Database) throws(DatabaseError) -> [String] {
        try database.query("SELECT DISTINCT arena FROM arena_games WHERE outcome IS NULL ORDER BY arena").map { row throws(DatabaseError) in
            try row.text(0)
        }
    }

    /// How a dealt duel ended by its game record, if one is stored (its match is
    /// `arena-NAME-N`): a node that stopped between the record's commit and the count finds it
    /// here on restart, so the game is counted, once, never lost, and as `end(of:)` counted it
    /// live: the rules' winner is recovered from the record (`GameRecord.matchWinner`: a
    /// resignation before any set is an aborted game with no winner, but its `by_seat` says who
    /// gave it up), then named by who sat in that seat.
    static func recordedEnd(of game: ArenaGame, in arena: String, database: Database) throws(DatabaseError) -> ArenaGameEnd? {
        guard let row = try database.row(
            """
            SELECT g.mode, g.outcome, g.reason, g.winner, g.by_seat, s0.name, s1.name FROM games g
                LEFT JOIN game_seats s0 ON s0.game_id = g.id AND s0.seat = 0 LEFT JOIN game_seats s1 ON s1.game_id = g.id AND s1.seat = 1
            WHERE g.match = $1 ORDER BY g.id LIMIT 1
            """, .text(match(arena: arena, game: game.number))) else { return nil }
        guard let mode = Mode(rawValue: try row.text(0)), let outcome = GameRecord.Outcome(rawValue: try row.text(1)),
              let reason = MatchResult.Reason(rawValue: try row.text(2)) else {
            throw DatabaseError(.invalidStatement, "the record of arena \(arena) game \(game.number) holds a mode, outcome or reason this program does not know")
        }
        let seat = { (column: Int) throws(DatabaseError) -> Seat? in try row.optionalInt(column).flatMap(Seat.init(rawValue:)) }
        let winner = GameRecord.matchWinner(mode: mode, outcome: outcome, reason: reason, winner: try seat(3), by: try seat(4))
        let seated = [try row.optionalText(5), try row.optionalText(6)]
        return .played(winner: winner.map { game.player(inSeat: $0.rawValue, seated: seated[$0.rawValue]) })
    }

    /// How a duel's game that just ended counts in its arena, as its match ended it: won by the
    /// player in the rules' winning seat (a resignation or a forfeit loses, a set taken or not),
    /// a draw when the rules name nobody.
    static func end(of finished: FinishedGame, game: ArenaGame) -> ArenaGameEnd {
        .played(winner: finished.result.winner.map { seat in
            game.player(inSeat: seat.rawValue, seated: finished.seats.indices.contains(seat.rawValue) ? finished.seats[seat.rawValue].name : nil)
        })
    }

    static func outcomeText(_ end: ArenaGameEnd, of game: ArenaGame) -> String {
        switch end {
        case .played(nil): "draw"
        case .played(let winner?): winner == game.players[0] ? "first" : "second"
        case .noShow(let absent) where absent.count == 2: "absent:both"
        case .noShow(let absent): absent.contains(game.players[0]) ? "absent:first" : "absent:second"
        }
    }

    static func end(_ text: String, of game: ArenaGame) -> ArenaGameEnd? {
        switch text {
        case "draw": .played(winner: nil)
        case "first": .played(winner: game.players[0])
        case "second": .played(winner: game.players[1])
        case "absent:both": .noShow(absent: Swift.Set(game.players))
        case "absent:first": .noShow(absent: [game.players[0]])
        case "absent:second": .noShow(absent: [game.players[1]])
        default: nil
        }
    }
}
