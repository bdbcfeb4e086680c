import SetNet
import SetRules
import SetServer
import SetWire
import Testing

@Suite(.serialized) struct ServerDuelTests {
    @Test func twoPlayersPlayAWholeSeededDuelAndAMidGameSpectatorEndsInTheSameState() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann")
        let bob = try TestClient.joined(server, name: "bob")
        #expect(bob.view?.phase == .playing)
        try ann.awaitSeq(bob.view!.seq)
        #expect(ann.view == bob.view)
        #expect(ann.view?.table.count == 12 && ann.view?.phase == .playing)
        #expect(ann.view?.seed == nil)

        var spectator: TestClient?
        var turn = 0
        while ann.view?.phase == .playing {
            let (actor, other) = turn % 2 == 0 ? (ann, bob) : (bob, ann)
            turn += 1
            try playScriptedTurn(actor, other)
            if turn == 6 { spectator = try TestClient.joined(server, name: "eve", role: .spectator) }
            #expect(turn < 200, "the duel did not end")
            if turn >= 200 { break }
        }
        let finalSeq = ann.view!.seq
        try bob.awaitSeq(finalSeq)
        let watcher = try #require(spectator)
        try watcher.awaitSeq(finalSeq)
        let final = try #require(ann.view)
        #expect(final.phase == .over)
        #expect(final.result?.reason == .noSetsLeft)
        #expect(bob.view == final)
        #expect(watcher.view?.asPlayerSees == final)
        // The last table is no longer live once the game is over: only now do spectators hear of it.
        let lastCount = try watcher.waitFor("the last table's count") { if case .insight(_, finalSeq, let sets) = $0 { sets } else { nil } }
        #expect(lastCount == 0)
        let seed = try #require(final.seed)
        #expect(seed == 1)
        #expect(SeedCommitment.verify(seed: seed, against: try #require(final.commitment)))
        #expect(final.scores.reduce(0, +) > 0)
    }

    @Test func whenTwoClaimsRaceExactlyOneWinsAndTheOtherIsToldByWhomAndByHowMuch() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann")
        let bob = try TestClient.joined(server, name: "bob")
        _ = try ann.awaitEvent("game start") { if case .gameStarted = $0 { true } else { false } }
        ann.send(.act(.claim, seat: nil), id: "a")
        _ = try ann.waitFor("ack") { if case .ack = $0 { true } else { nil } }
        server.advance(by: 137)
        bob.send(.act(.claim, seat: nil), id: "b")
        let refusal = try bob.waitFor("refusal") { if case .error(let error, let id) = $0 { (error, id) } else { nil } }
        #expect(refusal.0.code == .claimTaken)
        #expect(refusal.1 == "b")
        #expect(refusal.0.details["holder"] == .int(0))
        #expect(refusal.0.details["leadMs"] == .int(137))
        #expect(refusal.0.message == "ann called \"Set!\" first, by 137 ms.")
        #expect(bob.view?.window?.holder == .first)
    }
}
