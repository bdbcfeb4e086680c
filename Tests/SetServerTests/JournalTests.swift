import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Matches survive a restart of the server: journals are replayed, players resume with their
/// tokens and find the match exactly as they left it.
@Suite(.serialized) struct JournalTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-journal") }

    func server(data: String, seed: UInt64 = 5) throws -> TestServer {
        try TestServer {
            $0.dataDirectory = data
            $0.seeds = .counting(from: seed)
        }
    }

    /// What must survive a restart: everything but connection details and numbering.
    func gameState(_ view: MatchView) -> [String] {
        [view.match, "\(view.mode)", "\(view.game)", "\(view.table)", "\(view.deck)", "\(view.scores)",
         "\(view.players.map(\.name))", "\(view.selection)", "\(view.window.map { $0.kind.rawValue + "\($0.holder)" } ?? "-")",
         "\(view.result.map { "\($0)" } ?? "-")", view.commitment ?? "-", "\(view.rules)"]
    }

    func playToTheEnd(_ ann: TestClient, _ bob: TestClient, startingTurn: Int) throws -> MatchView {
        var number = startingTurn
        while ann.view?.phase == .playing && number < 300 {
            // No set and no card left: the game is over, told once its record is committed.
            if let view = ann.view, view.deck == 0, SetLogic.firstSet(in: view.table) == nil {
                _ = try ann.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
                try bob.awaitSeq(ann.view!.seq)
                break
            }
            try number % 2 == 0 ? playScriptedTurn(ann, bob) : playScriptedTurn(bob, ann)
            number += 1
        }
        return try #require(ann.view)
    }

    @Test func aRestartedServerRestoresTheMatchAndItEndsAsAnUninterruptedOneWould() throws {
        // The uninterrupted match, for comparison.
        let reference = try server(data: temporaryDirectory())
        let refAnn = try TestClient.joined(reference, name: "ann", match: "long")
        let refBob = try TestClient.joined(reference, name: "bob", match: "long")
        try refAnn.awaitSeq(refBob.view!.seq)
        let uninterrupted = try playToTheEnd(refAnn, refBob, startingTurn: 0)
        reference.stop()

        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data)
        var ann = try TestClient.joined(first!, name: "ann", match: "long")
        var bob = try TestClient.joined(first!, name: "bob", match: "long")
        try ann.awaitSeq(bob.view!.seq)
        for number in 0..<7 { try number % 2 == 0 ? playScriptedTurn(ann, bob) : playScriptedTurn(bob, ann) }
        let before = try #require(ann.view)
        let tokens = (try #require(ann.token), try #require(bob.token))
        first?.stop()
        first = nil

        let second = try server(data: data, seed: 999)  // a new seed source must not matter
        defer { second.stop() }
        #expect(second.logLines.all.contains { $0.contains("restored long") })
        ann = try TestClient.joined(second, name: "ann", match: "long", token: tokens.0)
        #expect(ann.seat == .first)
        #expect(ann.view?.forfeitAt != nil, "one seat is still away: the match is paused")
        bob = try TestClient.joined(second, name: "bob", match: "long", token: tokens.1)
        #expect(bob.seat == .second)
        try ann.awaitSeq(bob.view!.seq)
        #expect(gameState(try #require(bob.view)) == gameState(before))
        #expect(ann.view?.time ?? 0 >= before.time, "server time never runs backwards")

        let restarted = try playToTheEnd(ann, bob, startingTurn: 7)
        #expect(restarted.phase == .over)
        #expect(gameState(restarted) == gameState(uninterrupted))
        #expect(restarted.seed == uninterrupted.seed)
    }

    @Test func aMatchSurvivesTwoRestartsInARow() throws {
        let data = temporaryDirectory()
        var tokens: (String, String)?
        var before: MatchView?
        for round in 0..<3 {
            let server = try server(data: data)
            let (ann, bob) = try TestClient.duel(server, match: "twice", tokens: tokens)
            if let before { #expect(gameState(ann.view!) == gameState(before), "round \(round)") }
            #expect(!server.logLines.all.contains { $0.contains("damaged") }, "round \(round)")
            for number in 0..<3 { try number % 2 == 0 ? playScriptedTurn(ann, bob) : playScriptedTurn(bob, ann) }
            before = ann.view
            tokens = (try #require(ann.token), try #require(bob.token))
            server.stop()
        }
    }

    @Test func aTornLastLineIsDroppedAndAnOpenWindowSurvives() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data)
        let (ann, bob) = try TestClient.duel(first!, match: "torn")
        ann.send(.act(.claim, seat: nil))
        _ = try bob.awaitEvent("claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        let before = try #require(bob.view)
        let token = try #require(bob.token)
        first?.stop()
        first = nil
        // As if the process died in the middle of writing the next line.
        let path = data + "/torn.jsonl"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"type":"act","seat":0,"action":"sel"#.utf8))
        handle.closeFile()

        let second = try server(data: data)
        defer { second.stop() }
        #expect(second.logLines.all.contains { $0.contains("torn.jsonl: dropped a torn last line") })
        let back = try TestClient.joined(second, name: "bob", match: "torn", token: token)
        #expect(back.view?.window?.kind == .claim && back.view?.window?.holder == .first)
        #expect(gameState(try #require(back.view)) == gameState(before))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "the torn line was cut from the file")
    }

    @Test func aDamagedJournalIsMovedAsideAndTheOthersStillLoad() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data)
        let clients = try ["good", "bad"].flatMap { match in
            [try TestClient.joined(first!, name: "a", match: match), try TestClient.joined(first!, name: "b", match: match)]
        }
        try clients[0].awaitSeq(clients[1].view!.seq)
        first?.stop()
        first = nil
        var lines = try String(contentsOfFile: data + "/bad.jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
        lines.insert("{\"type\":\"act\",\"seat\":7}", at: 2)
        try (lines.joined(separator: "\n") + "\n").write(toFile: data + "/bad.jsonl", atomically: true, encoding: .utf8)

        let second = try server(data: data)
        defer { second.stop() }
        let log = second.logLines.all.joined(separator: "\n")
        #expect(log.contains("journal bad.jsonl is damaged (record 3"))
        #expect(log.contains("restored good"))
        #expect(!FileManager.default.fileExists(atPath: data + "/bad.jsonl"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/damaged").contains { $0.hasPrefix("bad.jsonl.") })
        let probe = try TestClient(port: second.port)
        _ = try probe.next("welcome")
        probe.send(.list())
        let names = try probe.waitFor("list") { if case .matches(let list, _, _) = $0 { list.map(\.name) } else { nil } }
        #expect(names == ["good"])
    }

    @Test func aFinishedMatchGoesToFinishedAndIsNotRestored() throws {
        let data = temporaryDirectory()
        let server = try server(data: data)
        var ann: TestClient? = try TestClient.joined(server, name: "ann", match: "short")
        var bob: TestClient? = try TestClient.joined(server, name: "bob", match: "short")
        try ann!.awaitSeq(bob!.view!.seq)
        ann!.send(.act(.resign, seat: nil))
        _ = try bob!.awaitEvent("over") { if case .gameOver = $0 { true } else { false } }
        ann = nil
        bob = nil
        let probe = try TestClient(port: server.port)
        _ = try probe.next("welcome")
        probe.send(.list())
        _ = try probe.waitFor("an empty list") { if case .matches(let list, _, _) = $0, list.isEmpty { true } else { nil } }
        server.stop()
        let finished = try FileManager.default.contentsOfDirectory(atPath: data + "/finished")
        #expect(finished.count == 1 && finished[0].hasPrefix("short-"))
        #expect(!FileManager.default.fileExists(atPath: data + "/short.jsonl"))
    }

    @Test func aPlayerBackFromAShortDropGetsOnlyWhatItMissed() throws {
        let server = try TestServer()
        defer { server.stop() }
        var ann = try TestClient.joined(server, name: "ann")
        let bob = try TestClient.joined(server, name: "bob")
        try ann.awaitSeq(bob.view!.seq)
        let lastSeen = ann.view!.seq
        let token = try #require(ann.token)
        ann = try TestClient(port: server.port)
        _ = try bob.awaitEvent("ann away") { if case .presence(.first, false, _) = $0 { true } else { false } }
        _ = try ann.next("welcome")
        ann.send(.join(JoinRequest(name: "ann", match: "m", token: token, lastSeq: lastSeen)))
        let joined = try ann.next("joined")
        guard case .joined(_, _, _, .first, _, true, _) = joined else {
            Issue.record("expected a resumed join, got \(joined)")
            return
        }
        let missed = try ann.next("the first missed event")
        guard case .event(let event) = missed else {
            Issue.record("expected an event, not \(missed)")
            return
        }
        #expect(event.seq == lastSeen + 1)
        #expect(event.body == .presence(seat: .first, present: false, forfeitAt: event.time + 120_000))
        ann.send(.ping(time: nil))
        while case let message = try ann.next("the rest"), message != .pong(time: 1_000, clientTime: nil, id: nil) {
            if case .snapshot = message { Issue.record("a snapshot was sent although the events were kept") }
        }
    }
}

