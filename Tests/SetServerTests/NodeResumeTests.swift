import Foundation
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// Issue 42, item 7: a seat comes back through any node. A seat token names its match, so a
/// resume sent with no match to a node that does not hold it is redirected to the node that does
/// (never `bad_token` for a seat that exists elsewhere), and following it lands in the seat.
@Suite(.serialized) struct NodeResumeTests {
    static func joined(_ client: TestClient) throws -> (match: String, seat: Seat?, token: String?, resumed: Bool) {
        try client.waitFor("joined") { message -> (String, Seat?, String?, Bool)? in
            if case .error(let error, _) = message { Issue.record("refused: \(error.message)") }
            if case .joined(_, let match, _, let seat, let token, let resumed, _) = message { return (match, seat, token, resumed) }
            return nil
        }
    }

    @Test func aResumeWithOnlyItsTokenThroughAnotherNodeIsRedirectedAndLandsInTheSeat() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try NodeServerTests.node("a", database), b = try NodeServerTests.node("b", database)
        defer { a.stop(); b.stop() }
        let match = NodeServerTests.matchName(on: "b", among: ["a", "b"], prefix: "again")
        let ann = try NodeServerTests.greeted(b)
        ann.send(.join(JoinRequest(name: "ann", match: match)))
        let seated = try Self.joined(ann)
        let token = try #require(seated.token)
        #expect(TokenMatch.match(of: token) == match, "the token names its match")
        // Dealt, so the seat waits for her (a waiting match whose only player leaves is freed).
        let bob = try NodeServerTests.greeted(b)
        bob.send(.join(JoinRequest(name: "bob", match: match)))
        _ = try Self.joined(bob)
        _ = try ann.awaitEvent("game started") { if case .gameStarted = $0 { true } else { false } }
        ann.hangUp()
        // B writes its match's row once it has seated her.
        _ = polled({ try? database.database.row("SELECT node FROM match_homes WHERE match = $1", .text(match))?.text(0) },
                   until: { $0 == "b" })

        // The same command again, through A, as a client that kept only the token would send it.
        let back = try NodeServerTests.greeted(a)
        back.send(.join(JoinRequest(name: "ann", token: token)), id: "r")
        back.send(.ping(time: 7), id: "p")
        #expect(try NodeServerTests.redirect(back) == Redirect(match: match, address: "127.0.0.1:\(b.port)"))
        // What waited behind the join is answered after the redirect, on the same connection.
        #expect(try back.waitFor("pong") { if case .pong(_, let clientTime, _) = $0 { clientTime } else { nil } } == 7)
        let onB = try NodeServerTests.greeted(b)
        onB.send(.join(JoinRequest(name: "ann", match: match, token: token, takeOver: true)))
        let resumed = try Self.joined(onB)
        #expect(resumed.match == match && resumed.seat == seated.seat && resumed.resumed && resumed.token == token)
    }

    @Test func aTokenWhoseMatchIsNowhereIsStillRefused() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let a = try NodeServerTests.node("a", database)
        defer { a.stop() }
        let ann = try NodeServerTests.greeted(a)
        ann.send(.join(JoinRequest(name: "ann", token: TokenMatch.token(match: "gone", secret: "0123456789abcdef0123456789abcdef"))))
        _ = try ann.awaitError(.badToken)
        #expect(try database.database.query("SELECT node FROM match_homes WHERE match = 'gone'").isEmpty, "a resume places nothing")
    }
}
