import Foundation
import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// `setgame nodes` on a real PostgreSQL: a drained node keeps its matches and takes no new ones
/// (placements and quick pairings go elsewhere, and its `health` says not ready); a node is
/// forgotten only once its lease has ended, and then its matches' names are free again.
@Suite(.serialized) struct NodeRosterTests {
    static func roster(_ database: TestDatabase) throws -> NodeRoster {
        NodeRoster(database: try PostgresDatabase(url: database.location))
    }

    /// Two registered nodes, a and b, leases from 1,000 to 11,000, and b holding one made match.
    static func twoNodes(_ database: TestDatabase) throws -> (a: NodeDirectory, b: NodeDirectory, held: String) {
        let a = try NodeDirectoryTests.directory("a", database), b = try NodeDirectoryTests.directory("b", database)
        _ = try a.register(at: 1_000, leaseMs: 10_000)
        _ = try b.register(at: 1_000, leaseMs: 10_000)
        let held = NodeServerTests.matchName(on: "b", among: ["a", "b"], prefix: "held")
        #expect(try b.place(held, at: 1_500, leaseMs: 10_000).home.node == "b")
        let listing = MatchListing(name: held, mode: .duel, phase: .playing,
                                   players: [PlayerInfo(seat: .first, name: "ann", present: true, score: 0, rating: nil, provisional: false)],
                                   spectators: 0, variant: .classic)
        var sync = NodeSync(now: 2_000, leaseMs: 10_000, listings: [listing], gone: [], waiting: nil)
        sync.held = [held]
        _ = try b.renew(sync)
        return (a, b, held)
    }

    @Test func aDrainedNodeKeepsItsMatchesAndTakesNoNewOnes() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (a, b, held) = try Self.twoNodes(database)
        let roster = try Self.roster(database)
        _ = try b.renew(NodeSync(now: 2_500, leaseMs: 10_000, listings: [], gone: [], waiting: [(match: "duel-b-1", variant: .classic)]))
        try roster.drain("b", true, at: 3_000)
        #expect(try b.renew(NodeSync(now: 3_000, leaseMs: 10_000, listings: [], gone: [], held: [held], waiting: nil)).draining)

        // Names the hash gives b now go to a, from either node; b's match stays b's.
        let names = (0..<40).map { "new\($0)" }.filter { Rendezvous.home(of: $0, among: ["a", "b"]) == "b" }
        #expect(!names.isEmpty)
        for name in names { #expect(try [a, b][name.count % 2].place(name, at: 3_500, leaseMs: 10_000).home.node == "a") }
        #expect(try a.place(held, at: 3_500, leaseMs: 10_000).home.node == "b")
        // Nobody is sent to b's waiting duel.
        #expect(try a.waitingDuel(.classic, at: 3_500) == nil)
        #expect(try roster.nodes(at: 3_500).map(\.state) == [.serving, .draining(sinceMs: 3_000)])

        try roster.drain("b", false, at: 4_000)
        #expect(try !b.renew(NodeSync(now: 4_000, leaseMs: 10_000, listings: [], gone: [], held: [held], waiting: nil)).draining)
        let later = (40..<80).map { "new\($0)" }.first { Rendezvous.home(of: $0, among: ["a", "b"]) == "b" }!
        #expect(try a.place(later, at: 4_500, leaseMs: 10_000).home.node == "b")
        #expect(try a.waitingDuel(.classic, at: 4_500)?.match == "duel-b-1")
    }

    @Test func aNodeIsForgottenOnlyOnceItsLeaseEndedAndItsNamesAreFreeAgain() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (a, _, held) = try Self.twoNodes(database)
        let roster = try Self.roster(database)
        // b holds one made match; a placed row no player came to is not counted.
        _ = try a.place(NodeServerTests.matchName(on: "b", among: ["a", "b"], prefix: "empty"), at: 2_500, leaseMs: 10_000)
        #expect(try roster.nodes(at: 3_000).map(\.matches) == [0, 1])
        #expect(throws: NodeRosterError(.nodeAlive, "node b is alive (it renewed its lease less than a lease ago); stop it before forgetting it")) {
            _ = try roster.forget("b", at: 11_999)
        }
        #expect(throws: NodeRosterError(.unknownNode, "the store knows no node named z")) { _ = try roster.forget("z", at: 20_000) }

        // a renews past b's lease; b never does again.
        _ = try a.renew(NodeSync(now: 10_000, leaseMs: 10_000, listings: [], gone: [], waiting: nil))
        #expect(try roster.nodes(at: 12_500).map(\.state) == [.serving, .away(sinceMs: 12_000)])
        #expect(try a.home(of: held)?.node == "b")
        #expect(try roster.forget("b", at: 12_500) == [held])
        #expect(try roster.nodes(at: 12_500).map(\.name) == ["a"])
        #expect(try a.home(of: held) == nil)
        // The name is placed afresh on a live node, no longer answered away.
        #expect(try a.place(held, at: 13_000, leaseMs: 10_000).home.node == "a")
    }

    @Test func aDrainedNodeSaysItIsNotReadyAtItsNextRenewal() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let node = try NodeServerTests.node("a", database)
        defer { node.stop() }
        let client = try TestClient(port: node.port)
        #expect(try HealthTests.health(client, id: "before") == HealthReport(ready: true, store: .ok, node: "a", lease: .held))
        try Self.roster(database).drain("a", true, at: NodeServerTests.wallBase)
        node.advance(by: 2_000)
        // The renewal answers on the node's worker: ask until it has (a result, not a time).
        let report = polled({ try? HealthTests.health(client, id: UUID().uuidString) }, until: { $0?.lease == .draining })
        #expect(report == HealthReport(ready: false, store: .ok, node: "a", lease: .draining))
        #expect(client.lastLine?.contains(#""lease":"draining""#) == true)
    }
}
