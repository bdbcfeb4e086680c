import SetDatabase
@testable import SetServer
import SetTestSupport
import Testing

/// Leases are times on the database's clock, read once at a node's start and counted on with the
/// node's own clock: a node's lease in the store is the database's now plus one lease, whatever
/// the node's clock reads (a test server's manual clock starts at zero, far from any wall clock).
@Suite(.serialized) struct DatabaseClockTests {
    @Test func aReadingIsPlacedAtTheMiddleOfItsRoundTrip() {
        #expect(DatabaseClock.base(databaseMs: 50_000, sentMs: 100, answeredMs: 140) == 50_000 - 120)
        #expect(DatabaseClock.base(databaseMs: 50_000, sentMs: 0, answeredMs: 0) == 50_000)
    }

    @Test func theReadingIsTheDatabasesClock() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let seconds = "SELECT CAST(floor(extract(epoch FROM statement_timestamp())) AS BIGINT)"
        let before: Int64 = try #require(try database.database.row(seconds)).int(0)
        let read = try DatabaseClock.read(database.database)
        let after: Int64 = try #require(try database.database.row(seconds)).int(0)
        #expect(read >= before * 1_000 && read < (after + 1) * 1_000)
    }

    @Test func aNodesLeaseInTheStoreRunsOnTheDatabasesClock() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let clockSQL = DatabaseClock.nowSQL
        let before: Int64 = try #require(try database.database.row(clockSQL)).int(0)
        let node = try TestServer {
            $0.store = .postgres(database.location)
            $0.cluster.node = "a"
            $0.cluster.advertise = "127.0.0.1:0"
        }
        defer { node.stop() }
        let after: Int64 = try #require(try database.database.row(clockSQL)).int(0)
        let lease: Int64 = try #require(try database.database.row("SELECT lease_until FROM nodes WHERE name = 'a'")).int(0)
        let leaseMs = ClusterSettings().leaseMs
        #expect(lease >= before + leaseMs && lease <= after + leaseMs, "lease \(lease), database clock \(before)…\(after)")
    }
}
