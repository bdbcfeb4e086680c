import Foundation
import SetNet
import SetRules
import SetServer
import SetWire
import SetTestSupport
import Testing

/// The answers Protocol.md's "Exact answers" gives that its transcript cannot show, each pinned
/// over a real socket: the document is the contract, so what it settles must stay settled.
@Suite(.serialized) struct ExactAnswerTests {
    @Test func aFreshServersClockStartsAtZero() throws {
        var config = ServerConfig()
        config.port = 0
        let server = try RunningServer(config: config)
        defer { server.stop() }
        let port = server.port
        let client = try TestClient(port: port)
        let time = try client.waitFor("welcome") { if case .welcome(_, _, let time, _) = $0 { time } else { nil } }
        // Milliseconds since the server started: small, whatever the machine's uptime.
        #expect(time >= 0 && time < 60_000, "\(time)")
    }

    @Test func matchesWithoutANameAreNumberedAcrossModes() throws {
        let server = try TestServer()
        defer { server.stop() }
        let first = try TestClient.joined(server, name: "sol", match: nil, mode: .solo)
        let second = try TestClient.joined(server, name: "ann", match: nil)
        let third = try TestClient.joined(server, name: "cat", match: nil, mode: .solo)
        #expect([first, second, third].map { $0.view?.match } == ["solo-1", "duel-2", "solo-3"])
    }

    @Test func aSoloMatchMayBeWatched() throws {
        let server = try TestServer()
        defer { server.stop() }
        let sol = try TestClient.joined(server, name: "sol", match: "alone", mode: .solo)
        let eve = try TestClient.joined(server, name: "eve", match: "alone", role: .spectator)
        #expect(eve.view?.mode == .solo && eve.view?.table == sol.view?.table)
        _ = try sol.awaitEvent("eve counted") { $0 == .spectators(count: 1) }
    }

    /// When both seats are away, the second `presence` carries the match's next forfeit: the
    /// first seat's, which comes sooner. When that seat returns, the other's.
    @Test func aSecondPresenceCarriesTheMatchesNextForfeit() throws {
        let server = try TestServer { $0.limits.seatWaitMs = 30_000 }
        defer { server.stop() }
        // From two addresses, so the duel waits although nobody moved (see AwayPromiseTests).
        let ann = try AwayPromiseTests.seated(server, "ann", from: "127.0.0.31")
        let bob = try AwayPromiseTests.seated(server, "bob", from: "127.0.0.32")
        let annToken = try #require(ann.token)
        let eve = try TestClient.joined(server, name: "eve", role: .spectator)
        ann.hangUp()
        let annAway = try eve.awaitEvent("ann away") { $0.isPresence(of: .first, present: false) }
        #expect(annAway.body == .presence(seat: .first, present: false, forfeitAt: 31_000))
        server.advance(by: 10_000)
        bob.hangUp()
        let bobAway = try eve.awaitEvent("bob away") { $0.isPresence(of: .second, present: false) }
        #expect(bobAway.body == .presence(seat: .second, present: false, forfeitAt: 31_000), "ann's forfeit, not bob's 41000")
        server.advance(by: 1_000)
        _ = try AwayPromiseTests.seated(server, "ann", from: "127.0.0.31", token: annToken)
        let annBack = try eve.awaitEvent("ann back") { $0.isPresence(of: .first, present: true) }
        #expect(annBack.body == .presence(seat: .first, present: true, forfeitAt: 41_000))
    }

    /// The events a resume itself causes are kept like any other: 63 events after `lastSeq`
    /// before the rejoin, plus the rejoin's own `presence` and `resumed`, are one too many for
    /// the 64 kept, so a snapshot comes; with 62 the missed events do.
    @Test(arguments: [(62, false), (63, true)])
    func aRejoinsOwnEventsCountTowardTheKept64(before: Int, snapshot: Bool) throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server)
        let token = try #require(ann.token), lastSeq = try #require(ann.view?.seq)
        ann.hangUp()
        try bob.awaitSeq(lastSeq + 1)  // her leaving is the first event she misses
        // Each spectator coming or going is one event. They are kept open till the end: a client
        // closed when released would leave later, an event more.
        var spectators: [TestClient] = []
        while bob.view!.seq < lastSeq + before {
            let eve = try TestClient.joined(server, name: "eve", role: .spectator)
            spectators.append(eve)
            try bob.awaitSeq(eve.view!.seq)
            if bob.view!.seq < lastSeq + before {
                eve.hangUp()
                try bob.awaitSeq(eve.view!.seq + 1)
            }
        }
        #expect(bob.view?.seq == lastSeq + before)
        let back = try TestClient(port: server.port)
        _ = try back.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        back.send(.join(JoinRequest(name: "ann", match: "m", token: token, lastSeq: lastSeq)))
        let first = try back.waitFor("what follows joined") { message -> ServerMessage? in
            if case .joined = message { nil } else { message }
        }
        if case .snapshot = first { #expect(snapshot) } else { #expect(!snapshot, "\(first)") }
        #expect(back.token == token, "a resume gives back the same token")
        withExtendedLifetime((bob, spectators)) {}
    }

    /// `maxLineBytes` does not count a `\r` before the `\n`: it is removed, and a client ending its
    /// lines with `\r\n` may send as much as one ending them with `\n`.
    @Test func aCarriageReturnDoesNotCountTowardTheLineLimit() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        let limit = try client.waitFor("welcome") { if case .welcome(_, _, _, let limits) = $0 { limits.maxLineBytes } else { nil } }
        func ping(filling bytes: Int) -> String {
            let bare = #"{"type":"ping","time":1,"pad":""}"#
            return #"{"type":"ping","time":1,"pad":""# + String(repeating: "a", count: bytes - bare.utf8.count) + #""}"#
        }
        client.sendRaw(ping(filling: limit) + "\r\n")
        _ = try client.waitFor("pong") { if case .pong(_, 1, _) = $0 { true } else { nil } }
        client.sendRaw(ping(filling: limit + 1) + "\r\n")
        #expect(try client.awaitError(.lineTooLong).code == .lineTooLong)
    }
}
