import SetDatabase

/// The accounts database's tables, as numbered migrations: a database made by any earlier version
/// is brought up to date step by step, and a test runs them all from an empty one.
enum SQLAccountSchema {
    static let migrations: [Migration] = [
        Migration(version: 1, summary: "accounts, ratings with standings, games, seats, each account's games, set times") { dialect in
            let real = dialect.double
            return [
                // name_skeleton: `PlayerName.skeleton` of the name, which names compare by; NULL
                // for a look-alike of an older account's name that a log from before look-alikes
                // compared equal held (it reads back as it was, and the name stays the first's).
                """
                CREATE TABLE accounts (
                    id BIGINT PRIMARY KEY, identity TEXT NOT NULL UNIQUE, name TEXT NOT NULL, name_skeleton TEXT UNIQUE,
                    bot INTEGER NOT NULL, created_wall BIGINT NOT NULL,
                    games BIGINT NOT NULL DEFAULT 0, wins BIGINT NOT NULL DEFAULT 0, losses BIGINT NOT NULL DEFAULT 0,
                    draws BIGINT NOT NULL DEFAULT 0, self_games BIGINT NOT NULL DEFAULT 0, best_set_ms BIGINT)
                """,
                // One row per account and variant it played rated: the rating the next game starts
                // from, exact, and the standing the leaderboard rule reads (`RatingPolicy.isListed`),
                // kept by the game's transaction so a leaderboard page is one indexed query.
                """
                CREATE TABLE ratings (
                    account_id BIGINT NOT NULL REFERENCES accounts(id), variant TEXT NOT NULL,
                    rating \(real) NOT NULL, deviation \(real) NOT NULL, volatility \(real) NOT NULL,
                    rated_games BIGINT NOT NULL, opponents BIGINT NOT NULL, first_wall BIGINT NOT NULL, last_wall BIGINT NOT NULL,
                    listed INTEGER NOT NULL, PRIMARY KEY (account_id, variant))
                """,
                "CREATE INDEX ratings_leaderboard ON ratings (variant, rating DESC, account_id) WHERE listed = 1",
                // The different accounts each account played rated in a variant.
                """
                CREATE TABLE rated_opponents (
                    account_id BIGINT NOT NULL REFERENCES accounts(id), variant TEXT NOT NULL, opponent_id BIGINT NOT NULL REFERENCES accounts(id),
                    PRIMARY KEY (account_id, variant, opponent_id))
                """,
                """
                CREATE TABLE games (
                    id BIGINT PRIMARY KEY, commitment TEXT NOT NULL UNIQUE, match TEXT NOT NULL, game BIGINT NOT NULL,
                    mode TEXT NOT NULL, variant TEXT NOT NULL, rated INTEGER NOT NULL, outcome TEXT NOT NULL, reason TEXT NOT NULL,
                    winner INTEGER, ended_at BIGINT NOT NULL, duration_ms BIGINT NOT NULL, wall BIGINT NOT NULL, journal TEXT NOT NULL)
                """,
                // Each seat as it was: the name played under, points, sets, every set's time, the
                // rating before and after (rated games), exact.
                """
                CREATE TABLE game_seats (
                    game_id BIGINT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, account_id BIGINT REFERENCES accounts(id),
                    name TEXT NOT NULL, points BIGINT NOT NULL, sets BIGINT NOT NULL, set_times TEXT NOT NULL,
                    before_rating \(real), before_deviation \(real), before_volatility \(real),
                    after_rating \(real), after_deviation \(real), after_volatility \(real),
                    PRIMARY KEY (game_id, seat))
                """,
                // Each account's games in the order they ended, numbered from 0: history's pages and
                // cursors, crosstables and the pair's games of the day read it by index.
                """
                CREATE TABLE account_games (
                    account_id BIGINT NOT NULL REFERENCES accounts(id), number BIGINT NOT NULL, game_id BIGINT NOT NULL REFERENCES games(id),
                    seat INTEGER NOT NULL, opponent_id BIGINT, result TEXT NOT NULL, rated INTEGER NOT NULL, wall BIGINT NOT NULL,
                    PRIMARY KEY (account_id, number))
                """,
                "CREATE INDEX account_games_pair ON account_games (account_id, opponent_id, wall)",
                // Every set's time, counted per account: fast ones by tenth of a second (kept as
                // its milliseconds, tenths × 100), slower than 25.4 s exact, as the median shows them.
                """
                CREATE TABLE set_times (
                    account_id BIGINT NOT NULL REFERENCES accounts(id), ms BIGINT NOT NULL, sets BIGINT NOT NULL,
                    PRIMARY KEY (account_id, ms))
                """,
            ]
        },
        // Several servers on one store (issue 35, `serve --node`; Cluster/NodeDirectory). Times
        // are wall-clock milliseconds every node compares: a node or a match is alive while its
        // lease_until is later than now.
        Migration(version: 2, summary: "nodes, the node each match lives on with its listing, unnamed duels waiting on a node") { _ in
            [
                "CREATE TABLE nodes (name TEXT PRIMARY KEY, address TEXT NOT NULL, lease_until BIGINT NOT NULL, started BIGINT NOT NULL)",
                // The row wins, not the hash: the first node to insert a match's row holds it.
                // The other columns are the match's listing as its node last wrote it (`list`);
                // players is its JSON array as a `matches` line has it.
                """
                CREATE TABLE match_homes (
                    match TEXT PRIMARY KEY, node TEXT NOT NULL, lease_until BIGINT NOT NULL,
                    mode TEXT NOT NULL, variant TEXT NOT NULL, state TEXT NOT NULL, seats INTEGER NOT NULL,
                    players TEXT NOT NULL, spectators BIGINT NOT NULL)
                """,
                "CREATE INDEX match_homes_node ON match_homes (node)",
                // A duel no one named, waiting on its node for a second player of its variant.
                "CREATE TABLE waiting (match TEXT PRIMARY KEY, node TEXT NOT NULL, variant TEXT NOT NULL, since BIGINT NOT NULL)",
                "CREATE INDEX waiting_variant ON waiting (variant, since)",
            ]
        },
        // A door player handed to the node holding their match (Handoffs/HandoffTicket.swift).
        DoorHandoff.migration,
        // An operator's drain of a node (`setgame nodes drain`, Cluster/NodeRoster.swift): 0 when
        // the node takes new matches, else the wall-clock milliseconds the drain was asked at.
        Migration(version: 4, summary: "nodes.draining: a node an operator drains takes no new matches") { _ in
            ["ALTER TABLE nodes ADD COLUMN draining BIGINT NOT NULL DEFAULT 0"]
        },
        // A match row lives by its node's lease; only an unmade placement expires (Cluster/MatchPlacement.swift).
        MatchPlacement.migration,
        // Where the door's player came from, counted there by the node seating the ticket.
        DoorHandoff.addressMigration,
        // Ids handed out by the database, never MAX(id) + 1 (Accounts/DatabaseIDs.swift).
        DatabaseIDs.migration,
        // The new-account and rename ration, shared by every node (Accounts/RecordRation.swift).
        RecordRation.migration,
        // Who the operator silenced, for every node (Chat/SilencedStore.swift).
        SilencedStore.migration,
        // Which node counts each account's chat lines (Chat/ChatLeases.swift).
        ChatBudgetStore.migration,
        // Arenas, their players and their games (Arenas/ArenaStore.swift).
        ArenaStore.migration,
        // The account each arena player joined as, for its profile (Arenas/ArenaProfiles.swift).
        ArenaProfiles.migration,
        // Who resigned or forfeited a game, so an arena's recount scores it (Accounts/RecordedGiveUp.swift).
        RecordedGiveUp.migration,
        setTimesWithoutRowID,
        // SQLite's ids as rowids, and the tables history reads one B-tree each (Accounts/RowIDKeys.swift).
        RowIDKeys.migration,
        // Owned names found by how they are drawn: aIice beside alice (Accounts/LookAlikeNames.swift).
        LookAlikeNames.migration,
    ]

    /// `set_times` as one B-tree on SQLite (issue 43): a table with a composite primary key keeps
    /// each row twice, in the table by rowid and in the key's index, and the import writes some
    /// 14 million rows at a million games; `WITHOUT ROWID` keeps them once, in key order, which
    /// is also the order a profile reads them in. Made again and filled from the old table (no
    /// table refers to it, so dropping it is allowed with foreign keys on). PostgreSQL has no
    /// rowid: nothing changes there.
    static let setTimesWithoutRowID = Migration(version: 14, summary: "set_times kept as one B-tree on SQLite (WITHOUT ROWID)") { dialect in
        guard dialect == .sqlite else { return [] }
        return [
            """
            CREATE TABLE set_times_keyed (
                account_id BIGINT NOT NULL REFERENCES accounts(id), ms BIGINT NOT NULL, sets BIGINT NOT NULL,
                PRIMARY KEY (account_id, ms)) WITHOUT ROWID
            """,
            "INSERT INTO set_times_keyed (account_id, ms, sets) SELECT account_id, ms, sets FROM set_times",
            "DROP TABLE set_times",
            "ALTER TABLE set_times_keyed RENAME TO set_times",
        ]
    }
}
