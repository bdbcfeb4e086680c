import SetDatabase

/// What the tables the import fills check row by row, set aside while its rows go in and made
/// again once at the end (issue 43): their secondary indexes, on both engines, and on PostgreSQL
/// their foreign keys. An index built over a whole table sorts it once, where one kept up to date
/// takes each row into a random page; a foreign key added to a full table is checked by one join,
/// where PostgreSQL checks each row's reference by a query of its own (some 24 million at a
/// million games); SQLite's foreign keys, which cannot be dropped, are turned off for the
/// import's connection and every reference is checked at the end. Primary keys and UNIQUE stay,
/// so a duplicate is refused as it is written; a reference the log gets wrong fails the import
/// at the end as it would have midway. All of it is inside the import's transaction: a crash
/// midway rolls the drops back with the rows, and no other connection ever sees the tables
/// without them.
struct ImportSetAside: Equatable {
    /// The statements that make each index and foreign key again, exactly as the schema made it.
    let restore: [String]
    /// The tables set aside.
    let tables: [String]

    /// Drops the secondary indexes (and on PostgreSQL the foreign keys) of `tables`, names the
    /// import owns, never input.
    static func drop(on tables: [String], in database: Database) throws(DatabaseError) -> ImportSetAside {
        let names = tables.map { "'\($0)'" }.joined(separator: ", ")
        var restore: [String] = []
        switch database.dialect {
        case .sqlite:
            // A constraint's own index (sqlite_autoindex_…) has no SQL of its own. SQLite's foreign
            // keys cannot be dropped without making the table again: they stay (an index lookup each).
            for row in try database.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (\(names)) ORDER BY name") {
                try database.execute("DROP INDEX \(try row.text(0))")
                restore.append(try row.text(1))
            }
        case .postgres:
            let keys = try database.query("""
                SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
                WHERE contype = 'f' AND conrelid::regclass::text IN (\(names)) ORDER BY 1, 2
                """)
            for row in keys {
                try database.execute("ALTER TABLE \(try row.text(0)) DROP CONSTRAINT \(try row.text(1))")
                restore.append("ALTER TABLE \(try row.text(0)) ADD CONSTRAINT \(try row.text(1)) \(try row.text(2))")
            }
            let indexes = try database.query("""
                SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN (\(names))
                    AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY indexname
                """)
            for row in indexes {
                try database.execute("DROP INDEX \(try row.text(0))")
                restore.insert(try row.text(1), at: 0)
            }
        }
        return ImportSetAside(restore: restore, tables: tables)
    }

    /// On SQLite with foreign keys off for the import's connection (`AccountImport`: they can only
    /// be turned off outside a transaction, and cannot be dropped), every row's references checked
    /// at once, as PostgreSQL checks them when its keys are added again: a reference the log gets
    /// wrong fails the import here, as it would have midway.
    static func checkReferences(of tables: [String], in database: Database) throws(DatabaseError) {
        guard database.dialect == .sqlite, try database.row("PRAGMA foreign_keys")?.int(0) as Int64? == 0 else { return }
        for table in tables {
            guard let wrong = try database.row("PRAGMA foreign_key_check(\(table))") else { continue }
            // A table without a rowid (`RowIDKeys`) names no row: the table and the one it misses say enough.
            let row = wrong.isNull(1) ? "" : " (rowid \(wrong.values[1]))"
            throw DatabaseError(.invalidStatement, "FOREIGN KEY constraint failed: a row of \(table)\(row) refers to none in \(wrong.values[2])")
        }
    }

    /// How long one of `restore`'s statements may take on PostgreSQL: each reads a whole table,
    /// some seconds at a million games, past the few every other statement keeps to.
    static let restoreMs = 600_000

    /// Makes the indexes and foreign keys again over the rows now in their tables; `before` is
    /// told each one's number (from 1) before it is made, for the progress lines.
    func restore(in database: Database, before: (Int) -> Void = { _ in }) throws(DatabaseError) {
        guard let postgres = database as? PostgresDatabase else {
            for (index, statement) in restore.enumerated() {
                before(index + 1)
                try database.execute(statement)
            }
            try Self.checkReferences(of: tables, in: database)
            return
        }
        // SET LOCAL: the server's own limit goes back with the transaction's end.
        try postgres.execute("SET LOCAL statement_timeout = \(Self.restoreMs)")
        try postgres.withCallDeadline(ms: Self.restoreMs) { () throws(DatabaseError) in
            for (index, statement) in restore.enumerated() {
                before(index + 1)
                try postgres.execute(statement)
            }
        }
    }
}
