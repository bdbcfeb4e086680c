import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Issue 11 #4 and issue 16 #8: spectators coming and going in bulk cost the players and the disk
/// a bounded number of events, and every event costs each watcher one line.
@Suite(.serialized) struct SpectatorBurstTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-watchers") }

    func spectatorEvents(_ client: TestClient) -> [Int] {
        client.received.compactMap { if case .event(let event) = $0, case .spectators(let count) = event.body { count } else { nil } }
    }

    /// Reads everything already sent to `client`, up to a pong it asks for.
    func settle(_ client: TestClient, mark: Int64) throws {
        client.send(.ping(time: mark))
        _ = try client.waitFor("pong \(mark)") { if case .pong(_, mark, _) = $0 { true } else { nil } }
    }

    @Test func aBurstOfSpectatorsIsAnnouncedAsOneCountPerInterval() throws {
        let data = temporaryDirectory()
        let server = try TestServer {
            $0.dataDirectory = data
            $0.spectators.announceMs = 1_000
            $0.perAddress.connections = 1_000
        }
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server, match: "show")
        let seqBefore = ann.view!.seq

        var watchers: [TestClient] = []
        for index in 0..<400 { watchers.append(try TestClient.joined(server, name: "w\(index)", match: "show", role: .spectator)) }
        for _ in 0..<150 { watchers.removeLast() }  // 150 leave again
        try settle(ann, mark: 1)
        try settle(bob, mark: 1)
        // 550 comings and goings within one interval: the players heard one count, the first.
        #expect(spectatorEvents(ann) == [1] && spectatorEvents(bob) == [1])

        server.advance(by: 1_000)
        _ = try ann.awaitEvent("the coalesced count") { $0 == .spectators(count: 250) }
        try settle(bob, mark: 2)
        #expect(spectatorEvents(bob) == [1, 250])
        #expect(ann.view!.seq == seqBefore + 2, "two numbered events for 550 changes")

        // Every watcher gets the next event once: the cost of an event is one line per watcher.
        ann.send(.act(.claim, seat: nil))
        let opened = try ann.awaitEvent("claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        for watcher in watchers { try watcher.awaitSeq(opened.seq) }
        #expect(watchers.allSatisfy { $0.view?.seq == opened.seq && $0.view?.spectators == 250 })

        let journal = try String(contentsOfFile: data + "/show.jsonl", encoding: .utf8)
        #expect(journal.components(separatedBy: "\"type\":\"watchers\"").count - 1 == 2, "the disk keeps two counts, not 550")
    }

    @Test func aCountThatComesBackToWhatWasAnnouncedIsNotAnnouncedAgain() throws {
        let server = try TestServer { $0.spectators.announceMs = 1_000 }
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann", match: "show")
        let eve = try TestClient.joined(server, name: "eve", match: "show", role: .spectator)
        for _ in 0..<50 {
            var passing: TestClient? = try TestClient.joined(server, name: "zed", match: "show", role: .spectator)
            _ = passing
            passing = nil
        }
        try settle(ann, mark: 1)
        server.advance(by: 5_000)
        try settle(ann, mark: 2)
        #expect(spectatorEvents(ann) == [1])
        withExtendedLifetime(eve) {}
    }

    @Test func aReplayedJournalWithCoalescedCountsRestoresTheSameNumbering() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try TestServer {
            $0.dataDirectory = data
            $0.spectators.announceMs = 1_000
        }
        let ann = try TestClient.joined(first!, name: "ann", match: "r")
        let bob = try TestClient.joined(first!, name: "bob", match: "r")
        var crowd: [TestClient] = []
        for index in 0..<20 { crowd.append(try TestClient.joined(first!, name: "c\(index)", match: "r", role: .spectator)) }
        first!.advance(by: 1_000)
        _ = try bob.awaitEvent("count") { $0 == .spectators(count: 20) }
        let seq = bob.view!.seq
        try settle(ann, mark: 1)
        crowd.removeAll()
        first!.stop()
        first = nil
        let second = try TestServer { $0.dataDirectory = data }
        defer { second.stop() }
        let watcher = try TestClient.joined(second, name: "z", match: "r", role: .spectator)
        // Back: the two players' aways (and whatever the restart numbered) follow the same count.
        #expect(watcher.view!.seq >= seq)
        #expect(!second.logLines.all.contains { $0.contains("damaged") })
    }

    /// A crowd (256 watchers or more) is written in rounds, so its events may wait; a spectator's
    /// own answer must not overtake them, or it would see a snapshot followed by older events.
    @Test func aSpectatorsAnswerNeverOvertakesTheEventsWaitingForIt() throws {
        let server = try TestServer {
            $0.perAddress.connections = 1_000
            $0.spectators.crowdRoundMs = 250
        }
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann", match: "show")
        let bob = try TestClient.joined(server, name: "bob", match: "show")
        var crowd: [TestClient] = []
        for index in 0..<256 { crowd.append(try TestClient.joined(server, name: "w\(index)", match: "show", role: .spectator)) }
        let eve = crowd[0]
        // The 256th join made a crowd, whose first round went out at once. With the clock
        // standing still, the claim waits for a round that does not come.
        ann.send(.act(.claim, seat: nil))
        let opened = try ann.awaitEvent("claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        eve.send(.snapshot)
        let snapshot = try eve.waitFor("snapshot") { if case .snapshot(let view) = $0 { view } else { nil } }
        #expect(snapshot.seq == opened.seq)
        let events = eve.received.compactMap { if case .event(let event) = $0 { event.seq } else { nil } }
        #expect(events.last == opened.seq, "the waiting event came first")
        withExtendedLifetime((bob, crowd)) {}
    }
}

