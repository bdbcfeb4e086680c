import Foundation
import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// A node's lease over real sockets and one throwaway PostgreSQL: a node cut off from the store
/// past its lease stops serving its matches (and the other nodes say it is away) until it
/// renews; a node stopped and restarted on its data folder takes its matches back.
@Suite(.serialized) struct NodeLeaseTests {
    typealias Nodes = NodeServerTests

    @Test func aNodeWhoseLeaseLapsedRefusesForItsMatchesAndTheOtherNodeSaysItIsAway() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let faults = NodeFaults()
        let a = try Nodes.node("a", database, faults: faults), b = try Nodes.node("b", database)
        defer { a.stop(); b.stop() }
        let match = Nodes.matchName(on: "a", among: ["a", "b"])
        let (ann, bob) = try TestClient.duel(a, match: match)

        faults.unreachable = true
        a.advance(by: 11_000)
        ann.send(.act(.deal, seat: nil), id: "cut")
        let refusal = try ann.waitFor("node_away") { if case .error(let error, let id) = $0, id == "cut" { error } else { nil } }
        #expect(refusal.code == .nodeAway)
        #expect(refusal.details["node"] == .string("a"))
        #expect(refusal.details["match"] == .string(match))
        #expect(!refusal.fatal)
        let joiner = try Nodes.greeted(a)
        joiner.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
        #expect(try joiner.awaitError(.nodeAway).details["node"] == .string("a"))

        b.advance(by: 11_000)
        let eve = try Nodes.greeted(b)
        eve.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
        let away = try eve.awaitError(.nodeAway)
        #expect(away.details["node"] == .string("a"))
        #expect(away.details["retryAfterMs"] == .int(1_000))
        #expect(eve.lastLine?.contains("\"message\":\"The server holding \(match) (a) is away; try again in 1 s.\"") == true)

        // The store is back: A renews at its next period, and serves its match again.
        faults.unreachable = false
        a.advance(by: 2_000)
        let answer = polled({ () -> ErrorCode? in
            ann.send(.act(.deal, seat: nil), id: "back")
            return try? ann.waitFor("an answer") { message -> ErrorCode?? in
                switch message {
                case .error(let error, let id) where id == "back": .some(error.code)
                case .ack(let id, _) where id == "back": .some(nil)
                default: nil
                }
            }
        }, until: { $0 != .nodeAway })
        #expect(answer != .nodeAway)
        withExtendedLifetime(bob) {}
    }

    /// A node that cannot ask the store where a match lives names itself as the node away, and
    /// says why: the match's own node may be serving it all the while.
    @Test func aNodeCutOffFromTheStoreSaysItIsTheOneAwayNotTheMatchsNode() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let faults = NodeFaults()
        let a = try Nodes.node("a", database), b = try Nodes.node("b", database, faults: faults)
        defer { a.stop(); b.stop() }
        let match = Nodes.matchName(on: "a", among: ["a", "b"])
        let (ann, bob) = try TestClient.duel(a, match: match)

        faults.unreachable = true
        let eve = try Nodes.greeted(b)
        eve.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
        let away = try eve.awaitError(.nodeAway)
        #expect(away.details["node"] == .string("b") && away.details["match"] == .string(match))
        #expect(away.details["retryAfterMs"] == .int(2_000), "the node's renewal period")
        #expect(away.message == "This server (b) cannot reach the store to find where \(match) is played; try again in 2 s.")
        // Its own node serves it all the while.
        let near = try Nodes.greeted(a)
        near.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
        _ = try near.waitFor("joined") { if case .joined = $0 { true } else { nil } }
        withExtendedLifetime((ann, bob)) {}
    }

    @Test func aStoppedNodesMatchComesBackWhenItRestartsOnItsDataFolder() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let data = temporaryFolder("setgame-node-restart")
        defer { try? FileManager.default.removeItem(atPath: data) }
        var a: TestServer? = try Nodes.node("a", database, data: data)
        let b = try Nodes.node("b", database)
        defer { b.stop() }
        let match = Nodes.matchName(on: "a", among: ["a", "b"])
        let (ann, bob) = try TestClient.duel(a!, match: match)
        let annToken = try #require(ann.received.lazy.compactMap { if case .joined(_, _, _, _, let token, _, _) = $0 { token } else { nil } }.first)
        a?.stop()
        a = nil
        withExtendedLifetime((ann, bob)) {}

        // Its lease runs out: the other node says it is away.
        b.advance(by: 11_000)
        let eve = try Nodes.greeted(b)
        eve.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
        #expect(try eve.awaitError(.nodeAway).details["node"] == .string("a"))

        // Restarted on its folder (and its clock caught up with B's), it renews its lease, and so its match's.
        let again = try Nodes.node("a", database, data: data)
        defer { again.stop() }
        #expect(again.restoredMatches == [match])
        again.advance(by: 12_000)
        _ = polled({ try? database.database.row("SELECT lease_until FROM nodes WHERE name = 'a'")?.int(0) as Int64? },
                   until: { ($0 ?? 0) > Nodes.wallBase + 13_000 })
        let eveAgain = try Nodes.greeted(b)
        eveAgain.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
        #expect(try Nodes.redirect(eveAgain) == Redirect(match: match, address: "127.0.0.1:\(again.port)"))

        let annBack = try Nodes.greeted(again)
        annBack.send(.join(JoinRequest(name: "ann", match: match, token: annToken)))
        let resumed = try annBack.waitFor("joined") { if case .joined(_, _, _, let seat, _, let resumed, _) = $0 { (seat, resumed) } else { nil } }
        #expect(resumed.0 == .first)
        #expect(resumed.1)
    }
}
