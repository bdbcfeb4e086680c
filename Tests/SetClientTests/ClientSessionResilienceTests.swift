import SetClient
import SetRules
import SetWire
import Testing

/// Issue 42, items 7 and 8, on the session alone (messages and times in, effects out): a resume
/// always names its match so any node can send it on; only the match's own node can say a token is
/// dead; a reserved seat's refusal is final; a server's wait is clamped; and a redirect's node
/// that does not answer is counted down, left for the server first given, and given up on by a
/// program after a few tries.
@Suite struct ClientSessionResilienceTests {
    static let welcome = ClientSessionTests.welcome
    static let dead = ServerPlace.tcp(host: "127.0.0.1", port: 1)

    /// A session seated in a duel the server paired it into (it named no match).
    static func paired() -> ClientSession {
        var session = ClientSession(.init(name: "ann", pings: .keepAlive))
        session.connected(at: 0)
        _ = session.receive(welcome, at: 0)
        _ = session.receive(.joined(role: .player, match: "duel-b-3", mode: .duel, seat: .second, token: "duel-b-3~tok", resumed: false, id: nil), at: 0)
        return session
    }

    /// A session whose join was redirected to the node at `dead`, its connection there not made yet.
    static func redirected(_ options: ClientOptions = .init(name: "ann", match: "m", pings: .keepAlive)) -> ClientSession {
        var session = ClientSession(options)
        session.connected(at: 0)
        _ = session.receive(welcome, at: 0)
        _ = session.receive(.redirect(Redirect(match: "m", address: "127.0.0.1:1"), id: nil), at: 0)
        return session
    }

    // MARK: Item 7: a token's match

