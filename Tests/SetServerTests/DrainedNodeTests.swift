import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// A drained node makes no new match of any kind (issue 42 item 6): a player naming no match
/// who reaches it is sent to pair on a node that is not drained, or refused `server_full` when
/// there is none; a solo game naming none is refused. Real nodes on one real PostgreSQL.
@Suite(.serialized) struct DrainedNodeTests {
    typealias Nodes = NodeServerTests

    @Test func aDrainedNodeSendsAnUnnamedPlayerToPairOnANodeThatIsNotOrNowhere() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (a, b, _) = try NodeRosterTests.twoNodes(database)
        let roster = try NodeRosterTests.roster(database)
        try roster.drain("b", true, at: 3_000)
        #expect(try b.pair(.classic, candidate: "duel-b-2", keeping: [], at: 3_500)
                == .join(WaitingDuel(match: "duel-a-0", node: "a", address: "127.0.0.1:7380")))
        #expect(try database.database.query("SELECT 1 FROM waiting WHERE node = 'b'").isEmpty, "no duel made on b")
        // A duel waiting anywhere is still the first choice, b's own too.
        #expect(try a.pair(.classic, candidate: "duel-a-1", keeping: [], at: 3_600) == .wait(match: "duel-a-1"))
        #expect(NodeRosterTests.match(try b.pair(.classic, candidate: "duel-b-3", keeping: [], at: 3_700)) == "duel-a-1")
        // A new named match goes to a, b being drained.
        #expect(try b.placeMatch("saturday", at: 3_800, leaseMs: 10_000)?.home.node == "a")
        // Every node drained: nowhere.
        try roster.drain("a", true, at: 4_000)
        #expect(try b.pair(.junior, candidate: "duel-b-4", keeping: [], at: 4_500) == .drained)
        // Nor a new named match: it is placed nowhere (a drained node does not fall back on
        // itself), while a match that exists is still found, and the lobby still has a home.
        #expect(try b.placeMatch("sunday", at: 4_600, leaseMs: 10_000) == nil)
        #expect(try database.database.query("SELECT 1 FROM match_homes WHERE match = 'sunday'").isEmpty, "no row written")
        #expect(try b.placeMatch("saturday", at: 4_600, leaseMs: 10_000) == .found(try #require(try b.home(of: "saturday"))))
        #expect(try b.place(Server.lobbyRoom, at: 4_600, leaseMs: 10_000).home.node == "b")
    }

    @Test func throughADrainedNodeAnUnnamedDuelIsPlayedElsewhereAndASoloIsRefused() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try Nodes.node("a", database), b = try Nodes.node("b", database)
        defer { a.stop(); b.stop() }
        try NodeRosterTests.roster(database).drain("b", true, at: Nodes.wallBase)
        // b learns it at its next renewal. a's clock moves with b's, so a renews its lease as b's
        // clock passes it: on a loaded machine b may take many turns to hear of the drain, and a
        // standing still would look dead to b after five (its lease is 10 s), leaving no node to pair on.
        let probe = try Nodes.greeted(b)
        var draining = false
        for attempt in 0..<200 where !draining {
            a.advance(by: 2_000)
            b.advance(by: 2_000)
            draining = try HealthTests.health(probe, id: "h\(attempt)").lease == .draining
        }
        #expect(draining)
        let ann = try Nodes.greeted(b)
        ann.send(.join(JoinRequest(name: "ann")))
        let redirect = try Nodes.redirect(ann)
        #expect(redirect == Redirect(match: "duel-a-0", address: "127.0.0.1:\(a.port)"))
        let annOnA = try Nodes.greeted(a)
        annOnA.send(.join(JoinRequest(name: "ann", match: redirect.match)))
        let (_, duel, _) = try Nodes.joined(annOnA)
        #expect(duel.hasPrefix("duel-a-") && duel != "duel-a-0", "paired afresh on a: \(duel)")
        #expect(try database.database.query("SELECT 1 FROM match_homes WHERE node = 'b'").isEmpty, "no match made on b")
        let solo = try Nodes.greeted(b)
        let refused = try #require(try solo.joinOutcome(JoinRequest(name: "sol", mode: .solo)))
        #expect(refused.code == .serverFull)
        // A new named match through b goes to a; with a drained too, it is refused, not made on b.
        let named = Nodes.matchName(on: "b", among: ["a", "b"], prefix: "named")
        let cy = try Nodes.greeted(b)
        cy.send(.join(JoinRequest(name: "cy", match: named)))
        #expect(try Nodes.redirect(cy).address == "127.0.0.1:\(a.port)")
        try NodeRosterTests.roster(database).drain("a", true, at: Nodes.wallBase)
        let other = Nodes.matchName(on: "b", among: ["a", "b"], prefix: "other")
        let dee = try Nodes.greeted(b)
        let nowhere = try #require(try dee.joinOutcome(JoinRequest(name: "dee", match: other)), "a new match with every node drained")
        #expect(nowhere.code == .serverFull)
        #expect(try database.database.query("SELECT 1 FROM match_homes WHERE match = $1", .text(other)).isEmpty, "placed nowhere")
    }
}
