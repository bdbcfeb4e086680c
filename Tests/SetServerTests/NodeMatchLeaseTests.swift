import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// A match's row lives by its node's lease, on a real PostgreSQL: a renewal writes the node's row
/// and no match row that did not change, a placement no player made is forgotten after a lease,
/// a made one lives as long as its node, and a restarted node forgets the matches it no longer
/// holds. An older database migrates to it.
@Suite(.serialized) struct NodeMatchLeaseTests {
    typealias Directories = NodeDirectoryTests

    static func listing(_ name: String, players: [String] = ["ann"]) -> MatchListing {
        MatchListing(name: name, mode: .duel, phase: .waiting,
                     players: players.enumerated().map { PlayerInfo(seat: $0.offset == 0 ? .first : .second, name: $0.element, present: true, score: 0) },
                     spectators: 0, variant: .classic)
    }

    /// Each of `node`'s match rows with its row version (`xmin` moves whenever a row is written).
    static func rowVersions(_ node: String, _ database: TestDatabase) throws -> [String: String] {
        let rows = try database.database.query("SELECT match, xmin::text FROM match_homes WHERE node = $1", .text(node))
        return Dictionary(uniqueKeysWithValues: try rows.map { row throws(DatabaseError) in (try row.text(0), try row.text(1)) })
    }

    @Test func aRenewalWithManyHeldMatchesWritesNoMatchRowWhenNothingChanged() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Directories.directory("a", database), b = try Directories.directory("b", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        _ = try b.register(at: 1_000, leaseMs: 10_000)
        let names = (1...200).map { "duel-a-\($0)" }
        var sync = NodeSync(now: 1_000, leaseMs: 10_000, listings: names.map { Self.listing($0) }, gone: [], waiting: nil)
        sync.held = names
        _ = try a.renew(sync)
        let before = try Self.rowVersions("a", database)
        #expect(before.count == 200)

        // Renewals with nothing changed, the first one telling every match held (as after a start).
        for (index, now) in [3_000, 5_000, 7_000].enumerated() {
            var quiet = NodeSync(now: Int64(now), leaseMs: 10_000, listings: [], gone: [], waiting: nil)
            if index == 0 { quiet.held = names }
            #expect(try a.renew(quiet) == NodeLease(until: Int64(now) + 10_000))
        }
        #expect(try Self.rowVersions("a", database) == before, "a renewal rewrote match rows")
        // Yet every match is alive with its node: the node's row moved.
        #expect(try b.home(of: "duel-a-7") == MatchHome(node: "a", address: "127.0.0.1:7380", lease: NodeLease(until: 17_000)))
        #expect(try b.otherListings(at: 16_999).count == 200)
        #expect(try b.otherListings(at: 17_000).isEmpty)
    }

