import Foundation
import SetDatabase
import SetNet

/// The move from SQLite to PostgreSQL: a server started with `--store postgresql://…` on a data
/// folder whose accounts are in `accounts/accounts.sqlite3` copies them, table by table, into the
/// empty PostgreSQL database in one transaction (values bound, reals exact), then renames the
/// SQLite file aside (`….copied-<wall seconds>`), kept for the operator to delete.
enum AccountCopy {
    /// The tables in the order of their references, each with its columns as both schemas name them.
    static let tables = ["accounts", "ratings", "rated_opponents", "games", "game_seats", "account_games", "set_times"]

    /// Copies the SQLite file at `path` into `store` when both hold the same schema version and
    /// the store is empty; the number of rows copied, nil when there was nothing to copy.
    @discardableResult
    static func run(from path: String, into store: SQLAccountStore, wallSeconds: Int64, log: ServerLog) throws(StoreError) -> Int? {
        guard access(path, F_OK) == 0, store.database.dialect == .postgres else { return nil }
        let target = store.database
        var rows = 0, copied = false
        try SQLAccountStore.storing { () throws(DatabaseError) in
            guard try target.row("SELECT (SELECT COUNT(*) FROM accounts) + (SELECT COUNT(*) FROM games)")?.int(0) as Int? == 0 else {
                log("accounts: \(path) is not copied: the PostgreSQL database already holds accounts (move the file away to silence this)")
                return
            }
            let source = try SQLiteDatabase(path: path)
            let version = try Migrations.run(SQLAccountSchema.migrations, on: source, wallSeconds: wallSeconds)
            guard version == (try Migrations.version(of: target)) else {
                throw DatabaseError(.migration, "\(path) is at schema version \(version), the PostgreSQL database at another")
            }
            try target.transaction { () throws(DatabaseError) in
                rows = 0  // PostgreSQL may run the transaction again
                for table in tables { rows += try copy(table, from: source, to: target) }
                // The ids were copied as they were: the ones the database hands out next follow them.
                for table in ["accounts", "games"] { try DatabaseIDs.catchUp(table, on: target) }
            }
            copied = true
        }
        // The source is closed by now (its last connection): SQLite has folded its WAL into the file.
        guard copied else { return nil }
        let aside = DamagedFiles.unused("\(path).copied-\(wallSeconds)", "")
        let moved = rename(path, aside) == 0
        log("accounts: copied \(rows) rows from \(path) into PostgreSQL; "
            + (moved ? "the SQLite file is renamed aside as \(aside) (delete it once PostgreSQL is trusted)" : "the SQLite file could not be renamed aside"))
        return rows
    }

    /// Copies one table a page at a time (by SQLite's rowid, or the key of a table without one),
    /// so a million games never sit in memory at once.
    private static func copy(_ table: String, from source: Database, to target: Database) throws(DatabaseError) -> Int {
        let key = pageKey(of: table).joined(separator: ", ")
        let width = pageKey(of: table).count
        var last: [SQLValue]?, copied = 0
        while true {
            let after = last == nil ? "" : "WHERE (\(key)) > (\((1...width).map { "$\($0)" }.joined(separator: ", ")))"
            let page = try source.query("SELECT \(key), * FROM \(table) \(after) ORDER BY \(key) LIMIT 5000", last ?? [])
            guard let final = page.last else { return copied }
            for row in page {
                let values = Array(row.values.dropFirst(width))
                let placeholders = (1...values.count).map { "$\($0)" }.joined(separator: ", ")
                try target.execute("INSERT INTO \(table) VALUES (\(placeholders))", values)
            }
            copied += page.count
            last = Array(final.values.prefix(width))
        }
    }

    /// The columns `table` is paged by: SQLite's rowid, or the primary key of a table that has
    /// none (`SQLAccountSchema.setTimesWithoutRowID`, `RowIDKeys`).
    private static func pageKey(of table: String) -> [String] {
        switch table {
        case "set_times": ["account_id", "ms"]
        case "game_seats": ["game_id", "seat"]
        case "account_games": ["account_id", "number"]
        default: ["rowid"]
        }
    }
}
