import SetNet
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

/// A fast client's claim and its three picks, sent in one write, are performed in order and
/// answered each with its own id, and their journal records go to the disk in one write; when
/// that write fails, each is refused and none of them happened (Protocol.md, "When the journal
/// cannot be written").
@Suite(.serialized) struct ActionsTogetherServerTests {
    /// Ann's claim and picks of the first set on her table, with ids c, p0, p1, p2, in one write.
    func sendClaimAndPicks(_ ann: TestClient) throws -> [String] {
        let view = try #require(ann.view)
        let trio = try #require(SetLogic.firstSet(in: view.table))
        let seen = view.seq
        let requests = [ClientRequest(id: "c", .act(.claim, seat: nil, seen: seen))]
            + trio.enumerated().map { ClientRequest(id: .string("p\($0.offset)"), .act(.select($0.element), seat: nil)) }
        ann.sendRaw(requests.flatMap(ClientMessageEncoder.line))
        return ["c", "p0", "p1", "p2"]
    }

    /// A server on `data` whose journals' disk the test fills (`faults`), with ann and bob dealt a duel.
    func duel(on data: String) throws -> (server: TestServer, faults: JournalFaults, ann: TestClient, bob: TestClient) {
        let faults = JournalFaults()
        let server = try TestServer {
            $0.dataDirectory = data
            $0.journalFaults = faults
        }
        let (ann, bob) = try TestClient.duel(server, match: "together")
        return (server, faults, ann, bob)
    }

    /// The answers to `ids`, in the order they came: "ack" or the error's code.
    func answers(to ids: [String], from client: TestClient) throws -> [String] {
        var answered: [String: String] = [:], order: [String] = []
        while answered.count < ids.count {
            switch try client.next("answers to \(ids)") {
            case .ack(.string(let id), _) where ids.contains(id):
                answered[id] = "ack"
                order.append(id)
            case .error(let error, .string(let id)) where ids.contains(id):
                answered[id] = error.code.rawValue
                order.append(id)
            default: continue
            }
        }
        #expect(order == ids, "answered in the order asked")
        return ids.map { answered[$0]! }
    }

    @Test func aClaimAndItsPicksSentTogetherAreWrittenInOneAppend() throws {
        let (server, faults, ann, bob) = try duel(on: temporaryFolder("setgame-together"))
        defer { server.stop() }
        let appends = faults.appends
        let ids = try sendClaimAndPicks(ann)
        #expect(try answers(to: ids, from: ann) == ["ack", "ack", "ack", "ack"])
        #expect(faults.appends == appends + 1, "one write for the four actions' records")
        try bob.awaitSeq(try #require(ann.view).seq)
        #expect((bob.view?.scores.first ?? 0) > 0, "bob saw ann take the set")
    }

    @Test func aClaimAndItsPicksWhoseWriteFailsAreEachRefusedAndNoneHappened() throws {
        let data = temporaryFolder("setgame-together")
        let (started, faults, ann, bob) = try duel(on: data)
        var server: TestServer? = started
        let before = try #require(bob.view)
        faults.failing = true
        let ids = try sendClaimAndPicks(ann)
        #expect(try answers(to: ids, from: ann) == Array(repeating: ErrorCode.journalFailed.rawValue, count: 4))
        #expect(try bob.awaitError(.journalFailed).fatal == false)

        faults.failing = false
        server!.advance(by: 1_000)  // the next sweep writes the stall, and the match goes on
        for client in [ann, bob] { _ = try client.awaitEvent("resumed") { if case .resumed = $0 { true } else { false } } }
        #expect(bob.view?.scores == before.scores && bob.view?.table == before.table && bob.view?.window == nil)
        let tokens = (try #require(ann.token), try #require(bob.token))
        server?.stop()
        server = nil

        // What the journal holds replays to the same table: none of the four is in it.
        let again = try TestServer { $0.dataDirectory = data }
        defer { again.stop() }
        let annBack = try TestClient.joined(again, name: "ann", match: "together", token: tokens.0)
        _ = try TestClient.joined(again, name: "bob", match: "together", token: tokens.1)
        #expect(annBack.view?.scores == before.scores && annBack.view?.table == before.table && annBack.view?.window == nil)
    }
}
