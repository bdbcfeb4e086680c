import SetDatabase

/// SQLite's tables keyed the way it reads fastest (issue 43): a player's history joins four
/// tables by key, and a table whose key is not its rowid finds each row twice, once down the
/// key's index and once down the table. `accounts` and `games` take their id as the rowid
/// (`INTEGER PRIMARY KEY`); `game_seats` and `account_games`, which no table refers to by rowid,
/// become one B-tree in key order (`WITHOUT ROWID`), the order history reads them in. Measured on a
/// copy of a 20k accounts / 20k games file remade by hand: a cold `history` read 25 pages where
/// it read 35. PostgreSQL has no rowid: nothing changes there.
enum RowIDKeys {
    /// Migration 15: each of the four made again under its new key and filled from the old one,
    /// with foreign keys off around it (most tables refer to `accounts` and `games`) and every
    /// reference checked before it commits (`Migration.remakesReferencedTables`).
    static let migration = Migration(version: 15, summary: "accounts and games keyed by rowid, seats and each account's games one B-tree each (SQLite)",
                                     remakesReferencedTables: true) { dialect in
        guard dialect == .sqlite else { return [] }
        return remade("accounts", as: """
            id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, name TEXT NOT NULL, name_skeleton TEXT UNIQUE,
            bot INTEGER NOT NULL, created_wall BIGINT NOT NULL,
            games BIGINT NOT NULL DEFAULT 0, wins BIGINT NOT NULL DEFAULT 0, losses BIGINT NOT NULL DEFAULT 0,
            draws BIGINT NOT NULL DEFAULT 0, self_games BIGINT NOT NULL DEFAULT 0, best_set_ms BIGINT)
            """, order: "id")
            + remade("games", as: """
            id INTEGER PRIMARY KEY, commitment TEXT NOT NULL UNIQUE, match TEXT NOT NULL, game BIGINT NOT NULL,
            mode TEXT NOT NULL, variant TEXT NOT NULL, rated INTEGER NOT NULL, outcome TEXT NOT NULL, reason TEXT NOT NULL,
            winner INTEGER, ended_at BIGINT NOT NULL, duration_ms BIGINT NOT NULL, wall BIGINT NOT NULL, journal TEXT NOT NULL,
            by_seat INTEGER)
            """, order: "id")
            + remade("game_seats", as: """
            game_id BIGINT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, account_id BIGINT REFERENCES accounts(id),
            name TEXT NOT NULL, points BIGINT NOT NULL, sets BIGINT NOT NULL, set_times TEXT NOT NULL,
            before_rating REAL, before_deviation REAL, before_volatility REAL,
            after_rating REAL, after_deviation REAL, after_volatility REAL,
            PRIMARY KEY (game_id, seat)) WITHOUT ROWID
            """, order: "game_id, seat")
            + remade("account_games", as: """
            account_id BIGINT NOT NULL REFERENCES accounts(id), number BIGINT NOT NULL, game_id BIGINT NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL, opponent_id BIGINT, result TEXT NOT NULL, rated INTEGER NOT NULL, wall BIGINT NOT NULL,
            PRIMARY KEY (account_id, number)) WITHOUT ROWID
            """, order: "account_id, number")
            + ["CREATE INDEX account_games_pair ON account_games (account_id, opponent_id, wall)"]
    }

    /// `table` made again with `columns` (its columns in the order they have, so `SELECT *`
    /// fills them), its rows copied in key order so each page is written once, then put in its
    /// place: the old one's indexes go with it.
    private static func remade(_ table: String, as columns: String, order: String) -> [String] {
        ["CREATE TABLE \(table)_keyed (\n\(columns)",
         "INSERT INTO \(table)_keyed SELECT * FROM \(table) ORDER BY \(order)",
         "DROP TABLE \(table)",
         "ALTER TABLE \(table)_keyed RENAME TO \(table)"]
    }
}
