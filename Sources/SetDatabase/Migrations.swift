/// One step of a schema: applied once, in order, in a transaction of its own, and noted in
/// `schema_version` so it is never applied again.
package struct Migration: Sendable {
    package let version: Int
    package let summary: String
    /// Its statements in the engine's own dialect.
    package let statements: @Sendable (SQLDialect) -> [String]
    /// Whether it makes again a table other tables refer to (SQLite's way to change a column or
    /// a key). Dropping such a table with foreign keys on would be refused, or would empty the
    /// tables referring to it, so on SQLite they are turned off around its transaction (they
    /// can only be turned off outside one) and every reference is checked before it commits:
    /// SQLite's own twelve-step procedure for a change ALTER TABLE cannot make.
    package let remakesReferencedTables: Bool

    package init(version: Int, summary: String, remakesReferencedTables: Bool = false,
                 statements: @escaping @Sendable (SQLDialect) -> [String]) {
        self.version = version
        self.summary = summary
        self.remakesReferencedTables = remakesReferencedTables
        self.statements = statements
    }
}

/// Brings a database's schema up to date: reads `schema_version` and applies each later
/// migration, each in its own transaction, so a failure leaves the schema at the last whole step.
package enum Migrations {
    /// The advisory lock servers making `schema_version` on one PostgreSQL take in turn.
    static let postgresLockKey: Int64 = 0x5E7_6A3E
    /// Applies what is missing of `migrations` (ordered by version, from 1) and returns the version
    /// the database is at; a database newer than the list is refused rather than written wrongly.
    /// `announce` is told each step before it is applied to a database that held a schema
    /// already (an upgrade, which may take a while on a large store; a new one is not announced).
    @discardableResult
    package static func run(_ migrations: [Migration], on database: Database, wallSeconds: Int64,
                            announce: (Migration) -> Void = { _ in }) throws(DatabaseError) -> Int {
        guard migrations.map(\.version) == Array(1..<migrations.count + 1) else {
            throw DatabaseError(.migration, "migrations must be numbered 1, 2, 3, … in order")
        }
        try database.transaction { () throws(DatabaseError) in
            // PostgreSQL's IF NOT EXISTS is no guard against a second server making the same table
            // at the same moment (nodes started together on a new database): one waits for the
            // other's lock, then finds the table made.
            if database.dialect == .postgres { _ = try database.row("SELECT pg_advisory_xact_lock($1)", .int(Self.postgresLockKey)) }
            try database.execute("""
                CREATE TABLE IF NOT EXISTS schema_version (version BIGINT PRIMARY KEY, summary TEXT NOT NULL, applied_wall BIGINT NOT NULL)
                """)
        }
        var current = try version(of: database)
        guard current <= migrations.count else {
            throw DatabaseError(.migration, "the database is at schema version \(current), newer than this program's \(migrations.count)")
        }
        let upgrading = current > 0
        for migration in migrations where migration.version > current {
            if upgrading { announce(migration) }
            let foreignKeysOff = migration.remakesReferencedTables && database.dialect == .sqlite
            if foreignKeysOff { try database.execute("PRAGMA foreign_keys=OFF") }
            do {
                try database.transaction { () throws(DatabaseError) in
                    // Two servers starting on one PostgreSQL at once: the second waits here, then
                    // finds the step done.
                    if database.dialect == .postgres { try database.execute("LOCK TABLE schema_version IN EXCLUSIVE MODE") }
                    guard try version(of: database) < migration.version else { return }
                    for statement in migration.statements(database.dialect) { try database.execute(statement) }
                    if foreignKeysOff { try checkEveryReference(in: database, after: migration) }
                    try database.execute("INSERT INTO schema_version (version, summary, applied_wall) VALUES ($1, $2, $3)",
                                         .int(migration.version), .text(migration.summary), .int(wallSeconds))
                }
            } catch {
                if foreignKeysOff { try? database.execute("PRAGMA foreign_keys=ON") }
                throw error
            }
            if foreignKeysOff { try database.execute("PRAGMA foreign_keys=ON") }
            current = migration.version
            emptyWriteAheadLog(of: database)
        }
        return current
    }

    /// On SQLite, folds a step's pages into the file and empties the WAL. Left to SQLite, the
    /// WAL keeps every step's pages until it holds a thousand (4 MiB), and stays as long as the
    /// longest step made it: the fifteen steps of a new store took 531 KB of WAL at its first
    /// start, and a step making a million games' tables again some 1 GB, kept on disk beside
    /// the file while the server ran. A checkpoint that cannot finish now (another connection
    /// reading) is no failure: what the step wrote is committed either way.
    private static func emptyWriteAheadLog(of database: Database) {
        guard database.dialect == .sqlite else { return }
        _ = try? database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Refuses a step that left a row referring to none (SQLite, foreign keys off): the
    /// transaction rolls back and the schema stays at the last whole step.
    private static func checkEveryReference(in database: Database, after migration: Migration) throws(DatabaseError) {
        guard let wrong = try database.row("PRAGMA foreign_key_check") else { return }
        throw DatabaseError(.migration, "migration \(migration.version) left a row of \(try wrong.text(0)) referring to none in \(try wrong.text(2))")
    }

    /// The schema version a database is at (0: none applied).
    package static func version(of database: Database) throws(DatabaseError) -> Int {
        try database.row("SELECT COALESCE(MAX(version), 0) FROM schema_version")?.int(0) ?? 0
    }
}
