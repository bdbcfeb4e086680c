import SetClient
import SetRules
import SetWire
import Testing

/// An arena as a stage of the one session (issue 44): joined at the welcome, its pushed state
/// kept, paused, resumed and left; a pairing going on, on the same session, to the duel's reserved
/// seat and back to the arena after `game_over`; its redirect and `node_away` handled as a join's.
@Suite struct ClientSessionArenaTests {
    static let welcome = ClientSessionTests.welcome
    static let join = SessionEffect.send(.arena(.join(ArenaJoinRequest(arena: "friday", name: "ann", account: "k1"))))
    static let pairing = ArenaPairingNotice(arena: "friday", match: "arena-friday-3", token: "tok", opponent: "bob")

    static func state(_ phase: ArenaState = .running) -> ArenaView {
        ArenaView(header: ArenaHeader(arena: "friday", variant: .classic, rated: true, state: phase, endsAt: 601_000), startsAt: 1_000,
                   standings: [ArenaEntry(rank: 1, name: "ann", score: 0), ArenaEntry(rank: 2, name: "bob", score: 0)])
    }

    /// A session joined to arena friday at time 0.
    static func inArena() -> ClientSession {
        var options = ClientOptions(name: "ann", pings: .keepAlive)
        options.account = "k1"
        var session = ClientSession(options)
        _ = session.enterArena("friday", at: 0)
        session.connected(at: 0)
        _ = session.receive(welcome, at: 0)
        _ = session.receive(.arena(state(), id: nil), at: 0)
        return session
    }

    static func seatJoin() -> SessionEffect {
        var join = JoinRequest(name: "ann", match: "arena-friday-3", token: "tok")
        join.account = "k1"
        return .send(.join(join))
    }

    /// The session paired and seated in the duel, shown its view.
    static func playing() -> ClientSession {
        var session = inArena()
        _ = session.receive(.arenaPairing(pairing), at: 100)
        _ = session.receive(.joined(role: .player, match: "arena-friday-3", mode: .duel, seat: .first, token: "tok", resumed: true, id: nil), at: 110)
        _ = session.receive(.snapshot(ClientSessionTests.view(seq: 5, match: "arena-friday-3")), at: 120)
        return session
    }

    static let gameOver = ServerMessage.event(WireEvent(match: "arena-friday-3", seq: 6, time: 9_000, body: .gameOver(
        MatchResult(reason: .noSetsLeft, by: nil, scores: [12, 9], winner: .first), seed: 7)))

    @Test func theWelcomeJoinsTheArenaAndItsStateIsKept() {
        var options = ClientOptions(name: "ann", pings: .keepAlive)
        options.account = "k1"
        var session = ClientSession(options)
        #expect(session.enterArena("friday", at: 0).isEmpty, "offline: nothing to send yet")
        #expect(session.connected(at: 0).isEmpty, "the arena waits for the welcome")
        #expect(session.receive(Self.welcome, at: 10) == [.welcomed(serverTime: 1_000, limits: ServerLimits()), Self.join])
        #expect(session.stage == .arena)
        #expect(session.receive(.arena(Self.state(), id: nil), at: 20) == [.arena(.state(Self.state()))])
        #expect(session.arena?.state == Self.state() && session.arena?.joinedHere == true)
        var other = Self.state()
        other.arena = "monday"
        #expect(session.receive(.arena(other, id: nil), at: 30) == [.arena(.state(other))])
        #expect(session.arena?.state == Self.state(), "another arena's state is passed on, not kept as ours")
    }

    @Test func pauseResumeAndLeaveAreSentBetweenDuelsOnly() {
        var session = Self.inArena()
        #expect(session.pauseArena() == [.send(.arena(.pause))])
        #expect(session.resumeArena() == [.send(.arena(.resume))])
        var playing = Self.playing()
        #expect(playing.pauseArena().isEmpty && playing.leaveArena().isEmpty, "the duel's screen has its own keys")
        #expect(session.leaveArena() == [.send(.arena(.leave))])
        #expect(session.arena == nil)
    }

