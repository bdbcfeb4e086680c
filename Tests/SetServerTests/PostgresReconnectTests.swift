import SetDatabase
import SetTestSupport
import Testing

/// A connection PostgreSQL dropped (a restart, a network cut, here `pg_terminate_backend`) is made
/// again by the next call, and a call that cannot do anything twice goes through on the new one
/// rather than failing: a read, or a transaction from its BEGIN. What could run twice still fails.
@Suite(.serialized) struct PostgresReconnectTests {
    /// A connection, and a way to cut it from another one as PostgreSQL's restart would.
    static func connection(_ database: TestDatabase) throws -> (PostgresDatabase, cut: () throws -> Void) {
        let connection = try PostgresDatabase(url: database.location), killer = try PostgresDatabase(url: database.location)
        let pid: Int64 = try #require(try connection.row("SELECT pg_backend_pid()")).int(0)
        return (connection, { try killer.execute("SELECT pg_terminate_backend($1)", .int(pid)) })
    }

    @Test func aReadOnADroppedConnectionIsAnsweredOnANewOne() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (connection, cut) = try Self.connection(database)
        try cut()
        #expect(try connection.row("SELECT 41 + 1")?.int(0) == 42)
        #expect(connection.isConnected)
    }

    @Test func aTransactionBegunOnADroppedConnectionRunsOnANewOne() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        try database.database.execute("CREATE TABLE IF NOT EXISTS reconnect_marks (n BIGINT NOT NULL)")
        let (connection, cut) = try Self.connection(database)
        try cut()
        try connection.transaction { () throws(DatabaseError) in try connection.execute("INSERT INTO reconnect_marks (n) VALUES (7)") }
        #expect(try connection.query("SELECT n FROM reconnect_marks").map { row throws(DatabaseError) in try row.int(0) as Int64 } == [7])
    }

    @Test func aWriteOutsideATransactionIsNotRepeated() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        try database.database.execute("CREATE TABLE IF NOT EXISTS reconnect_writes (n BIGINT NOT NULL)")
        let (connection, cut) = try Self.connection(database)
        try cut()
        // It may or may not have reached the server before the cut was found: the caller decides.
        #expect(throws: DatabaseError.self) { try connection.execute("INSERT INTO reconnect_writes (n) VALUES (1)") }
        #expect(try connection.query("SELECT n FROM reconnect_writes").isEmpty)
        #expect(PostgresDatabase.isSafeToRepeat("SELECT 1", inTransaction: false))
        #expect(!PostgresDatabase.isSafeToRepeat("SELECT 1", inTransaction: true))
        #expect(PostgresDatabase.isSafeToRepeat("BEGIN ISOLATION LEVEL SERIALIZABLE", inTransaction: true))
        #expect(!PostgresDatabase.isSafeToRepeat("UPDATE nodes SET lease_until = 1", inTransaction: false))
    }
}
