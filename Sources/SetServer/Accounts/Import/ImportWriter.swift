import SetDatabase

/// Writes the bulk import's rows (`ImportTally`) many to a statement: on PostgreSQL a `COPY …
/// FROM STDIN` per table and batch (`PostgresDatabase.copy`), on SQLite a multi-row INSERT; the
/// accounts' totals as one UPDATE … FROM (VALUES …) per chunk on both. Each statement's text is
/// made once per size, so both engines keep it prepared (SQLite's statement cache,
/// `PreparedStatements`) and a chunk costs only its binding.
struct ImportWriter {
    let database: Database
    /// Values one statement binds at most: under SQLite's 32,766 and PostgreSQL's 65,535.
    static let maxParameters = 30_000
    let maxParameters: Int
    /// Called after each statement: the progress lines' chance to speak during long writes.
    var tick: () -> Void = {}
    private var texts: [String: String] = [:]

    init(database: Database, maxParameters: Int = Self.maxParameters) {
        (self.database, self.maxParameters) = (database, maxParameters)
    }

    static let accounts = ("accounts", ["id", "identity", "name", "bot", "created_wall"])
    static let games = ("games", ["id", "commitment", "match", "game", "mode", "variant", "rated", "outcome", "reason", "winner",
                                  "ended_at", "duration_ms", "wall", "journal"])
    static let seats = ("game_seats", ["game_id", "seat", "account_id", "name", "points", "sets", "set_times", "before_rating",
                                       "before_deviation", "before_volatility", "after_rating", "after_deviation", "after_volatility"])
    static let accountGames = ("account_games", ["account_id", "number", "game_id", "seat", "opponent_id", "result", "rated", "wall"])
    static let ratedOpponents = ("rated_opponents", ["account_id", "variant", "opponent_id"])
    static let ratings = ("ratings", ["account_id", "variant", "rating", "deviation", "volatility", "rated_games", "opponents",
                                      "first_wall", "last_wall", "listed"])
    static let setTimes = ("set_times", ["account_id", "ms", "sets"])
    /// What `updateAccounts` sets, by id.
    static let accountTotals = ("accounts", ["id", "name", "name_skeleton", "games", "wins", "losses", "draws", "self_games", "best_set_ms"])

    /// Writes one batch of a game's own rows, accounts first (the others refer to them).
    mutating func write(_ rows: ImportTally.Rows) throws(DatabaseError) {
        try insert(rows.accounts)
        try insert(rows.games)
        try insert(rows.seats)
        try insert(rows.accountGames)
        try insert(rows.ratedOpponents)
    }

    /// Rows one COPY takes at most: each is a statement whose deadline the progress lines wait for.
    static let copyRows = 50_000

    /// Inserts `rows` into their table: on PostgreSQL by COPY, `copyRows` at a time; on SQLite as
    /// many to a statement as `maxParameters` allows.
    mutating func insert(_ rows: ImportRows) throws(DatabaseError) {
        let (name, columns) = rows.table
        if let postgres = database as? PostgresDatabase {
            for start in stride(from: 0, to: rows.count, by: Self.copyRows) {
                try postgres.copy(into: name, columns: columns, values: rows.values(ofRows: start..<min(rows.count, start + Self.copyRows)))
                tick()
            }
            return
        }
        let dialect = database.dialect
        try chunked(rows) { count in
            let row = "(" + Array(repeating: "%", count: columns.count).joined(separator: ", ") + ")"
            // OR ROLLBACK: a row refused ends the whole import's transaction, as it would anyway,
            // so SQLite keeps no statement journal to undo the statement alone (a copy of every
            // page each statement touches that an earlier one had changed, written to a file).
            return Self.numbered(dialect, "INSERT OR ROLLBACK INTO \(name) (\(columns.joined(separator: ", "))) VALUES " + Array(repeating: row, count: count).joined(separator: ", "))
        }
    }

    /// Sets each account's final name, skeleton, counts and best set (`ImportTally.accountTotals`).
    mutating func updateAccounts(_ rows: ImportRows) throws(DatabaseError) {
        // VALUES names its columns column1, column2, … on both engines; the casts give
        // PostgreSQL the types its parameters would otherwise lack.
        let dialect = database.dialect
        let types = ["BIGINT", "TEXT", "TEXT", "BIGINT", "BIGINT", "BIGINT", "BIGINT", "BIGINT", "BIGINT"]
        try chunked(rows) { count in
            let row = "(" + types.map { "CAST(% AS \($0))" }.joined(separator: ", ") + ")"
            let values = Array(repeating: row, count: count)
            return Self.numbered(dialect, """
                UPDATE accounts SET name = v.column2, name_skeleton = v.column3, games = v.column4, wins = v.column5, losses = v.column6,
                    draws = v.column7, self_games = v.column8, best_set_ms = v.column9
                FROM (VALUES \(values.joined(separator: ", "))) AS v WHERE accounts.id = v.column1
                """)
        }
    }

    /// `sql` with each `%` its next parameter: `$1`, `$2`, … on PostgreSQL; on SQLite a bare `?`
    /// each, numbered in order, since SQLite looks up each `?NNN` among those before it, which
    /// made preparing a statement of 30,000 take seconds.
    private static func numbered(_ dialect: SQLDialect, _ sql: String) -> String {
        var result = ""
        var next = 0
        for character in sql {
            guard character == "%" else { result.append(character); continue }
            next += 1
            result += dialect == .sqlite ? "?" : "$\(next)"
        }
        return result
    }

    /// Runs the statement `text(rows)` makes over `rows`, a chunk at a time.
    private mutating func chunked(_ rows: ImportRows, _ text: (Int) -> String) throws(DatabaseError) {
        let size = max(1, maxParameters / rows.table.columns.count)
        var start = 0
        while start < rows.count {
            let end = min(rows.count, start + size)
            let key = text(1) + "×\(end - start)"
            let sql = texts[key] ?? text(end - start)
            texts[key] = sql
            if let sqlite = database as? SQLiteDatabase {
                try sqlite.execute(sql, slice: rows.values(ofRows: start..<end))
            } else {
                try database.execute(sql, Array(rows.values(ofRows: start..<end)))
            }
            tick()
            start = end
        }
    }
}
