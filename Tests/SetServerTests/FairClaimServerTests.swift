import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Lag compensation over real loopback sockets, with the server's clock moved by hand: round
/// trips are what the test makes them, by when it lets each player answer the server's pings.
@Suite(.serialized) struct FairClaimServerTests {
    /// Waits for the server's measuring ping and answers it once the clock has moved `afterMs`;
    /// a ping of our own then proves the pong was read.
    func answerEchoPing(_ client: TestClient, on server: TestServer, afterMs: Int64) throws {
        let time = try client.waitFor("echo ping") { if case .ping(let time, true) = $0 { time } else { nil } }
        if afterMs > 0 { server.advance(by: afterMs) }
        client.send(.pong(time: time))
        client.send(.ping(time: 1))
        _ = try client.waitFor("pong") { if case .pong = $0 { true } else { nil } }
    }

    /// Returns once the server has read what `client` sent so far: its pong comes after.
    func read(_ client: TestClient) throws {
        client.send(.ping(time: 5))
        _ = try client.waitFor("pong") { if case .pong(_, 5, _) = $0 { true } else { nil } }
    }

    /// Ann 0 ms from the server, bob 160 ms (round trip), each measured once at their join.
    func measuredDuel(_ server: TestServer) throws -> (TestClient, TestClient) {
        let ann = try TestClient.joined(server, name: "ann")
        try answerEchoPing(ann, on: server, afterMs: 0)
        let bob = try TestClient.joined(server, name: "bob")
        try answerEchoPing(bob, on: server, afterMs: 160)
        try ann.awaitSeq(bob.view!.seq)
        return (ann, bob)
    }

    /// A server whose rate limit lets a test send hundreds of pings of its own.
    func serverForManyPings() throws -> TestServer {
        try TestServer {
            $0.lagCompensationMs = 200
            $0.limits.messagesPerSecond = 100_000
            $0.limits.messageBurst = 200_000
        }
    }

    /// Moves the server's clock 10 ms at a time, at most `ms` in all, until `client` hears what
    /// `wanted` picks out; nil if it heard nothing of it by then. At each step a ping of the
    /// client's own makes the server take a turn at the new time: what that turn does comes
    /// before the pong.
    func stepClock<Value>(_ server: TestServer, _ client: TestClient, atMostMs ms: Int64,
                          until wanted: (ServerMessage) -> Value?) throws -> (value: Value, afterMs: Int64)? {
        var steppedMs: Int64 = 0
        while steppedMs < ms {
            server.advance(by: 10)
            steppedMs += 10
            client.send(.ping(time: 5))
            let heard: Value?? = try client.waitFor("pong or what is wanted") { message in
                if let value = wanted(message) { return .some(value) }
                if case .pong(_, 5, _) = message { return .some(nil) }
                return nil
            }
            if let value = heard ?? nil { return (value, steppedMs) }
        }
        return nil
    }

    /// Round trips are measured again in each connection's own slice of the 2 s interval (200
    /// slices of 10 ms): within two intervals of the clock, a seated player is pinged again.
    @Test func aSeatedPlayerIsMeasuredAgainInItsSliceOfTheInterval() throws {
        let server = try serverForManyPings()
        defer { server.stop() }
        let (ann, _) = try measuredDuel(server)
        let pinged = try stepClock(server, ann, atMostMs: 4_000) { message in
            if case .ping(_, true) = message { true } else { nil }
        }
        #expect(pinged != nil)
    }

    /// A pong that moves a duel's round trips is told to the duel at once, not at the next sweep
    /// (a second later, with every other duel a stall moved: one burst of thousands of lines).
    /// The clock stays 840 ms short of the first sweep here.
    @Test func aPongThatMovesTheRoundTripsIsToldAtOnce() throws {
        let server = try TestServer { $0.lagCompensationMs = 200 }
        defer { server.stop() }
        let (ann, _) = try measuredDuel(server)
        let told = try ann.waitFor("round trips") { message in
            if case .roundTrips(_, let ms) = message, ms.allSatisfy({ $0 != nil }) { ms } else { nil }
        }
        #expect(told == [0, 160])
    }

    /// A seat that empties moves the duel's round trips with no pong to tell it: the duel is told
    /// within a second of the server's clock. Each duel's turn comes once a second, a hundredth of
    /// the duels at each 10 ms turn of the pings, where all of them took their turn in the
    /// second's sweep and stalled the loop for a millisecond at 1,000 duels.
    @Test func aSeatThatEmptiesIsToldWithinASecond() throws {
        let server = try serverForManyPings()
        defer { server.stop() }
        let (ann, bob) = try measuredDuel(server)
        _ = try ann.waitFor("both measured") { message in
            if case .roundTrips(_, let ms) = message, ms.allSatisfy({ $0 != nil }) { true } else { nil }
        }
        bob.hangUp()
        _ = try ann.awaitEvent("bob away") { if case .presence(.second, false, _) = $0 { true } else { false } }
        let told = try stepClock(server, ann, atMostMs: 1_000) { message in
            if case .roundTrips(_, let ms) = message { ms } else { nil }
        }
        #expect(told?.value == [0, nil], "told \(String(describing: told))")
    }

