import SetDatabase
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44 over three nodes on one throwaway PostgreSQL: an arena created through one node is
/// listed, refused again and read back the same through every node, and its creator's allowance
/// is the service's, not a node's.
@Suite(.serialized) struct ArenaNodeTests {
    typealias Requests = ArenaRequestTests

    @Test func anArenaIsTheServicesFromEveryNode() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let nodes = try LobbyNodeTests.threeNodes(database)
        defer { nodes.forEach { $0.stop() } }
        let made = try Requests.answer(try Requests.client(nodes[0]), .create(ArenaCreation(arena: "friday", minutes: 10, startsInS: 30)), id: "c")
        guard case .arena(let view, _) = made else { Issue.record("created: \(made)"); return }
        for node in nodes {
            let client = try Requests.client(node)
            guard case .arenas(let listed, _) = try Requests.answer(client, .list, id: "l") else { Issue.record("no list"); return }
            #expect(listed == [ArenaSummary(arena: "friday", variant: .classic, rated: true, state: .starting, startsAt: view.startsAt,
                                            endsAt: view.endsAt, players: 0)], "the same times from every node (one wall base)")
            guard case .error(let taken, _) = try Requests.answer(client, .create(ArenaCreation(arena: "friday", minutes: 5)), id: "again") else {
                Issue.record("a second friday")
                return
            }
            #expect(taken.code == .arenaExists)
            guard case .arenaResults(let results, _) = try Requests.answer(client, .results(arena: "friday"), id: "r") else { Issue.record("no results"); return }
            #expect(results.endsAt == view.endsAt && results.state == .starting)
        }
        // Two more from this address through b and c, then a fourth through a is one too many.
        for (index, node) in nodes.dropFirst().enumerated() {
            guard case .arena = try Requests.answer(try Requests.client(node), .create(ArenaCreation(arena: "n\(index)", minutes: 1)), id: "m") else {
                Issue.record("arena n\(index) refused")
                return
            }
        }
        guard case .error(let limited, _) = try Requests.answer(try Requests.client(nodes[0]), .create(ArenaCreation(arena: "n9", minutes: 1)),
                                                                id: "over") else { Issue.record("a fourth was made"); return }
        #expect(limited.code == .rateLimited)
    }
}
