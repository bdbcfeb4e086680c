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
            #expect(listed == [ArenaSummary(header: ArenaHeader(arena: "friday", variant: .classic, rated: true, state: .starting, endsAt: view.endsAt),
                                            startsAt: view.startsAt, players: 0)], "the same times from every node (one wall base)")
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

    /// `name` joins `arena` through `server`, following its redirect as clients do: the
    /// connection it is joined on, the state it was answered, and whether it was redirected.
    static func join(_ arena: String, _ name: String, through server: TestServer, nodes: [TestServer]) throws -> (TestClient, ArenaView, Bool) {
        var client = try Requests.client(server), redirected = false
        while true {
            client.send(.arena(.join(ArenaJoinRequest(arena: arena, name: name))), id: "j")
            let answer = try client.waitFor("\(name)'s join") { message -> ServerMessage? in
                switch message {
                case .arena(_, .string("j")?), .redirect(_, .string("j")?), .error(_, .string("j")?): message
                default: nil
                }
            }
            switch answer {
            case .arena(let view, _): return (client, view, redirected)
            case .redirect(let redirect, _) where !redirected:
                #expect(redirect.match == "~arena-\(arena)")
                client = try Requests.client(try LobbyNodeTests.server(at: redirect.address, among: nodes))
                redirected = true
            default: throw ClientTimedOut(waitingFor: "\(name)'s arena, got \(answer)")
            }
        }
    }

    /// Players coming through every node reach the one arena on its node (redirected there),
    /// are paired there with both seats in the store and the duel's row written, and every
    /// node answers the same standings from the store.
    @Test func anArenasPlayersThroughAnyNodeMeetOnItsNode() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let nodes = try LobbyNodeTests.threeNodes(database)
        defer { nodes.forEach { $0.stop() } }
        guard case .arena = try Requests.answer(try Requests.client(nodes[0]), .create(ArenaCreation(arena: "saturday", minutes: 10)), id: "c") else {
            Issue.record("not created")
            return
        }
        var joined: [(TestClient, ArenaView, Bool)] = []
        for (index, node) in nodes.enumerated() { joined.append(try Self.join("saturday", "p\(index)", through: node, nodes: nodes)) }
        #expect(joined.filter(\.2).count == 2, "two of the three nodes send their player to the arena's node")
        #expect(joined.last?.1.standings.count == 3)
        // The first two are paired as the second joins; the third sees their board and waits.
        let pairings = try joined.prefix(2).map { client, _, _ in
            try client.waitFor("a pairing") { if case .arenaPairing(let notice) = $0 { notice } else { nil } }
        }
        #expect(pairings.map(\.match) == ["arena-saturday-1", "arena-saturday-1"] && pairings.map(\.opponent) == ["p1", "p0"])
        // Its answer shows the board once the duel is stored, or a push does then.
        let (third, answered, _) = try #require(joined.last)
        let shown = answered.boards.isEmpty ? try ArenaRoomTests.pushed(third, "the first board") { !$0.boards.isEmpty } : answered
        #expect(shown.boards.map(\.match) == ["arena-saturday-1"])
        for node in nodes {
            guard case .arenaResults(let results, _) = try Requests.answer(try Requests.client(node), .results(arena: "saturday"), id: "r") else {
                Issue.record("no results")
                return
            }
            #expect(results.standings.map(\.name).sorted() == ["p0", "p1", "p2"])
            #expect(results.standings.compactMap(\.playing) == ["arena-saturday-1", "arena-saturday-1"], "the pairing is the store's")
        }
    }
}