/// Seats that drop, come back, forfeit or resign, across restarts, and journals kept apart.
@Suite(.serialized) struct AwayResumeAndForfeitTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-away") }

    @Test func afterARestartAResumeWithLastSeqGetsExactlyTheEventsItMissed() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try TestServer { $0.dataDirectory = data }
        var ann: TestClient? = try TestClient.joined(first!, name: "ann", match: "r")
        let bob = try TestClient.joined(first!, name: "bob", match: "r")
        let eve = try TestClient.joined(first!, name: "eve", match: "r", role: .spectator)
        bob.send(.act(.claim, seat: nil))
        let claimed = try bob.awaitEvent("claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        try ann!.awaitSeq(claimed.seq)
        let annBefore = try #require(ann!.view)
        let token = try #require(ann!.token)
        ann = nil  // ann drops at seq N
        _ = try bob.awaitEvent("ann away") { if case .presence(.first, false, _) = $0 { true } else { false } }
        eve.hangUp()  // a spectator leaves: a numbered event too
        _ = try bob.awaitEvent("eve gone") { if case .spectators(0) = $0 { true } else { false } }
        bob.send(.ping(time: 1))
        _ = try bob.waitFor("pong") { if case .pong = $0 { true } else { nil } }
        first?.stop()
        first = nil

        let second = try TestServer { $0.dataDirectory = data }
        defer { second.stop() }
        let back = try TestClient(port: second.port)
        _ = try back.next("welcome")
        back.send(.join(JoinRequest(name: "ann", match: "r", token: token, lastSeq: annBefore.seq)))
        var view = annBefore
        back.send(.ping(time: 2))
        var sawSnapshot = false
        reading: while true {
            switch try back.next("replies") {
            case .event(let event):
                let previous = view.seq
                let applied = view.apply(event)
                #expect(applied, "event \(event.seq) after \(previous)")
            case .snapshot(let snapshot):
                view = snapshot
                sawSnapshot = true
            case .pong: break reading
            default: continue
            }
        }
        #expect(!sawSnapshot, "every missed event is still kept, so none is replaced by a snapshot")
        back.send(.snapshot)
        let truth = try back.waitFor("truth") { if case .snapshot(let s) = $0 { s } else { nil } }
        var applied = view
        applied.time = truth.time
        #expect(applied == truth)
        #expect(truth.window?.holder == .second)
    }

    @Test func whenBothAreAwayTheSeatAwayLongestForfeits() throws {
        let server = try TestServer { $0.limits.seatWaitMs = 100_000 }
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann")
        var bob: TestClient? = try TestClient.joined(server, name: "bob")
        let eve = try TestClient.joined(server, name: "eve", role: .spectator)
        try eve.awaitSeq(bob!.view!.seq)
        // A move, so the match is worth a seat wait (one nobody moved in is freed once both are gone).
        ann.send(.act(.claim, seat: nil))
        _ = try eve.awaitEvent("claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        bob = nil
        _ = try eve.awaitEvent("bob away") { if case .presence(.second, false, _) = $0 { true } else { false } }
        server.advance(by: 60_000)
        // Eve speaks up, or the next 40 s would make 100 s of silence: the game over is told once
        // its record is committed, off the loop, after the idle sweep of the tick that ends it.
        eve.send(.ping(time: 1))
        _ = try eve.waitFor("pong") { if case .pong(_, 1, _) = $0 { true } else { nil } }
        ann.hangUp()
        _ = try eve.awaitEvent("ann away") { if case .presence(.first, false, _) = $0 { true } else { false } }
        server.advance(by: 40_000)  // bob's 100 s are up; ann has 60 s left
        let over = try eve.awaitEvent("forfeit") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(let result, _, _) = over.body else { return }
        #expect(result.by == .second && result.winner == .first)
    }

    @Test func resigningWhilePausedEndsThePauseAndARematchCanBeAsked() throws {
        let server = try TestServer()
        defer { server.stop() }
        var ann: TestClient? = try TestClient.joined(server, name: "ann")
        let bob = try TestClient.joined(server, name: "bob")
        try bob.awaitSeq(ann!.view!.seq)
        ann = nil
        _ = try bob.awaitEvent("ann away") { if case .presence(.first, false, _) = $0 { true } else { false } }
        bob.send(.act(.resign, seat: nil))
        _ = try bob.awaitEvent("over") { if case .gameOver = $0 { true } else { false } }
        bob.send(.snapshot)
        let snapshot = try bob.waitFor("snapshot") { if case .snapshot(let s) = $0 { s } else { nil } }
        #expect(snapshot.forfeitAt == nil && snapshot.phase == .over)
        var expected = try #require(bob.view)
        expected.time = snapshot.time
        #expect(snapshot == expected)
        bob.send(.act(.rematch, seat: nil))
        _ = try bob.awaitEvent("rematch asked") { $0 == .rules(.rematchRequested(seat: .second)) }
    }

    /// Issue 16 #7 replaced the old behaviour (the duel started paused against the absent ann):
    /// a spectator does not keep a waiting duel alive, and nobody is seated against an absent player.
    @Test func aWaitingDuelWhoseOnlyPlayerLeftIsFreedEvenWithASpectator() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann", match: "w")
        let eve = try TestClient.joined(server, name: "eve", match: "w", role: .spectator)
        #expect(ann.view?.spectators == 0)
        ann.hangUp()
        let told = try eve.awaitError(.noSuchMatch)
        #expect(told.message.contains("ended before it began"))
        let bob = try TestClient.joined(server, name: "bob", match: "w")
        #expect(bob.view?.phase == .waiting)
        #expect(bob.view?.players.map(\.name) == ["bob"])
        eve.send(.join(JoinRequest(role: .spectator, name: "eve", match: "w")), id: 1)
        _ = try eve.waitFor("joined again") { if case .joined(.spectator, "w", _, _, _, _, _) = $0 { true } else { nil } }
    }

    @Test func aClientWhoseReadsEndMidLineIsNotMistakenForASlowDrip() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        _ = try client.next("welcome")
        client.sendRaw(#"{"type":"ping","time":1}"# + "\n" + #"{"type":"pi"#)
        _ = try client.waitFor("pong 1") { if case .pong(_, 1, _) = $0 { true } else { nil } }
        server.advance(by: 6_000)
        client.sendRaw(#"ng","time":2}"# + "\n" + #"{"type":"pi"#)  // completes one line, starts another
        _ = try client.waitFor("pong 2") { if case .pong(_, 2, _) = $0 { true } else { nil } }
        server.advance(by: 6_000)  // 12 s since the first partial line, 6 s since the current one
        client.sendRaw(#"ng","time":3}"# + "\n")
        _ = try client.waitFor("pong 3") { if case .pong(_, 3, _) = $0 { true } else { nil } }
    }

    @Test func theSameMatchNameFinishedTwiceInOneSecondKeepsBothJournals() throws {
        let data = temporaryDirectory()
        var server: TestServer? = try TestServer { $0.dataDirectory = data }
        for _ in 0..<2 {
            // A solo game with a move is worth a journal; it ends, and its player leaves.
            var ann: TestClient? = try TestClient.joined(server!, name: "ann", match: "again", mode: .solo)
            ann!.send(.act(.select(ann!.view!.table[0]), seat: nil))
            _ = try ann!.awaitEvent("a move") { if case .rules(.selectionChanged) = $0 { true } else { false } }
            ann!.send(.act(.resign, seat: nil))
            _ = try ann!.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
            ann = nil
            let probe = try TestClient(port: server!.port)
            _ = try probe.next("welcome")
            probe.send(.list())
            _ = try probe.waitFor("gone") { if case .matches(let list, _, _) = $0, list.isEmpty { true } else { nil } }
        }
        server?.stop()
        server = nil
        let finished = try FileManager.default.contentsOfDirectory(atPath: data + "/finished").filter { $0.hasPrefix("again-") }
        #expect(finished.count == 2)
        let restarted = try TestServer { $0.dataDirectory = data }
        defer { restarted.stop() }
        #expect(!restarted.logLines.all.contains { $0.contains("damaged") })
    }
}
