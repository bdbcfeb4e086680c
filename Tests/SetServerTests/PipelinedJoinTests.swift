import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Requests on one connection are answered in order: what a client sends behind its `join` while
/// the join's account is looked up off the loop waits, and is answered after the join's answer.
@Suite(.serialized) struct PipelinedJoinTests {
    static let catKey = String(repeating: "c3", count: 32)

    func greeted(_ server: GatedServer) throws -> TestClient { try TestClient.greeted(port: server.port) }

    /// Several requests written in one write, as a pipelining client does.
    func sendTogether(_ client: TestClient, _ requests: [ClientRequest]) {
        client.sendRaw(requests.flatMap(ClientMessageEncoder.line))
    }

    func catsJoin(id: JSONValue? = "j") -> ClientRequest {
        var request = JoinRequest(name: "cat", match: "b")
        request.account = Self.catKey
        return ClientRequest(id: id, .join(request))
    }

    /// The answers a client reads, as short words, skipping the server's own pings and events.
    func answers(_ client: TestClient, count: Int) throws -> [String] {
        var read: [String] = []
        while read.count < count {
            switch try client.next("answer \(read.count + 1) of \(count)") {
            case .joined: read.append("joined")
            case .snapshot: read.append("snapshot")
            case .pong(_, _, let id): read.append("pong \(Self.text(id))")
            case .error(let error, let id): read.append("\(error.code.rawValue) \(Self.text(id))")
            case .ping, .event, .roundTrips, .chat: continue
            default: read.append("other: \(client.lastLine ?? "")")
            }
        }
        return read
    }

    static func text(_ id: JSONValue?) -> String {
        switch id {
        case .string(let text): text
        case .int(let number): "\(number)"
        default: "-"
        }
    }

    @Test func aJoinSnapshotAndPingWrittenTogetherAreAnsweredInOrder() throws {
        let gate = StoreGate()
        let server = try GatedServer(gate: gate)
        defer { gate.open(); server.stop() }
        gate.close()
        let cat = try greeted(server)
        sendTogether(cat, [catsJoin(), ClientRequest(id: "s", .snapshot), ClientRequest(id: "p", .ping(time: 7))])
        #expect(gate.awaitHeld(), "cat's lookup hangs in the store")

        gate.open()
        #expect(try answers(cat, count: 4) == ["joined", "snapshot", "snapshot", "pong p"])
        #expect(cat.view?.player(.first)?.name == "cat")
    }

    @Test func atMostThirtyTwoRequestsWaitBehindAJoinTheRestAreRefusedAtOnce() throws {
        let gate = StoreGate()
        let server = try GatedServer(gate: gate)
        defer { gate.open(); server.stop() }
        gate.close()
        let cat = try greeted(server)
        let bound = HeldRequests.bound
        let pings = (0...bound).map { ClientRequest(id: .int(Int64($0)), .ping(time: 7)) }
        sendTogether(cat, [catsJoin()] + pings)
        #expect(gate.awaitHeld())
        // The one past the bound is answered while the join still waits.
        #expect(try answers(cat, count: 1) == ["rate_limited \(bound)"])

        gate.open()
        let expected = ["joined", "snapshot"] + (0..<bound).map { "pong \($0)" }
        #expect(try answers(cat, count: expected.count) == expected)
    }

    @Test func aRefusedJoinIsAnsweredFirstThenTheRetryWrittenBehindIt() throws {
        let gate = StoreGate()
        let server = try GatedServer(gate: gate)
        defer { gate.open(); server.stop() }
        // Another account owns the name "cat".
        let owner = try TestClient.joined(port: server.port, name: "cat", key: AccountsEdgeTests.annKey, match: "x")

        gate.close()
        let cat = try greeted(server)
        // Behind the join that will be refused: the client's retry under another name, and a ping.
        var retry = JoinRequest(name: "kit", match: "b")
        retry.account = Self.catKey
        sendTogether(cat, [catsJoin(), ClientRequest(id: "again", .join(retry)), ClientRequest(id: "p", .ping(time: 7))])
        #expect(gate.awaitHeld())

        gate.open()
        // The refusal looks a free name up off the loop too; the retry waits behind that as well.
        #expect(try answers(cat, count: 4) == ["name_taken j", "joined", "snapshot", "pong p"])
        #expect(cat.view?.player(.first)?.name == "kit")
        withExtendedLifetime(owner) {}
    }

    @Test func aConnectionClosedWhileItsRequestsWaitHasThemDropped() throws {
        let gate = StoreGate()
        let server = try GatedServer(gate: gate)
        defer { gate.open(); server.stop() }
        let ann = try TestClient.joined(port: server.port, name: "ann", key: nil)
        let bob = try TestClient.joined(port: server.port, name: "bob", key: nil)
        try ann.awaitSeq(bob.view!.seq)
        let annToken = try #require(ann.token)
        ann.hangUp()
        _ = try bob.awaitEvent("ann away") { if case .presence(.first, false, _) = $0 { true } else { false } }

        gate.close()
        let cat = try greeted(server)
        // Behind cat's join waits a resume of ann's seat, which needs no store: were it answered
        // for a closed connection, ann's seat would come back with nobody on it.
        let resume = JoinRequest(name: "ann", match: "m", token: annToken)
        sendTogether(cat, [catsJoin(), ClientRequest(id: "resume", .join(resume))])
        #expect(gate.awaitHeld())
        cat.hangUp()
        // A round trip after the hang-up: the server has read the end of cat's stream by its pong.
        let other = try greeted(server)
        other.send(.ping(time: 7))
        _ = try other.waitFor("pong") { if case .pong = $0 { true } else { nil } }

        gate.open()
        // Dan's lookup follows cat's through the one store worker: once dan is seated, cat's answer came.
        let dan = try TestClient.joined(port: server.port, name: "dan", key: nil, match: "b")
        #expect(dan.view?.players.map(\.name) == ["dan"])
        bob.send(.ping(time: 7), id: "barrier")
        _ = try bob.waitFor("pong") { if case .pong = $0 { true } else { nil } }
        #expect(!bob.received.contains { if case .event(let event) = $0, case .presence(.first, true, _) = event.body { true } else { false } })
    }
}
