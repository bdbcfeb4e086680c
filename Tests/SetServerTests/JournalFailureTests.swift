import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// A journal that cannot be written (a full disk, injected here) never lets the server acknowledge
/// or broadcast what it could not write: the match stands still, everyone in it is told once with
/// a code, the log says so once, and the match goes on by itself when writes work again.
@Suite(.serialized) struct JournalFailureTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-diskfull") }

    func reply(to id: String, from client: TestClient) throws -> ServerMessage {
        try client.waitFor("the reply to \(id)") { message -> ServerMessage? in
            switch message {
            case .ack(.string(id), _), .error(_, .string(id)): message
            default: nil
            }
        }
    }

    @Test func aFailingJournalPausesTheMatchAndNothingUnwrittenIsAcknowledged() throws {
        let data = temporaryDirectory()
        let faults = JournalFaults()
        var server: TestServer? = try TestServer {
            $0.dataDirectory = data
            $0.journalFaults = faults
        }
        let (ann, bob) = try TestClient.duel(server!, match: "disk")
        let before = try #require(bob.view)

        faults.failing = true
        ann.send(.act(.claim, seat: nil), id: "c1")
        guard case .error(let refusal, _) = try reply(to: "c1", from: ann) else {
            Issue.record("an unjournaled claim was acknowledged")
            return
        }
        #expect(refusal.code == .journalFailed && !refusal.fatal)
        #expect(try bob.awaitError(.journalFailed).fatal == false)
        // The notice is exactly the line Protocol.md shows.
        #expect(ProtocolDocumentTests.blocks("server").joined().contains(try #require(bob.lastLine)))
        for (client, id) in [(bob, "d1"), (ann, "r1")] {
            client.send(.act(id == "d1" ? .deal : .resign, seat: nil), id: .string(id))
            guard case .error(let error, _) = try reply(to: id, from: client) else {
                Issue.record("\(id) was acknowledged while the journal failed")
                return
            }
            #expect(error.code == .journalFailed)
        }
        // A spectator may still come: that is journaled later, after the stall's start.
        let eve = try TestClient.joined(server!, name: "eve", match: "disk", role: .spectator)
        server!.advance(by: 30_000)  // nothing runs out while the match stands still
        for client in [ann, bob] {
            client.send(.ping(time: 9))
            _ = try client.waitFor("pong") { if case .pong(_, 9, _) = $0 { true } else { nil } }
        }
        #expect(ann.view?.window == nil && ann.view?.scores == before.scores && ann.view?.phase == .playing)
        #expect(!ann.received.contains { if case .event(let event) = $0 { event.seq > before.seq && event.body != .spectators(count: 1) } else { false } })

        faults.failing = false
        server!.advance(by: 1_000)  // the next sweep writes what waited
        for client in [ann, bob, eve] { _ = try client.awaitEvent("resumed") { if case .resumed = $0 { true } else { false } } }
        ann.send(.act(.claim, seat: nil), id: "c2")
        guard case .ack = try reply(to: "c2", from: ann) else {
            Issue.record("the match did not go on once writes worked")
            return
        }
        try bob.awaitSeq(ann.view!.seq)
        let lines = server!.logLines.all
        #expect(lines.filter { $0.contains("cannot be written") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.contains("is written again") }.count == 1, "\(lines)")
        let last = try #require(bob.view)
        let tokens = (try #require(ann.token), try #require(bob.token))
        server?.stop()
        server = nil

        // Everything acknowledged is on disk, and the journal, stall and all, replays cleanly.
        let again = try TestServer { $0.dataDirectory = data }
        defer { again.stop() }
        #expect(!again.logLines.all.contains { $0.contains("damaged") }, "\(again.logLines.all)")
        let annBack = try TestClient.joined(again, name: "ann", match: "disk", token: tokens.0)
        let bobBack = try TestClient.joined(again, name: "bob", match: "disk", token: tokens.1)
        try annBack.awaitSeq(bobBack.view!.seq)
        #expect(bobBack.view?.window?.holder == .first && bobBack.view?.window?.kind == .claim)
        #expect(bobBack.view?.table == last.table && bobBack.view?.scores == last.scores)
    }

    /// Issue 32: a claim held for a far rival (lag compensation) whose deciding cannot be written
    /// was told only the notice to everyone, never its own answer. It is answered as the same
    /// claim without a hold is: `journal_failed`, with its id.
    @Test func aHeldClaimWhoseDecidingCannotBeWrittenIsAnsweredWithItsId() throws {
        let faults = JournalFaults()
        let server = try TestServer {
            $0.dataDirectory = temporaryDirectory()
            $0.journalFaults = faults
            $0.lagCompensationMs = 200
        }
        defer { server.stop() }
        let fair = FairClaimServerTests()
        let (ann, bob) = try fair.measuredDuel(server)
        faults.failing = true
        ann.send(.act(.claim, seat: nil), id: "c1")
        try fair.read(ann)  // held for bob, 160 ms away: nothing is written yet
        server.advance(by: 160)
        guard case .error(let refusal, _) = try reply(to: "c1", from: ann) else {
            Issue.record("an unjournaled held claim was acknowledged")
            return
        }
        #expect(refusal.code == .journalFailed && !refusal.fatal)
        #expect(try bob.awaitError(.journalFailed).fatal == false)
        #expect(ann.view?.window == nil)
    }

    /// A match cannot even start without its journal: the join that deals it is refused with the
    /// same code. (A duel still waiting holds nothing worth a file yet, so it writes nothing: issue 11.)
    @Test func aNewMatchWhoseJournalCannotBeStartedIsRefused() throws {
        let faults = JournalFaults()
        let server = try TestServer {
            $0.dataDirectory = temporaryDirectory()
            $0.journalFaults = faults
        }
        defer { server.stop() }
        faults.failing = true
        let ann = try TestClient.joined(server, name: "ann", match: "nope")
        let bob = try TestClient(port: server.port)
        _ = try bob.next("welcome")
        bob.send(.join(JoinRequest(name: "bob", match: "nope")))
        #expect(try bob.awaitError(.journalFailed).fatal == false)
        #expect(ann.view?.phase == .waiting)
        faults.failing = false
        server.advance(by: 1_000)  // the server tries the journal again once a second
        ann.send(.ping(time: 7))  // answered in the batch whose end runs that try
        _ = try ann.waitFor("pong") { if case .pong(_, 7, _) = $0 { true } else { nil } }
        bob.send(.join(JoinRequest(name: "bob", match: "nope")))
        _ = try bob.waitFor("joined") { if case .joined = $0 { true } else { nil } }
    }

    /// While stalled, players still come and go: those changes are written after the stall's
    /// start once writes work, so a replay numbers every event as the live match did. A server
    /// stopped while stalled comes back as it was before the stall.
    @Test func whatHappensDuringAStallIsJournaledInOrderOnceWritesWork() throws {
        for stopsWhileStalled in [false, true] {
            let data = temporaryDirectory()
            let faults = JournalFaults()
            var server: TestServer? = try TestServer {
                $0.dataDirectory = data
                $0.journalFaults = faults
            }
            var ann = try TestClient.joined(server!, name: "ann", match: "gap")
            let bob = try TestClient.joined(server!, name: "bob", match: "gap")
            try ann.awaitSeq(bob.view!.seq)
            let beforeStall = try #require(bob.view)
            let token = try #require(ann.token)
            faults.failing = true
            bob.send(.act(.claim, seat: nil))
            _ = try bob.awaitError(.journalFailed)
            ann = try TestClient(port: server!.port)  // ann drops during the stall...
            _ = try bob.awaitEvent("ann away") { if case .presence(.first, false, _) = $0 { true } else { false } }
            server!.advance(by: 3_000)
            ann = try TestClient.joined(server!, name: "ann", match: "gap", token: token)  // ...and comes back
            _ = try bob.awaitEvent("ann back") { if case .presence(.first, true, _) = $0 { true } else { false } }
            if !stopsWhileStalled {
                faults.failing = false
                server!.advance(by: 1_000)
                _ = try bob.awaitEvent("resumed") { if case .resumed = $0 { true } else { false } }
                bob.send(.act(.claim, seat: nil), id: "c")
                guard case .ack = try reply(to: "c", from: bob) else {
                    Issue.record("no ack once writes worked")
                    return
                }
            }
            try ann.awaitSeq(bob.view!.seq)
            let last = try #require(bob.view)
            let tokens = (token, try #require(bob.token))
            server?.stop()
            server = nil

            let again = try TestServer { $0.dataDirectory = data }
            defer { again.stop() }
            #expect(!again.logLines.all.contains { $0.contains("damaged") }, "\(again.logLines.all)")
            let annBack = try TestClient.joined(again, name: "ann", match: "gap", token: tokens.0)
            let bobBack = try TestClient.joined(again, name: "bob", match: "gap", token: tokens.1)
            try annBack.awaitSeq(bobBack.view!.seq)
            let restored = try #require(bobBack.view)
            if stopsWhileStalled {
                #expect(restored.window == nil && restored.scores == beforeStall.scores && restored.table == beforeStall.table)
            } else {
                #expect(restored.window?.holder == .second && restored.table == last.table)
                #expect(restored.seq >= last.seq, "the restored match numbers at least every event it sent")
            }
        }
    }
}