    @Test func aPairingGoesOnToTheReservedSeatAndGameOverComesBack() {
        var session = Self.inArena()
        #expect(session.receive(.arenaPairing(Self.pairing), at: 100)
                == [.arena(.paired(Self.pairing)), .saveToken("tok"), Self.seatJoin()])
        #expect(session.stage == .joining && session.inArenaDuel && session.options.reservedSeat)
        session = Self.playing()
        #expect(session.stage == .joined && session.matchName == "arena-friday-3")
        let pushed = Self.state()
        #expect(session.receive(.arena(pushed, id: nil), at: 200) == [.arena(.state(pushed))], "pushes go on during the duel")
        #expect(session.stage == .joined)
        let effects = session.receive(Self.gameOver, at: 9_000)
        #expect(effects.suffix(2) == [.saveToken(nil), .arena(.duelOver)], "no arena_join: this connection is still joined")
        #expect(effects.count == 3)
        #expect(session.stage == .arena && !session.inArenaDuel && session.token == nil && !session.options.reservedSeat)
        #expect(session.view?.result?.winner == .first, "the last duel's end stays for the screen")
        let next = ArenaPairingNotice(arena: "friday", match: "arena-friday-4", token: "tok2", opponent: "cy")
        #expect(session.receive(.arenaPairing(next), at: 9_500).last.map {
            if case .send(.join(let join)) = $0 { join.match == "arena-friday-4" && join.token == "tok2" } else { false }
        } == true)
    }

    @Test func aDuelOnANewConnectionJoinsTheArenaAgainAfterItsEnd() {
        var session = Self.playing()
        session.disconnected()
        #expect(session.connected(at: 1_000).isEmpty)
        var resume = JoinRequest(name: "ann", match: "arena-friday-3", token: "tok", lastSeq: 5)
        resume.account = "k1"
        #expect(session.receive(Self.welcome, at: 1_010).last == .send(.join(resume)), "the seat is resumed, not the arena joined")
        _ = session.receive(.joined(role: .player, match: "arena-friday-3", mode: .duel, seat: .first, token: "tok", resumed: true, id: nil), at: 1_020)
        #expect(session.receive(Self.gameOver, at: 9_000).suffix(3) == [.saveToken(nil), .arena(.duelOver), Self.join])
        #expect(session.stage == .arena)
    }

    /// A duel the opponent never sat in ends with no `game_over`: once the arena's state no
    /// longer has the player in it (the opponent's no-show counted), the session is back between
    /// duels; while it still has them there, the seat waits.
    @Test func aDuelNobodyElseSatInIsBackToTheArenaOnceCounted() {
        var session = Self.inArena()
        _ = session.receive(.arenaPairing(Self.pairing), at: 100)
        _ = session.receive(.joined(role: .player, match: "arena-friday-3", mode: .duel, seat: .first, token: "tok", resumed: false, id: nil), at: 110)
        var waiting = ClientSessionTests.view(seq: 1, match: "arena-friday-3")
        waiting.phase = .waiting
        _ = session.receive(.snapshot(waiting), at: 120)
        var dealt = Self.state()
        dealt.standings[0].playing = "arena-friday-3"
        #expect(session.receive(.arena(dealt, id: nil), at: 130) == [.arena(.state(dealt))])
        #expect(session.stage == .joined && session.inArenaDuel)
        let counted = Self.state()
        #expect(session.receive(.arena(counted, id: nil), at: 200) == [.arena(.state(counted)), .saveToken(nil), .arena(.duelOver)])
        #expect(session.stage == .arena && !session.inArenaDuel)
    }

    @Test func aDuelSeatRefusedForGoodIsBackToTheArena() {
        var session = Self.inArena()
        _ = session.receive(.arenaPairing(Self.pairing), at: 100)
        let refused = WireError(.badToken, "That seat is gone.")
        #expect(session.receive(.error(refused, id: nil), at: 200) == [.saveToken(nil), .refused(refused), .saveToken(nil), .arena(.duelOver)])
        #expect(session.stage == .arena && !session.inArenaDuel)
    }

    /// The last duel's late actions are answered `match_over` after the next pairing came: the
    /// session is still joining that pairing, and plays it once seated (seen in the arena
    /// benchmark: a bot seated in its next duel with no pairing left never moved, and two such bots
    /// kept their arena from ever ending).
    @Test func aLateRefusalOfTheLastDuelsActionKeepsTheNextPairing() {
        var session = Self.playing()
        _ = session.receive(Self.gameOver, at: 9_000)
        let next = ArenaPairingNotice(arena: "friday", match: "arena-friday-4", token: "tok2", opponent: "cy")
        _ = session.receive(.arenaPairing(next), at: 9_010)
        let late = WireError(.matchOver, "The match is over.")
        #expect(session.receive(.error(late, id: nil), at: 9_020) == [.refused(late)])
        #expect(session.stage == .joining && session.inArenaDuel && session.token == "tok2")
        let seated = session.receive(.joined(role: .player, match: "arena-friday-4", mode: .duel, seat: .second, token: "tok2", resumed: false, id: nil),
                                     at: 9_030)
        #expect(seated.contains(.joined(match: "arena-friday-4", seat: .second, resumed: false, first: false)))
        #expect(session.stage == .joined && session.inArenaDuel)
    }

    @Test func theArenasRedirectIsFollowedWithItsTicketAndNodeAwayWaits() throws {
        var session = Self.inArena()
        session.disconnected()
        session.connected(at: 0)
        let ticket = "oU3v1yJ5mQeQm2R8bq0kQnHhT0M2Xv9cW7a4s1L0d6E"
        let moved = session.receive(.redirect(Redirect(match: "~arena-friday", address: "127.0.0.2:7381", ticket: ticket), id: nil), at: 10)
        #expect(moved.last == .redirected(to: .tcp(host: "127.0.0.2", port: 7381)))
        #expect(session.connected(at: 20).isEmpty)
        let again = session.receive(Self.welcome, at: 30)
        #expect(again.last == .send(.arena(.join(ArenaJoinRequest(arena: "friday", name: "ann", account: "k1", ticket: ticket)))))
        let away = WireError(.nodeAway, "The server holding ~arena-friday (b) is away.",
                             details: ["match": "~arena-friday", "node": "b", "retryAfterMs": .int(2_000)])
        let wait = try #require(session.receive(.error(away, id: nil), at: 40).first)
        #expect(wait == .nodeAway(try #require(session.nodeAway)))
        #expect(session.tick(at: 2_039).allSatisfy { $0 != Self.join })
        #expect(session.tick(at: 2_040).first == .send(.arena(.join(ArenaJoinRequest(arena: "friday", name: "ann", account: "k1", ticket: ticket)))))
        _ = session.receive(.arena(Self.state(), id: nil), at: 2_050)
        #expect(session.ticket == nil && session.redirectsFollowed == 0, "the arena answered: the move is over")
    }

    @Test func aTakenNameInTheArenaIsNotSwappedForASuggestion() {
        var options = ClientOptions(name: "ann", pings: .keepAlive)
        options.takesSuggestedName = true
        var session = ClientSession(options)
        _ = session.enterArena("friday", at: 0)
        session.connected(at: 0)
        _ = session.receive(Self.welcome, at: 0)
        let taken = WireError(.nameTaken, "ann is taken.", details: ["suggestion": "ann2"])
        #expect(session.receive(.error(taken, id: nil), at: 10) == [.refused(taken)])
    }
}
