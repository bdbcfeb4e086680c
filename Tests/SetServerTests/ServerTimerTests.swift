import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Every timer fires from the server's own clock, which these tests move by hand.
@Suite(.serialized) struct ServerTimerTests {
    func startedDuel(_ server: TestServer) throws -> (TestClient, TestClient) {
        let (ann, bob) = try TestClient.duel(server)
        return (ann, bob)
    }

    @Test func theClaimWindowRunsOutAtItsDeadlineAndTheSecondChanceThen() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try startedDuel(server)
        ann.send(.act(.claim, seat: nil))
        let opened = try bob.awaitEvent("claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        guard case .rules(.windowOpened(let claim)) = opened.body else { return }
        #expect(claim.deadline.milliseconds(since: claim.opened) == 5_000)

        server.advance(by: 4_999)
        #expect(try nothingPending(bob))

        server.advance(by: 1)
        let closed = try bob.awaitEvent("expiry") { if case .rules(.windowClosed(_, .expired)) = $0 { true } else { false } }
        #expect(closed.time == claim.deadline.milliseconds)
        _ = try bob.awaitEvent("penalty") { $0 == .rules(.penalised(seat: .first, reason: .claimRanOut, points: 10, score: -10)) }
        let second = try bob.awaitEvent("second chance") { if case .rules(.windowOpened(let w)) = $0 { w.kind == .secondChance } else { false } }
        #expect(bob.view?.window?.holder == .second)
        #expect(bob.view?.window?.deadline == claim.deadline.adding(10_000))
        try ann.awaitSeq(second.seq)
        #expect(ann.view?.scores == [-10, 0])

        server.advance(by: 10_000)
        _ = try ann.awaitEvent("second chance ends") { if case .rules(.windowClosed(let w, .expired)) = $0 { w.kind == .secondChance } else { false } }
        #expect(ann.view?.window == nil)
        #expect(ann.view?.scores == [-10, 0])
    }

    @Test func theDealGracePeriodIsBroadcastAndRunsOut() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try startedDuel(server)
        bob.send(.act(.deal, seat: nil))
        let grace = try ann.awaitEvent("grace") { if case .rules(.windowOpened(let w)) = $0 { w.kind == .dealGrace } else { false } }
        #expect(ann.view?.window?.holder == .first)
        #expect(ann.view?.table.count == 15)
        try bob.awaitSeq(grace.seq)
        server.advance(by: 8_000)
        _ = try bob.awaitEvent("grace ends") { if case .rules(.windowClosed(let w, .expired)) = $0 { w.kind == .dealGrace } else { false } }
    }

    @Test func passingEndsAWindowAtOnce() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try startedDuel(server)
        ann.send(.act(.claim, seat: nil))
        ann.send(.act(.pass, seat: nil))
        _ = try bob.awaitEvent("passed") { if case .rules(.windowClosed(_, .passed)) = $0 { true } else { false } }
        _ = try bob.awaitEvent("second chance") { if case .rules(.windowOpened(let w)) = $0 { w.holder == .second } else { false } }
    }

    @Test func anIdleConnectionIsClosedWithAReason() throws {
        let server = try TestServer { $0.limits.idleTimeoutMs = 5_000 }
        defer { server.stop() }
        let quiet = try TestClient(port: server.port)
        _ = try quiet.next("welcome")
        server.advance(by: 7_000)
        let error = try quiet.awaitError(.idleTimeout)
        #expect(error.fatal)
        #expect(quiet.drainToEndOfStream() != nil, "the server closed the connection (end of stream, not silence)")
    }

    @Test func aQuietConnectionIsPingedAtHalfTheIdleTimeAndAnAnswerKeepsItOpen() throws {
        let server = try TestServer { $0.limits.idleTimeoutMs = 6_000 }
        defer { server.stop() }
        let quiet = try TestClient(port: server.port)
        _ = try quiet.next("welcome")
        server.advance(by: 3_500)
        #expect(try quiet.next("the server's ping") == .ping(time: 4_500))
        quiet.send(.ping(time: 1))
        _ = try quiet.waitFor("pong") { if case .pong = $0 { true } else { nil } }
        server.advance(by: 4_000)  // 4 s after its answer: under the 6 s allowance
        quiet.send(.ping(time: 2))
        _ = try quiet.waitFor("pong") { if case .pong(_, 2, _) = $0 { true } else { nil } }
    }

    /// A window never waits for a player who left holding it: dropping ends it at once, as a pass
    /// would (a claim: its penalty and the opponent's second chance), and the match pauses.
    @Test func aPlayerWhoDropsHoldingAClaimLosesItAndTheMatchResumesWithTheToken() throws {
        let server = try TestServer()
        defer { server.stop() }
        var (ann, bob) = try startedDuel(server)
        ann.send(.act(.claim, seat: nil))
        _ = try bob.awaitEvent("claim") { if case .rules(.windowOpened) = $0 { true } else { false } }
        let token = try #require(ann.token)
        ann = try TestClient(port: server.port)  // the old socket closes here
        let closed = try bob.awaitEvent("the claim ends") { if case .rules(.windowClosed(_, .passed)) = $0 { true } else { false } }
        let penalty = try bob.awaitEvent("its penalty") { if case .rules(.penalised(.first, .claimPassed, _, _)) = $0 { true } else { false } }
        #expect(penalty.time == closed.time)
        let chance = try bob.awaitEvent("bob's second chance") {
            if case .rules(.windowOpened(let window)) = $0 { window.kind == .secondChance && window.holder == .second } else { false }
        }
        let away = try bob.awaitEvent("presence") { if case .presence(.first, false, _) = $0 { true } else { false } }
        guard case .presence(_, _, let forfeitAt) = away.body else { return }
        #expect(forfeitAt == away.time + 120_000)
        #expect(chance.time == away.time)

        server.advance(by: 60_000)  // far past every deadline: paused, so nothing fires
        #expect(try nothingPending(bob))
        bob.send(.act(.deal, seat: nil))
        #expect(try bob.awaitError(.waitingForOpponent).message.contains("ann"))

        _ = try ann.next("welcome")
        ann.send(.join(JoinRequest(name: "ann", match: "m", token: token)))
        _ = try ann.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        #expect(ann.seat == .first)
        #expect(ann.view?.window?.holder == .second)
        let resumed = try bob.awaitEvent("resumed") { if case .resumed = $0 { true } else { false } }
        guard case .resumed(let window, _) = resumed.body else { return }
        // Bob was frozen out while ann was away: all 10 s of his second chance are still to run.
        #expect(window?.holder == .second)
        #expect(window?.deadline.milliseconds == resumed.time + 10_000)
        #expect(bob.view?.players.allSatisfy(\.present) == true)
    }

    @Test func aPlayerWhoNeverReturnsForfeitsAtTheDeadline() throws {
        let server = try TestServer { $0.limits.seatWaitMs = 30_000 }
        defer { server.stop() }
        var (ann, bob) = try startedDuel(server)
        ann = try TestClient(port: server.port)
        _ = ann
        _ = try bob.awaitEvent("presence") { if case .presence(.first, false, _) = $0 { true } else { false } }
        server.advance(by: 29_999)
        #expect(try nothingPending(bob))
        server.advance(by: 1)
        let over = try bob.awaitEvent("forfeit") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(let result, let seed, _) = over.body else { return }
        #expect(result == MatchResult(reason: .forfeited, by: .first, scores: [0, 0], winner: .second))
        #expect(seed == 1)
    }
}

