@testable import SetDatabase
import SetTestSupport
import Testing

/// PostgreSQL parses and plans each of the store's statements once per connection: a call's own
/// time on the database is its execution only (the accounts bench's import and answers).
@Suite struct PostgresPreparedTests {
    static let sum = "SELECT $1::bigint + 1"

    @Test func aStatementIsPreparedOnceAndPreparedAgainOnANewConnection() throws {
        guard let subject = try TestDatabase.make(.postgres) else { return }
        let database = subject.database
        for number in 1...3 { #expect(try database.row(Self.sum, .int(number))?.int(0) as Int? == number + 1) }
        let kept = try database.row("SELECT COUNT(*) FROM pg_prepared_statements WHERE statement = $1", .text(Self.sum))
        #expect(try kept?.int(0) as Int? == 1)
        // The server ends this session: the next call connects again, where nothing is prepared yet.
        #expect(throws: DatabaseError.self) { try database.execute("SELECT pg_terminate_backend(pg_backend_pid())") }
        #expect(try database.row(Self.sum, .int(7))?.int(0) as Int? == 8)
        #expect(try database.row("SELECT COUNT(*) FROM pg_prepared_statements WHERE statement = $1", .text(Self.sum))?.int(0) as Int? == 1)
    }

    @Test func onlyStatementsOnRowsAreKept() {
        #expect(PreparedStatements.keeps("SELECT 1"))
        #expect(PreparedStatements.keeps("\n  INSERT INTO games VALUES ($1)"))
        #expect(PreparedStatements.keeps("update accounts SET games = 1"))
        #expect(!PreparedStatements.keeps("BEGIN ISOLATION LEVEL SERIALIZABLE"))
        #expect(!PreparedStatements.keeps("COMMIT"))
        #expect(!PreparedStatements.keeps("CREATE TABLE t (x BIGINT)"))
        var statements = PreparedStatements()
        for _ in 0..<PreparedStatements.limit { #expect(statements.nameForNew("SELECT 1") != nil) }
        #expect(statements.nameForNew("SELECT 1") == nil, "past the limit a statement runs unprepared")
    }
}
