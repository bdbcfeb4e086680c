@testable import SetServer
import SetRules
import SetWire
import Testing

/// What the README promises a player who drops out: a dealt match waits for them, and while it
/// waits its timers stand still, for the player who stayed as much as for the one who left.
@Suite(.serialized) struct AwayPromiseTests {
    /// A player from `address` in match "m", by a new seat or by `token`.
    static func seated(_ server: TestServer, _ name: String, from address: String, token: String? = nil) throws -> TestClient {
        let client = try TestClient.greeted(server, from: address)
        client.send(.join(JoinRequest(name: name, match: "m", token: token)))
        _ = try client.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        return client
    }

    /// Both players of a dealt duel, from two addresses, drop before either moves (a blip on the
    /// server's side): the match waits by its seat-wait rules, and both take their seats back
    /// with their tokens. (One address dealing itself a duel is freed: `AbandonedDuelTests`.)
    @Test func aDealtDuelWaitsForBothPlayersWhoDropAtOnce() throws {
        let server = try TestServer()
        defer { server.stop() }
        let ann = try Self.seated(server, "ann", from: "127.0.0.21")
        let bob = try Self.seated(server, "bob", from: "127.0.0.22")
        try ann.awaitSeq(bob.view!.seq)
        let tokens = (try #require(ann.token), try #require(bob.token))
        let dealt = try #require(ann.view?.table)
        // A spectator sees both leave: proof that the server has taken in both hang-ups.
        let eve = try TestClient.joined(server, name: "eve", role: .spectator)
        ann.hangUp()
        bob.hangUp()
        for seat in [Seat.first, .second] {
            _ = try eve.awaitEvent("seat \(seat.rawValue) away") { $0.isPresence(of: seat, present: false) }
        }
        let annAgain = try Self.seated(server, "ann", from: "127.0.0.21", token: tokens.0)
        let bobAgain = try Self.seated(server, "bob", from: "127.0.0.22", token: tokens.1)
        for client in [annAgain, bobAgain] {
            #expect(client.received.contains { if case .joined(_, _, _, _, _, true, _) = $0 { true } else { false } }, "resumed")
            #expect(client.view?.phase == .playing && client.view?.table == dealt)
        }
        #expect(annAgain.token == tokens.0 && bobAgain.token == tokens.1)
    }

    /// Ann leaves while holding a claim: bob's second chance opens and the match pauses. Bob
    /// resigns long after that window's unshifted deadline: the window closes because the match
    /// ended, not as `expired`, since no time passed for it during the pause.
    @Test func aResignationDuringAPauseClosesTheWindowAsMatchEnded() {
        var host = MatchHostTests.duel()
        _ = host.handle(.act(.claim, by: .first), at: MatchHostTests.at(3_000), seeds: MatchHostTests.noDeal)
        _ = host.handle(.leave(1), at: MatchHostTests.at(3_500), seeds: MatchHostTests.noDeal)
        guard let second = host.match?.window, second.kind == .secondChance else {
            return #expect(Bool(false), "ann's leaving passed her claim to bob")
        }
        let late = second.deadline.adding(5_000)
        #expect(late < host.forfeitDeadline!, "the resignation comes before anyone forfeits")
        let resigned = host.handle(.act(.resign, by: .second), at: late, seeds: MatchHostTests.noDeal)
        let ends = resigned.messages.compactMap { message -> WindowEnd? in
            if case .event(let event, _) = message, case .rules(.windowClosed(_, let end)) = event.body { end } else { nil }
        }
        #expect(ends == [.matchEnded])
        #expect(host.match?.result?.reason == .resigned && host.match?.result?.by == .second)
    }

    /// The same over sockets: the window bob sees close ends as `match_ended`.
    @Test func overTheWireAResignationDuringAPauseEndsTheWindowWithTheMatch() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server)
        ann.send(.act(.claim, seat: nil))
        _ = try bob.awaitEvent("ann's claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        ann.hangUp()
        _ = try bob.awaitEvent("ann away") { $0.isPresence(of: .first, present: false) }
        let window = try #require(bob.view?.window)
        #expect(window.kind == .secondChance && window.holder == .second)
        server.advance(by: window.deadline.milliseconds(since: window.opened) + 5_000)
        bob.send(.act(.resign, seat: nil))
        let closed = try bob.awaitEvent("window closed") { if case .rules(.windowClosed) = $0 { true } else { false } }
        #expect(closed.body == .rules(.windowClosed(window, .matchEnded)))
        _ = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
    }
}