    @Test func aRunningNodeRenewsWithoutRewritingItsMatchRows() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try NodeServerTests.node("a", database)
        defer { a.stop() }
        let names = (0..<3).map { NodeServerTests.matchName(on: "a", among: ["a"], prefix: "r\($0)-") }
        let clients = try names.map { name in try TestClient.joined(a, name: "ann", match: name) }
        _ = polled({ try? database.database.query("SELECT match FROM match_homes WHERE node = 'a' AND seats = 1").count }, until: { $0 == 3 })
        let before = try Self.rowVersions("a", database)
        let lease = { try? database.database.row("SELECT lease_until FROM nodes WHERE name = 'a'")?.int(0) as Int64? }
        for step in 1...3 {
            a.advance(by: 2_000)
            _ = polled(lease, until: { ($0 ?? 0) >= NodeServerTests.wallBase + 1_000 + Int64(step) * 2_000 + 10_000 })
        }
        #expect(lease() == NodeServerTests.wallBase + 17_000)
        #expect(try Self.rowVersions("a", database) == before, "a renewal rewrote match rows")
        withExtendedLifetime(clients) {}
    }

    @Test func anUnclaimedPlacementExpiresAfterALeaseAndAClaimedOneLivesAsLongAsItsNode() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Directories.directory("a", database), b = try Directories.directory("b", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        _ = try b.register(at: 1_000, leaseMs: 10_000)
        // "friday" hashes to b: a places it there, and a player makes it on b. "sunday" nobody makes.
        let sunday = NodeServerTests.matchName(on: "b", among: ["a", "b"], prefix: "sunday")
        #expect(try a.place("friday", at: 2_000, leaseMs: 10_000) == .placed(MatchHome(node: "b", address: "127.0.0.2:7380", lease: NodeLease(until: 11_000)), until: 12_000))
        #expect(try a.place(sunday, at: 2_000, leaseMs: 10_000).home.node == "b")
        #expect(try a.place("friday", at: 2_500, leaseMs: 10_000) == .found(MatchHome(node: "b", address: "127.0.0.2:7380", lease: NodeLease(until: 11_000))))
        #expect(try a.stillPlaced(["friday", sunday, "nowhere"]) == ["friday", sunday])
        _ = try b.renew(NodeSync(now: 3_000, leaseMs: 10_000, listings: [Self.listing("friday")], gone: [], waiting: nil))
        #expect(try a.stillPlaced(["friday", sunday]) == [sunday])

        _ = try b.renew(NodeSync(now: 11_999, leaseMs: 10_000, listings: [], gone: [], waiting: nil))
        #expect(try a.home(of: sunday) != nil)
        _ = try b.renew(NodeSync(now: 12_000, leaseMs: 10_000, listings: [], gone: [], waiting: nil))
        #expect(try a.home(of: sunday) == nil)
        // The claimed one lives on with its node, renewal after renewal, far past any lease of its own.
        for now in stride(from: 14_000, through: 60_000, by: 2_000) {
            _ = try b.renew(NodeSync(now: Int64(now), leaseMs: 10_000, listings: [], gone: [], waiting: nil))
        }
        #expect(try a.home(of: "friday") == MatchHome(node: "b", address: "127.0.0.2:7380", lease: NodeLease(until: 70_000)))
        // Until its node lapses: then it is away (its row kept for the node's return), and listed nowhere.
        #expect(try a.home(of: "friday")?.lease.isAlive(at: 70_000) == false)
        #expect(try a.otherListings(at: 70_000).isEmpty)
    }

    @Test func aRestartedNodeForgetsTheMatchesItNoLongerHoldsButNotAFreshPlacement() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Directories.directory("a", database), b = try Directories.directory("b", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        _ = try b.register(at: 1_000, leaseMs: 10_000)
        _ = try b.renew(NodeSync(now: 1_000, leaseMs: 10_000, listings: [Self.listing("kept"), Self.listing("ended")], gone: [], waiting: nil))
        // b is away; it comes back with only "kept" (its journal of "ended" was finished meanwhile).
        _ = try a.renew(NodeSync(now: 20_000, leaseMs: 10_000, listings: [], gone: [], waiting: nil))
        #expect(try a.place("friday", at: 20_000, leaseMs: 10_000).home.node == "a", "b is away: a new match goes to a")
        let fresh = NodeServerTests.matchName(on: "b", among: ["a", "b"], prefix: "fresh")
        _ = try b.register(at: 21_000, leaseMs: 10_000)
        #expect(try a.place(fresh, at: 21_500, leaseMs: 10_000).home.node == "b")
        var first = NodeSync(now: 22_000, leaseMs: 10_000, listings: [Self.listing("kept")], gone: [], waiting: nil)
        first.held = ["kept"]
        _ = try b.renew(first)
        #expect(try a.home(of: "kept")?.node == "b")
        #expect(try a.home(of: "ended") == nil)
        #expect(try a.home(of: fresh)?.node == "b", "a placement on b no player has come to yet waits for its deadline")
    }

    @Test func aDatabaseOfTheLastVersionMigratesItsMatchRows() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let connection = try PostgresDatabase(url: database.location)
        try Migrations.run(Array(SQLAccountSchema.migrations.prefix(4)), on: connection, wallSeconds: 0)
        try connection.execute("INSERT INTO nodes (name, address, lease_until, started) VALUES ('b', '127.0.0.2:7380', 11000, 1000)")
        try connection.execute("""
            INSERT INTO match_homes (match, node, lease_until, mode, variant, state, seats, players, spectators)
            VALUES ('made', 'b', 11000, 'duel', 'classic', 'waiting', 1, '[]', 0), ('stale', 'b', 12000, 'duel', 'classic', 'waiting', 0, '[]', 0),
                   ('fresh', 'b', 20000, 'duel', 'classic', 'waiting', 0, '[]', 0)
            """)
        #expect(try Migrations.run(SQLAccountSchema.migrations, on: connection, wallSeconds: 0) == SQLAccountSchema.migrations.count, "to the last version, past the placements (5)")
        let b = NodeDirectory(database: connection, me: NodeIdentity(name: "b", address: "127.0.0.2:7380"), faults: nil)
        _ = try b.register(at: 13_000, leaseMs: 10_000)
        // Its first renewal on this version writes every listing it holds: "made" is made, "stale"
        // (past its old lease) is forgotten, and "fresh", placed by another node for a player on
        // their way, waits until its old lease ends.
        var first = NodeSync(now: 13_000, leaseMs: 10_000, listings: [Self.listing("made")], gone: [], waiting: nil)
        first.held = ["made"]
        _ = try b.renew(first)
        #expect(try b.home(of: "made") == MatchHome(node: "b", address: "127.0.0.2:7380", lease: NodeLease(until: 23_000)))
        #expect(try b.home(of: "stale") == nil)
        #expect(try b.stillPlaced(["made", "fresh"]) == ["fresh"])
        _ = try b.renew(NodeSync(now: 20_000, leaseMs: 10_000, listings: [], gone: [], waiting: nil))
        #expect(try b.home(of: "fresh") == nil)
    }
}
