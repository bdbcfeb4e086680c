import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// Unnamed players on two nodes sharing one throwaway PostgreSQL, over real sockets: the store
/// pairs them whatever the timing. Each node's renewals are held back (`NodeFaults.renewalsHeld`)
/// so nothing waits on a renewal: the decision and its row are made at the join itself.
@Suite(.serialized) struct NodePairingTests {
    typealias Nodes = NodeServerTests

    static func rows(_ database: TestDatabase) throws -> [String] {
        try database.database.query("SELECT match FROM waiting ORDER BY match").map { row throws(DatabaseError) in try row.text(0) }
    }

    /// Two nodes whose renewals are held back from the start.
    static func twoNodes(_ database: TestDatabase) throws -> (TestServer, TestServer, [NodeFaults]) {
        let faults = [NodeFaults(), NodeFaults()]
        for fault in faults { fault.renewalsHeld = true }
        return (try Nodes.node("a", database, faults: faults[0]), try Nodes.node("b", database, faults: faults[1]), faults)
    }

    /// What a player's join was answered.
    enum Answer {
        case seated(match: String, seat: Seat?)
        case redirected(Redirect)
    }

    /// The joined answer or the redirect a join got.
    static func answer(_ client: TestClient) throws -> Answer {
        try client.waitFor("joined or redirect") { message -> Answer? in
            switch message {
            case .error(let error, _): Issue.record("refused: \(error.message)"); return nil
            case .redirect(let redirect, _): return .redirected(redirect)
            case .joined(_, let match, _, let seat, _, _, _): return .seated(match: match, seat: seat)
            default: return nil
            }
        }
    }

    /// Follows redirects as this project's clients do (the same join, naming the match the
    /// redirect names), at most 3; the client seated, and its match and seat.
    static func follow(_ first: Answer, name: String, nodes: [TestServer]) throws -> (TestClient?, String, Seat?) {
        var answer = first, client: TestClient?
        for _ in 0..<3 {
            guard case .redirected(let redirect) = answer else { break }
            guard let server = nodes.first(where: { redirect.address == "127.0.0.1:\($0.port)" }) else {
                throw ClientTimedOut(waitingFor: "a node at \(redirect.address)")
            }
            let next = try Nodes.greeted(server)
            next.send(.join(JoinRequest(name: name, match: redirect.match)))
            answer = try Self.answer(next)
            client = next
        }
        guard case .seated(let match, let seat) = answer else { throw ClientTimedOut(waitingFor: "a seat within 3 redirects") }
        return (client, match, seat)
    }

    @Test func aPlayerArrivingAtAnotherNodeBeforeTheFirstNodeRenewsIsPairedWithThePlayerWaitingThere() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (a, b, faults) = try Self.twoNodes(database)
        defer { faults.forEach { $0.renewalsHeld = false }; a.stop(); b.stop() }
        let ann = try Nodes.greeted(a)
        ann.send(.join(JoinRequest(name: "ann")))
        let (_, duel, _) = try Nodes.joined(ann)
        // Ann is told she waits only once her duel's row is in the store.
        #expect(try Self.rows(database) == [duel])