    @Test func aResumeNamesTheMatchTheSessionWasPairedInto() {
        var session = Self.paired()
        session.disconnected()
        session.connected(at: 1_000)
        #expect(session.joinMessage == .join(JoinRequest(name: "ann", match: "duel-b-3", token: "duel-b-3~tok")),
                "a node that does not hold duel-b-3 sends the resume on; without the name it could only refuse it")
    }

    @Test func aTokenKeptByAnEarlierRunNamesItsMatch() {
        let session = ClientSession(.init(name: "ann"), token: "again4~0123456789abcdef0123456789abcdef")
        #expect(session.joinMessage == .join(JoinRequest(name: "ann", match: "again4", token: "again4~0123456789abcdef0123456789abcdef")))
        #expect(TokenMatch.match(of: "0123456789abcdef0123456789abcdef") == nil, "an older token names no match")
        #expect(TokenMatch.match(of: "a b~x") == nil, "nor does one whose prefix no match could have")
    }

    @Test func aRefusalOfAResumeThatNamedItsMatchForgetsTheToken() {
        var session = Self.paired()
        #expect(session.receive(.error(WireError(.badToken, "no"), id: nil), at: 0) == [
            .saveToken(nil), .send(.join(JoinRequest(name: "ann"))), .log("seat token refused; joining afresh")])
    }

    @Test func aRefusalOfATokenNamingNoMatchKeepsItForALaterRun() {
        var session = ClientSession(.init(name: "ann"), token: "0123456789abcdef0123456789abcdef")
        session.connected(at: 0)
        _ = session.receive(Self.welcome, at: 0)
        #expect(session.receive(.error(WireError(.badToken, "not here"), id: nil), at: 0) == [
            .send(.join(JoinRequest(name: "ann"))), .log("seat token refused; joining afresh")],
                "a node that may not hold the match cannot say the seat is gone: the kept token stays")
    }

    @Test func aReservedSeatsRefusalIsFinalNotAPublicSeat() {
        var options = ClientOptions(name: "ann", match: "challenge-1")
        options.reservedSeat = true
        var session = ClientSession(options, token: "challenge-1~tok")
        session.connected(at: 0)
        _ = session.receive(Self.welcome, at: 0)
        let refusal = WireError(.badToken, "gone")
        #expect(session.receive(.error(refusal, id: nil), at: 0) == [.saveToken(nil), .refused(refusal)])
    }

    // MARK: Item 8: waits that end

    @Test func aServersWaitIsClampedToThirtySeconds() {
        var session = ClientSessionRedirectTests.joining()
        _ = session.receive(ClientSessionRedirectTests.nodeAway(retryAfterMs: 9_007_199_254_740_991), at: 100)
        #expect(session.nodeAway?.retryAt == 100 + ClientSession.longestNodeAwayWait)
        #expect(ClientSession.longestNodeAwayWait == 30_000)
    }

    @Test func aRedirectsNodeThatRefusesIsCountedDownAndLeftForTheFirstServer() {
        var session = Self.redirected()
        #expect(session.lost("Connection refused", at: 500) == [
            .log("127.0.0.1:1 did not answer (Connection refused); connecting again in 1000 ms"),
            .unreachable(UnreachableWait(address: "127.0.0.1:1", reason: "Connection refused", retryAt: 1_500))])
        #expect(session.redirectedPlace == nil, "the driver goes back to the server it was given")
        #expect(session.redirectsFollowed == 0, "going back is no redirect loop")
        session.connected(at: 1_500)
        #expect(session.receive(Self.welcome, at: 1_500).last == .send(.join(JoinRequest(name: "ann", match: "m"))))
        // Sent there again (the lease still runs), the wait doubles.
        _ = session.receive(.redirect(Redirect(match: "m", address: "127.0.0.1:1"), id: nil), at: 1_600)
        guard case .unreachable(let wait) = session.lost("Connection refused", at: 1_700).last else { Issue.record("no wait"); return }
        #expect(wait.retryAt == 3_700 && wait.secondsLeft(at: 1_700) == 2)
    }

    /// A node whose address takes the connection but never greets (a stopped process, a black
    /// hole): the welcome's wait ends it, and it is left as one that refused.
    @Test func aRedirectsNodeThatNeverGreetsIsLeftAfterTheWelcomesWait() {
        var session = Self.redirected()
        session.connected(at: 0)
        #expect(session.tick(at: ClientSession.unansweredLimit) == [.gaveUp(.silent(ms: ClientSession.unansweredLimit))])
        #expect(!session.greetedHere)
        guard case .unreachable(let wait) = session.lost("no answer within 30 s", at: ClientSession.unansweredLimit).last else {
            Issue.record("not left")
            return
        }
        #expect(wait.address == "127.0.0.1:1" && session.redirectedPlace == nil)
    }

    @Test func aNodeThatDropsAfterItsWelcomeIsNotLeft() {
        var session = Self.redirected()
        session.connected(at: 10)
        _ = session.receive(Self.welcome, at: 10)
        #expect(session.lost("the server closed the connection", at: 20).isEmpty, "a drop, not a dead node: the driver resumes there")
        #expect(session.redirectedPlace == Self.dead)
    }

    @Test func aProgramGivesUpOnARefusingNodeAfterAFewTries() {
        var session = Self.redirected()
        var now: Int64 = 0
        for _ in 0..<ClientSession.maxUnreachableRetries {
            guard case .unreachable(let wait) = session.lost("Connection refused", at: now).last else { Issue.record("gave up early"); return }
            now = wait.retryAt
            session.connected(at: now)
            _ = session.receive(Self.welcome, at: now)
            _ = session.receive(.redirect(Redirect(match: "m", address: "127.0.0.1:1"), id: nil), at: now)
        }
        let end = SessionEnd.unreachable(address: "127.0.0.1:1", reason: "Connection refused", tries: ClientSession.maxUnreachableRetries)
        #expect(session.lost("Connection refused", at: now) == [.gaveUp(end)])
        #expect(end.reason == "the server holding the match (127.0.0.1:1) did not answer after 6 tries: Connection refused")
    }

    @Test func aPersonsSessionCountsDownUntilTheyQuitWaitingAtMostThirtySeconds() {
        var options = ClientOptions(name: "ann", match: "m")
        options.pings = .measuring
        var session = Self.redirected(options)
        session.awayNodePatience = .untilQuit
        var now: Int64 = 0, longest: Int64 = 0
        for _ in 0..<(ClientSession.maxUnreachableRetries * 4) {
            guard case .unreachable(let wait) = session.lost("Connection refused", at: now).last else { Issue.record("gave up at \(now)"); return }
            longest = max(longest, wait.retryAt - now)
            now = wait.retryAt
            session.connected(at: now)
            _ = session.receive(Self.welcome, at: now)
            _ = session.receive(.redirect(Redirect(match: "m", address: "127.0.0.1:1"), id: nil), at: now)
        }
        #expect(longest == ClientSession.longestNodeAwayWait)
    }

    @Test func anAnsweredJoinStartsTheCountAfresh() {
        var session = Self.redirected()
        _ = session.lost("Connection refused", at: 0)
        #expect(session.unreachableRetries == 1)
        session.connected(at: 1_000)
        _ = session.receive(Self.welcome, at: 1_000)
        _ = session.receive(.joined(role: .player, match: "m", mode: .duel, seat: .first, token: "m~tok", resumed: false, id: nil), at: 1_000)
        #expect(session.unreachableRetries == 0)
    }
}
