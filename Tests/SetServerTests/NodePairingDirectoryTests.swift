import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import Testing

/// The pairing decision on a real PostgreSQL (`NodeDirectory.pair`): the first unnamed player
/// waits, in a row written by the decision itself; the next, on any live node, is sent there;
/// variants and dead nodes are kept apart; a node's rows of duels no longer waiting go.
@Suite(.serialized) struct NodePairingDirectoryTests {
    static func rows(_ database: TestDatabase) throws -> [String] {
        try database.database.query("SELECT match FROM waiting ORDER BY match").map { row throws(DatabaseError) in try row.text(0) }
    }

    @Test func theFirstPlayerWaitsInARowTheDecisionWritesAndTheNextOnAnyNodeIsSentThere() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try NodeDirectoryTests.directory("a", database), b = try NodeDirectoryTests.directory("b", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        _ = try b.register(at: 1_000, leaseMs: 10_000)
        #expect(try a.pair(.classic, candidate: "duel-a-1", keeping: [], at: 2_000) == .wait(match: "duel-a-1"))
        #expect(try Self.rows(database) == ["duel-a-1"])
        let onA = WaitingDuel(match: "duel-a-1", node: "a", address: "127.0.0.1:7380")
        #expect(try b.pair(.classic, candidate: "duel-b-1", keeping: [], at: 2_100) == .join(onA))
        // Its own node pairs the next one there too, while it keeps the row.
        #expect(try a.pair(.classic, candidate: "duel-a-2", keeping: ["duel-a-1"], at: 2_200) == .join(onA))
        // Another variant waits apart.
        #expect(try b.pair(.junior, candidate: "duel-b-2", keeping: [], at: 2_300) == .wait(match: "duel-b-2"))
        #expect(try Self.rows(database) == ["duel-a-1", "duel-b-2"])
        // A node whose lease ended is sent nobody: the player waits where they came.
        #expect(try b.pair(.classic, candidate: "duel-b-3", keeping: [], at: 11_000) == .wait(match: "duel-b-3"))
    }

    @Test func aRowItsNodeNoLongerKeepsIsDeletedByItsNextDecisionOrWhenItsDuelFills() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try NodeDirectoryTests.directory("a", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        #expect(try a.pair(.classic, candidate: "duel-a-1", keeping: [], at: 2_000) == .wait(match: "duel-a-1"))
        // duel-a-1 filled: the next decision here keeps it no more, and waits in a new duel.
        #expect(try a.pair(.classic, candidate: "duel-a-2", keeping: [], at: 2_100) == .wait(match: "duel-a-2"))
        #expect(try Self.rows(database) == ["duel-a-2"])
        try a.forgetWaiting(["duel-a-2"])
        #expect(try Self.rows(database).isEmpty)
    }
}