    @Test func theFarPlayersEarlierClaimWinsThoughItArrivesLater() throws {
        let server = try TestServer { $0.lagCompensationMs = 200 }
        defer { server.stop() }
        let (ann, bob) = try measuredDuel(server)
        ann.send(.act(.claim, seat: nil), id: .string("a"))
        try read(ann)
        server.advance(by: 100)
        // Bob's claim arrives 100 ms after ann's but left him 60 ms before hers left her.
        bob.send(.act(.claim, seat: nil), id: .string("b"))
        let opened = try ann.awaitEvent("bob's window") { if case .rules(.windowOpened) = $0 { true } else { false } }
        guard case .rules(.windowOpened(let window)) = opened.body else { return }
        #expect(window.holder == .second)
        let lost = try ann.awaitError(.claimTaken)
        #expect(lost.details["leadMs"] == .int(60) && lost.details["holder"] == .int(1), "\(lost)")
        _ = try bob.waitFor("bob's ack") { if case .ack(.string("b"), _) = $0 { true } else { nil } }
    }

    @Test func aHeldClaimOpensItsWindowWhenTheFarSideCanNoLongerBeEarlier() throws {
        let server = try TestServer { $0.lagCompensationMs = 200 }
        defer { server.stop() }
        let (ann, bob) = try measuredDuel(server)
        ann.send(.act(.claim, seat: nil), id: .string("a"))
        try read(ann)
        // Held: no window yet, so bob's own ping comes back before any event.
        bob.send(.ping(time: 2))
        let first = try bob.next("pong, not an event")
        guard case .pong = first else { return #expect(Bool(false), "\(first) came before the pong") }
        server.advance(by: 160)
        let opened = try bob.awaitEvent("ann's window") { if case .rules(.windowOpened) = $0 { true } else { false } }
        guard case .rules(.windowOpened(let window)) = opened.body else { return }
        #expect(window.holder == .first && window.opened == Instant(milliseconds: 1_320))
        _ = try ann.waitFor("ann's late ack") { if case .ack(.string("a"), _) = $0 { true } else { nil } }
    }

    /// Issue 32's attack: bob is near but answers echo pings 300 ms late (so he is credited the
    /// whole cap), and after each claim of ann's he sends `hint` then `ping`: a pong first told
    /// him her claim was held, and claiming then took her window. Now his hint is answered before
    /// the pong whether or not a claim is held, so he never learns of one and takes no window of
    /// hers. (The order of replies on one connection decides, not the machine's speed.)
    @Test func aRivalProbingWithHintAndPingNeverLearnsOfAHeldClaim() throws {
        let server = try TestServer {
            $0.lagCompensationMs = 200
            $0.rules.hintsInDuel = true
        }
        defer { server.stop() }
        let ann = try TestClient.joined(server, name: "ann")
        try answerEchoPing(ann, on: server, afterMs: 0)
        let bob = try TestClient.joined(server, name: "bob")
        try answerEchoPing(bob, on: server, afterMs: 300)
        try ann.awaitSeq(bob.view!.seq)
        var taken = 0
        for window in 0..<3 {
            ann.send(.act(.claim, seat: nil), id: .string("a\(window)"))
            try read(ann)
            let hint = JSONValue.string("h\(window)")
            bob.send(.act(.hint, seat: nil), id: hint)
            bob.send(.ping(time: 7))
            let first = try bob.waitFor("the hint's answer or the pong") { message -> Bool? in
                switch message {
                case .pong(_, 7, _): true
                case .ack(let id, _) where id == hint: false
                case .error(_, let id) where id == hint: false
                default: nil
                }
            }
            if first {
                bob.send(.act(.claim, seat: nil), id: .string("b\(window)"))
            } else {
                _ = try bob.waitFor("pong") { if case .pong(_, 7, _) = $0 { true } else { nil } }
            }
            server.advance(by: 200)
            let opened = try ann.awaitEvent("window \(window)") {
                if case .rules(.windowOpened(let window)) = $0, window.kind == .claim { true } else { false }
            }
            guard case .rules(.windowOpened(let claimed)) = opened.body else { return }
            if claimed.holder == .second { taken += 1 }
            let (holder, other) = claimed.holder == .first ? (ann, bob) : (bob, ann)
            holder.send(.act(.pass, seat: nil))
            _ = try other.awaitEvent("second chance \(window)") {
                if case .rules(.windowOpened(let window)) = $0, window.kind == .secondChance { true } else { false }
            }
            other.send(.act(.pass, seat: nil))
            let closed = try holder.awaitEvent("table free \(window)") {
                if case .rules(.windowClosed(let window, _)) = $0, window.kind == .secondChance { true } else { false }
            }
            try other.awaitSeq(closed.seq)
        }
        #expect(taken == 0, "bob took \(taken) of the 3 windows ann found")
    }

    @Test func withCompensationOffNoEchoPingIsSentAndTheFirstReceivedWins() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server)
        ann.send(.ping(time: 3))
        let first = try ann.next("pong")
        guard case .pong = first else { return #expect(Bool(false), "\(first) before the pong: an echo ping?") }
        ann.send(.act(.claim, seat: nil))
        _ = try bob.awaitEvent("ann's window") { if case .rules(.windowOpened) = $0 { true } else { false } }
        server.advance(by: 100)
        bob.send(.act(.claim, seat: nil))
        #expect(try bob.awaitError(.claimTaken).details["leadMs"] == .int(100))
    }
}