        let bob = try Nodes.greeted(b)
        bob.send(.join(JoinRequest(name: "bob")))
        #expect(try Nodes.redirect(bob) == Redirect(match: duel, address: "127.0.0.1:\(a.port)"))
        let bobOnA = try Nodes.greeted(a)
        bobOnA.send(.join(JoinRequest(name: "bob", match: duel)))
        #expect(try Nodes.joined(bobOnA) == (.player, duel, .second))
        _ = try ann.awaitEvent("game started") { if case .gameStarted = $0 { true } else { false } }
    }

    @Test func manyPlayersJoiningAtOnceOverTwoNodesAreAllPairedAndNoneIsLeftWaiting() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (a, b, faults) = try Self.twoNodes(database)
        defer { faults.forEach { $0.renewalsHeld = false }; a.stop(); b.stop() }
        // Five on each node: pairing only within a node would leave one waiting on each.
        let names = (0..<10).map { "p\($0)" }
        let clients = try names.indices.map { try Nodes.greeted($0 % 2 == 0 ? a : b) }
        for (client, name) in zip(clients, names) { client.send(.join(JoinRequest(name: name))) }
        var seats: [String: [Seat]] = [:], followed: [TestClient] = []  // a closed connection leaves its duel: keep them
        for (client, name) in zip(clients, names) {
            let (next, match, seat) = try Self.follow(try Self.answer(client), name: name, nodes: [a, b])
            followed += [next].compactMap { $0 }
            seats[match, default: []].append(try #require(seat))
        }
        #expect(seats.count == 5, "\(seats)")
        #expect(seats.values.allSatisfy { Swift.Set($0) == [.first, .second] })
        #expect(try polled({ try Self.rows(database) }, until: { $0.isEmpty }) == [])
    }

    @Test func aDuelThatFillsTakesItsRowOutAtOnceSoNobodyIsSentThere() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (a, b, faults) = try Self.twoNodes(database)
        defer { faults.forEach { $0.renewalsHeld = false }; a.stop(); b.stop() }
        let ann = try Nodes.greeted(a)
        ann.send(.join(JoinRequest(name: "ann")))
        let (_, duel, _) = try Nodes.joined(ann)
        #expect(try Self.rows(database) == [duel])
        // Cat names ann's duel (from the list, say) and fills it: no renewal comes, yet its row goes.
        let cat = try Nodes.greeted(a)
        cat.send(.join(JoinRequest(name: "cat", match: duel)))
        #expect(try Nodes.joined(cat) == (.player, duel, .second))
        #expect(try polled({ try Self.rows(database) }, until: { $0.isEmpty }) == [])
        let dan = try Nodes.greeted(b)
        dan.send(.join(JoinRequest(name: "dan")))
        let (_, danDuel, _) = try Nodes.joined(dan)
        #expect(danDuel.hasPrefix("duel-b-"))
    }

    @Test func aWaitingPlayerWhoLeavesTakesTheirRowOutSoNobodyIsSentToAGoneDuel() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (a, b, faults) = try Self.twoNodes(database)
        defer { faults.forEach { $0.renewalsHeld = false }; a.stop(); b.stop() }
        let ann = try Nodes.greeted(a)
        ann.send(.join(JoinRequest(name: "ann")))
        let (_, duel, _) = try Nodes.joined(ann)
        #expect(try Self.rows(database) == [duel])
        ann.hangUp()
        #expect(try polled({ try Self.rows(database) }, until: { $0.isEmpty }) == [])
        let bob = try Nodes.greeted(b)
        bob.send(.join(JoinRequest(name: "bob")))
        let (_, bobDuel, _) = try Nodes.joined(bob)
        #expect(bobDuel.hasPrefix("duel-b-"))
    }

    @Test func aPlayerSentToADuelThatFilledMeanwhileIsPairedAfreshThereAndTheNextPlayerMeetsThem() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (a, b, faults) = try Self.twoNodes(database)
        defer { faults.forEach { $0.renewalsHeld = false }; a.stop(); b.stop() }
        let ann = try Nodes.greeted(a)
        ann.send(.join(JoinRequest(name: "ann")))
        let (_, duel, _) = try Nodes.joined(ann)
        let bob = try Nodes.greeted(b)
        bob.send(.join(JoinRequest(name: "bob")))
        #expect(try Nodes.redirect(bob).match == duel)
        // Before bob follows, cat fills ann's duel by its name.
        let cat = try Nodes.greeted(a)
        cat.send(.join(JoinRequest(name: "cat", match: duel)))
        #expect(try Nodes.joined(cat) == (.player, duel, .second))
        // Bob reaches a full duel: he is not refused but waits in a new one, its row written.
        let bobOnA = try Nodes.greeted(a)
        bobOnA.send(.join(JoinRequest(name: "bob", match: duel)))
        let (_, bobDuel, bobSeat) = try Nodes.joined(bobOnA)
        #expect(bobDuel != duel && bobSeat == .first)
        #expect(try Self.rows(database).contains(bobDuel))
        let dan = try Nodes.greeted(b)
        dan.send(.join(JoinRequest(name: "dan")))
        let (danOnA, danDuel, danSeat) = try Self.follow(try Self.answer(dan), name: "dan", nodes: [a, b])
        #expect(danOnA != nil && danDuel == bobDuel && danSeat == .second)
    }

    @Test func aPlayerWhoseNewAccountIsWrittenAsTheySitKeepsTheirDuelsRowMeanwhile() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let (a, b, faults) = try Self.twoNodes(database)
        defer { faults.forEach { $0.renewalsHeld = false }; a.stop(); b.stop() }
        let ann = try Nodes.greeted(a)
        var join = JoinRequest(name: "ann")
        join.account = String(repeating: "a1", count: 32)  // a key the store has not seen: written before she sits
        ann.send(.join(join))
        let (_, duel, _) = try Nodes.joined(ann)
        // The duel the store decided, not one decided again after its row was lost meanwhile.
        #expect(duel == "duel-a-1")
        #expect(try Self.rows(database) == [duel])
        let bob = try Nodes.greeted(b)
        bob.send(.join(JoinRequest(name: "bob")))
        #expect(try Nodes.redirect(bob).match == duel)
    }
}
