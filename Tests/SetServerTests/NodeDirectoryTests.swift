import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// The node directory on a real PostgreSQL: registration and leases, placement where the row
/// wins over the hash, waiting duels, and the listings other nodes read.
@Suite(.serialized) struct NodeDirectoryTests {
    static func directory(_ name: String, _ database: TestDatabase) throws -> NodeDirectory {
        let connection = try PostgresDatabase(url: database.location)
        try Migrations.run(SQLAccountSchema.migrations, on: connection, wallSeconds: 0)
        return NodeDirectory(database: connection, me: NodeIdentity(name: name, address: "127.0.0.\(name == "a" ? 1 : 2):7380"), faults: nil)
    }

    @Test func aNodeIsAliveWhileItsLeaseRuns() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.directory("a", database), b = try Self.directory("b", database)
        #expect(try a.register(at: 1_000, leaseMs: 10_000) == NodeLease(until: 11_000))
        _ = try b.register(at: 5_000, leaseMs: 10_000)
        #expect(try a.liveNodes(at: 10_999) == ["a", "b"])
        #expect(try a.liveNodes(at: 11_000) == ["b"])
        #expect(try a.renew(NodeSync(now: 12_000, leaseMs: 10_000, listings: [], gone: [], waiting: nil)) == NodeLease(until: 22_000))
        #expect(try b.liveNodes(at: 16_000) == ["a"])
    }

    @Test func aNewMatchGoesWhereTheHashSaysButAnExistingRowWins() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.directory("a", database), b = try Self.directory("b", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        _ = try b.register(at: 1_000, leaseMs: 10_000)
        // "friday" hashes to b, "saturday" to a (Protocol.md's transcript).
        #expect(try a.place("friday", at: 2_000, leaseMs: 10_000).home == MatchHome(node: "b", address: "127.0.0.2:7380", lease: NodeLease(until: 11_000)))
        #expect(try b.place("saturday", at: 2_000, leaseMs: 10_000).home.node == "a")
        // b already holds a row for a match the hash would give a: the row wins.
        try database.database.execute("""
            INSERT INTO match_homes (match, node, lease_until, mode, variant, state, seats, players, spectators)
            VALUES ('cup', 'b', 11000, 'duel', 'classic', 'waiting', 0, '[]', 0)
            """)
        #expect(Rendezvous.home(of: "cup", among: ["a", "b"]) == "a")
        #expect(try a.place("cup", at: 2_000, leaseMs: 10_000) == .found(MatchHome(node: "b", address: "127.0.0.2:7380", lease: NodeLease(until: 11_000))))
        #expect(try a.home(of: "nowhere") == nil)
    }

    @Test func aWaitingDuelIsFoundOnlyOnAnotherLiveNodeInItsVariant() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.directory("a", database), b = try Self.directory("b", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        _ = try b.register(at: 1_000, leaseMs: 10_000)
        _ = try a.renew(NodeSync(now: 1_000, leaseMs: 10_000, listings: [], gone: [], waiting: [(match: "duel-a-1", variant: .classic)]))
        #expect(try a.waitingDuel(.classic, at: 2_000) == nil)
        #expect(try b.waitingDuel(.junior, at: 2_000) == nil)
        #expect(try b.waitingDuel(.classic, at: 2_000) == WaitingDuel(match: "duel-a-1", node: "a", address: "127.0.0.1:7380"))
        #expect(try b.waitingDuel(.classic, at: 11_000) == nil)
        _ = try a.renew(NodeSync(now: 3_000, leaseMs: 10_000, listings: [], gone: [], waiting: []))
        #expect(try b.waitingDuel(.classic, at: 4_000) == nil)
    }

    @Test func anotherNodeReadsTheListingsANodeWroteWithItsAddress() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.directory("a", database), b = try Self.directory("b", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        _ = try b.register(at: 1_000, leaseMs: 10_000)
        let listing = MatchListing(name: "demo", mode: .duel, phase: .playing,
                                   players: [PlayerInfo(seat: .first, name: "ann", present: true, score: 3, rating: 1612, provisional: true)],
                                   spectators: 2, variant: .junior)
        _ = try a.renew(NodeSync(now: 2_000, leaseMs: 10_000, listings: [listing], gone: [], waiting: nil))
        var elsewhere = listing
        elsewhere.address = "127.0.0.1:7380"
        #expect(try b.otherListings(at: 3_000) == [elsewhere])
        #expect(try a.otherListings(at: 3_000) == [])
        _ = try a.renew(NodeSync(now: 4_000, leaseMs: 10_000, listings: [], gone: ["demo"], waiting: nil))
        #expect(try b.otherListings(at: 5_000) == [])
    }

    @Test func aRowPlacedOnANodeThatNoPlayerCameToMakeIsForgottenAfterALease() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Self.directory("a", database), b = try Self.directory("b", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        _ = try b.register(at: 1_000, leaseMs: 10_000)
        #expect(try a.place("friday", at: 2_000, leaseMs: 10_000).home.node == "b")
        #expect(try b.place("demo", at: 2_000, leaseMs: 10_000).home.node == "b")
        // b made demo (a player came: its listing is written) but never friday; a renewal a lease later forgets friday only.
        let demo = MatchListing(name: "demo", mode: .duel, phase: .waiting, players: [], spectators: 0, variant: .classic)
        _ = try b.renew(NodeSync(now: 3_000, leaseMs: 10_000, listings: [demo], gone: [], waiting: nil))
        var sync = NodeSync(now: 11_000, leaseMs: 10_000, listings: [], gone: [], waiting: nil)
        _ = try b.renew(sync)
        #expect(try a.home(of: "friday") != nil)
        sync.now = 12_000
        _ = try b.renew(sync)
        #expect(try a.home(of: "friday") == nil)
        #expect(try a.home(of: "demo")?.node == "b")
        // A placed row shows in no list until its node writes the match's players.
        #expect(try a.otherListings(at: 12_500) == [])
    }
}
