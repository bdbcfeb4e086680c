import SetNet
import SetRules
import SetServer
import SetWire
import Testing

@Suite(.serialized) struct ServerLobbyTests {
    @Test func tenMatchesAtOnceStayIndependent() throws {
        let server = try TestServer()
        defer { server.stop() }
        let pairs = try (0..<10).map { index in
            (try TestClient.joined(server, name: "a\(index)", match: "match-\(index)"),
             try TestClient.joined(server, name: "b\(index)", match: "match-\(index)"))
        }
        for (a, b) in pairs { try a.awaitSeq(b.view!.seq) }
        // Interleaved: every match takes a set in turn, five rounds, while the others do too.
        for round in 0..<5 {
            for (index, (a, b)) in pairs.enumerated() {
                let actor = (round + index) % 2 == 0 ? a : b
                if let set = SetLogic.firstSet(in: actor.view!.table) {
                    actor.send(.act(.claim, seat: nil))
                    for card in set { actor.send(.act(.select(card), seat: nil)) }
                } else {
                    actor.send(.act(.deal, seat: nil))
                }
            }
            for (a, b) in pairs {
                for client in [a, b] {
                    client.send(.ping(time: nil))
                    _ = try client.waitFor("pong") { if case .pong = $0 { true } else { nil } }
                }
                try a.awaitSeq(b.view!.seq)
                try b.awaitSeq(a.view!.seq)
                #expect(a.view == b.view)
            }
        }
        for (index, (a, b)) in pairs.enumerated() {
            for client in [a, b] {
                for case .event(let event) in client.received { #expect(event.match == "match-\(index)") }
            }
            #expect(a.view!.scores.reduce(0, +) != 0)
        }
        // Each match dealt from its own seed: no two tables are the same.
        #expect(Set(pairs.map { $0.0.view!.commitment! }).count == 10)
    }

    @Test func aSoloPlayerPlaysAlone() throws {
        let server = try TestServer()
        defer { server.stop() }
        let solo = try TestClient.joined(server, name: "sol", match: nil, mode: .solo)
        #expect(solo.view?.phase == .playing)
        #expect(solo.view?.mode == .solo)
        #expect(solo.view?.match.hasPrefix("solo-") == true)
        let set = try #require(SetLogic.firstSet(in: solo.view!.table))
        for card in set { solo.send(.act(.select(card), seat: nil)) }
        _ = try solo.awaitEvent("found") { if case .rules(.setTaken(.first, _, 30, 30)) = $0 { true } else { false } }
        #expect(solo.view?.shown == Match.ShownTrio(cards: set, isSet: true))
        solo.send(.act(.deal, seat: nil))
        _ = try solo.awaitEvent("replaced") { if case .rules(.tableChanged(let removed, _, _, _)) = $0 { removed == set } else { false } }
        #expect(solo.view?.shown == nil)
        solo.send(.act(.claim, seat: nil))
        _ = try solo.awaitError(.notInSolo)
        solo.send(.act(.hint, seat: nil))
        _ = try solo.awaitEvent("hint") { if case .rules(.hintShown) = $0 { true } else { false } }
        solo.send(.act(.rematch, seat: nil))
        let fresh = try solo.awaitEvent("new game") { if case .gameStarted(let start) = $0 { start.game == 2 } else { false } }
        #expect(solo.view?.scores == [0])
        #expect(fresh.seq == solo.view?.seq)
    }

    @Test func playersWhoNameNoMatchArePairedTwoByTwo() throws {
        let server = try TestServer()
        defer { server.stop() }
        let first = try TestClient.joined(server, name: "p1", match: nil)
        let second = try TestClient.joined(server, name: "p2", match: nil)
        let third = try TestClient.joined(server, name: "p3", match: nil)
        #expect(first.view?.match == second.view?.match)
        #expect(second.view?.phase == .playing)
        #expect(third.view?.match != first.view?.match)
        #expect(third.view?.phase == .waiting)
    }

    @Test func theListShowsEveryLiveMatch() throws {
        let server = try TestServer()
        defer { server.stop() }
        // Held to the end: a client that goes away closes its socket.
        let ann = try TestClient.joined(server, name: "ann", match: "alpha")
        let bob = try TestClient.joined(server, name: "bob", match: "alpha")
        let cy = try TestClient.joined(server, name: "cy", match: "beta", mode: .solo)
        let eve = try TestClient.joined(server, name: "eve", match: "alpha", role: .spectator)
        defer { _ = (ann, cy, eve) }
        bob.send(.list(), id: 3)
        let (listings, id) = try bob.waitFor("list") { if case .matches(let list, _, let id) = $0 { (list, id) } else { nil } }
        #expect(id == 3)
        #expect(listings.map(\.name) == ["alpha", "beta"])
        #expect(listings[0].players.map(\.name) == ["ann", "bob"])
        #expect(listings[0].spectators == 1)
        #expect(listings[0].phase == .playing)
        #expect(listings[1].mode == .solo)
    }

    @Test func aRematchStartsWhenBothAskAndDealsANewSeed() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server)
        let firstCommitment = ann.view?.commitment
        ann.send(.act(.resign, seat: nil))
        let over = try bob.awaitEvent("over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(let result, let seed, _) = over.body else { return }
        #expect(result.winner == .second && result.reason == .resigned)
        #expect(SeedCommitment.verify(seed: try #require(seed), against: try #require(firstCommitment)))
        bob.send(.act(.rematch, seat: nil))
        _ = try ann.awaitEvent("asked") { $0 == .rules(.rematchRequested(seat: .second)) }
        ann.send(.act(.rematch, seat: nil))
        let started = try bob.awaitEvent("game 2") { if case .gameStarted(let start) = $0 { start.game == 2 } else { false } }
        try ann.awaitSeq(started.seq)
        #expect(ann.view?.phase == .playing && ann.view?.seed == nil)
        #expect(ann.view?.commitment != firstCommitment)
        #expect(ann.view == bob.view)
    }
}
