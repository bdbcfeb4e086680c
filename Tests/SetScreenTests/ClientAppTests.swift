import SetRules
import SetWire
import Testing
@testable import SetScreen

@Suite struct ClientAppTests {
    static let window = Window(kind: .claim, holder: .first, opened: Instant(milliseconds: 1_000), deadline: Instant(milliseconds: 6_000))

    @Test func touchingACardWithNoWindowClaimsThenSelects() {
        var app = ClientFixtures.app(ClientFixtures.view())
        let first = app.input(.key(.character("1")), at: 0)
        // The claim says the last event the client had: the fixture's view is at seq 5.
        #expect(first == [.send(.act(.claim, seat: nil, seen: 5)), .send(.act(.select(Card.all[0]), seat: nil))])
        #expect(app.state.shownSelection == [Card.all[0]], "shown at once, before the server answers")
        // The claim is on its way: the next touch must not claim again.
        #expect(app.input(.key(.character("2")), at: 1) == [.send(.act(.select(Card.all[1]), seat: nil))])
        _ = app.receive(ClientFixtures.event(.rules(.windowOpened(Self.window)), seq: 6), at: 2)
        #expect(app.input(.key(.character("2")), at: 3) == [.send(.act(.select(Card.all[1]), seat: nil))])
        #expect(app.state.shownSelection == [Card.all[0]])
    }

    @Test func theOpponentsWindowLocksMeOut() {
        var app = ClientFixtures.app(ClientFixtures.view())
        var theirs = Self.window
        theirs.holder = .second
        _ = app.receive(ClientFixtures.event(.rules(.windowOpened(theirs)), seq: 6), at: 0)
        #expect(app.input(.key(.character("1")), at: 0).isEmpty)
        #expect(app.perform(.claim, at: 0).isEmpty)
        #expect(app.compose(at: 0).textLines[1].contains("bob holds the window"))
        _ = app.receive(ClientFixtures.event(.rules(.selectionChanged(seat: .second, selection: [Card.all[4]])), seq: 7), at: 0)
        #expect(app.state.opponentSelection == [Card.all[4]])
    }

    @Test func soloTouchesSelectDirectly() {
        var app = ClientFixtures.app(ClientFixtures.view(mode: .solo))
        #expect(app.input(.key(.character("b")), at: 0) == [.send(.act(.select(Card.all[11]), seat: nil))])
        #expect(app.perform(.claim, at: 0).isEmpty)
    }

    @Test func cursorMovesThroughTheGridAndSpaceTouches() throws {
        var app = ClientFixtures.app(ClientFixtures.view())
        let table = try #require(app.layout.table)
        #expect(app.input(.key(.character(" ")), at: 0).isEmpty, "the first space only shows the cursor")
        #expect(app.state.cursorVisible && app.state.cursor == 0)
        _ = app.input(.key(.right), at: 0)
        #expect(app.state.cursor == table.rows, "one column right")
        _ = app.input(.key(.character("j")), at: 0)
        #expect(app.state.cursor == table.rows + 1)
        _ = app.input(.key(.up), at: 0)
        _ = app.input(.key(.up), at: 0)
        #expect(app.state.cursor == table.rows, "stops at the top")
        let effects = app.input(.key(.character(" ")), at: 0)
        #expect(effects.last == .send(.act(.select(Card.all[table.rows]), seat: nil)))
        let screen = app.compose(at: 0)
        let rect = table.cardRects[table.rows]
        #expect(screen[rect.column, rect.row + rect.height / 2].character == "▶")
    }

    @Test func everyCardOfTheWholeDeckIsReachableByTwoKeys() {
        var app = ClientFixtures.app(ClientFixtures.view(cards: 81, mode: .solo), size: TerminalSize(columns: 80, rows: 24))
        #expect(app.input(.key(.character("9")), at: 0).isEmpty)
        #expect(app.input(.key(.character("9")), at: 0) == [.send(.act(.select(Card.all[80]), seat: nil))])
        #expect(app.input(.key(.character("1")), at: 0).isEmpty)
        #expect(app.input(.key(.character("3")), at: 0) == [.send(.act(.select(Card.all[2]), seat: nil))])
    }

    @Test func aGapInTheEventsAsksForASnapshotOnce() {
        var app = ClientFixtures.app(ClientFixtures.view(seq: 5))
        let skipped = app.receive(ClientFixtures.event(.spectators(count: 3), seq: 7), at: 0)
        #expect(skipped.contains(.send(.snapshot)))
        #expect(!app.receive(ClientFixtures.event(.spectators(count: 4), seq: 8), at: 0).contains(.send(.snapshot)))
        var fresh = ClientFixtures.view(seq: 8)
        fresh.spectators = 4
        _ = app.receive(.snapshot(fresh), at: 0)
        _ = app.receive(ClientFixtures.event(.spectators(count: 5), seq: 9), at: 0)
        #expect(app.state.view?.spectators == 5)
    }

    @Test func pingsMeasureTheRoundTripAndTheClockOffset() {
        var app = ClientFixtures.app(ClientFixtures.view())
        let due = app.state.nextPingAt
        #expect(app.tick(at: due - 1).isEmpty)
        #expect(app.tick(at: due) == [.send(.ping(time: due))])
        _ = app.receive(.pong(time: 50_000, clientTime: due, id: nil), at: due + 40)
        #expect(app.state.clock.roundTrip == 40)
        #expect(app.state.clock.serverTime(at: due + 20) == 50_000)
        #expect(app.compose(at: due + 40).textLines[0].contains("40 ms"))
    }

    /// A server restarted on its data folder resumes its clock at its lease, behind where the old
    /// one would be by the downtime: the offset measured before the drop must not outlive it, or
    /// every countdown reads short by the downtime until the old pongs leave the window.
    @Test func aNewConnectionMeasuresTheServersClockAfresh() {
        var app = ClientFixtures.app(ClientFixtures.view())
        let due = app.state.nextPingAt
        _ = app.tick(at: due)
        _ = app.receive(.pong(time: 50_000, clientTime: due, id: nil), at: due + 2)
        #expect(app.state.clock.serverTime(at: due + 1) == 50_000)
        _ = app.connectionLost("refused", at: due + 100)
        let back = due + 10_000
        _ = app.connected(at: back)
        // The restarted server's clock went on from 50,100, not 60,000: it skipped the downtime.
        _ = app.receive(.welcome(server: "t", versions: [1], time: 50_100, limits: ServerLimits()), at: back)
        #expect(app.state.clock.serverTime(at: back) == 50_100)
        _ = app.receive(.pong(time: 50_100, clientTime: back, id: nil), at: back + 4)
        #expect(app.state.clock.serverTime(at: back + 2) == 50_100, "the old server's quicker pong no longer wins")
    }

    /// `setgame watch HOST typo` is refused before it ever joined: the picker it falls back to
    /// must ask for the list, not wait on "Asking the server…" forever.
    @Test func watchingAMatchThatDoesNotExistListsTheLiveOnes() {
        var options = ClientFixtures.configuration(role: .spectator)
        options.match = "typo"
        var app = ClientApp(state: ClientState(options: options, size: TerminalSize(columns: 80, rows: 24)))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        _ = app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 0)
        _ = app.receive(.error(WireError(.noSuchMatch, "There is no match named \"typo\"."), id: nil), at: 10)
        #expect(app.state.isPicking)
        // Said above the list, long enough to be read: the watcher asked for a match by name.
        #expect(app.compose(at: 10).textLines.joined().contains("There is no match named \"typo\"."))
        #expect(app.compose(at: 6_000).textLines.joined().contains("There is no match named \"typo\"."))
        let wake = app.nextWake(at: 10) ?? .max
        #expect(app.tick(at: wake).contains(.send(.list())))
    }

    /// The door's client joins as the connection opens: the join leaves with it, and the
    /// welcome that follows sends no second one (it was lost here once, and the door hung on
    /// "Joining…").
    @Test func aSessionThatJoinsAtOnceSendsItsJoinOnConnectingAndOnlyThen() {
        var options = ClientFixtures.configuration(role: .player, mode: .solo)
        options.joinsAtOnce = true
        var app = ClientApp(state: ClientState(options: options, size: TerminalSize(columns: 80, rows: 24)))
        _ = app.start(at: 0)
        let joins = { (effects: [ClientEffect]) in effects.filter { if case .send(.join) = $0 { true } else { false } }.count }
        #expect(joins(app.connected(at: 0)) == 1)
        #expect(joins(app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 1)) == 0)
        var waiting = ClientApp(state: ClientState(options: ClientFixtures.configuration(role: .player, mode: .solo),
                                                   size: TerminalSize(columns: 80, rows: 24)))
        _ = waiting.start(at: 0)
        #expect(joins(waiting.connected(at: 0)) == 0, "over TCP the terminal waits for the welcome")
        #expect(joins(waiting.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 1)) == 1)
    }

    /// `setgame join` through a live node while the match's node restarts: the countdown, and the
    /// join again, for as long as it takes (a lapsed lease makes every wait a second; five tries
    /// gave up within five seconds, with exit status 1); `q` still leaves at once.
    @Test func aJoinWaitsForAnAwayNodeUntilItIsBackOrThePersonQuits() {
        var options = ClientFixtures.configuration(role: .player)
        options.match = "m"
        var app = ClientApp(state: ClientState(options: options, size: TerminalSize(columns: 80, rows: 24)))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        _ = app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 0)
        let away = ServerMessage.error(WireError(.nodeAway, "The server holding m (b) is away; try again in 1 s.",
                                                 details: ["match": .string("m"), "node": .string("b"), "retryAfterMs": .int(1_000)]), id: nil)
        var now: Int64 = 0
        for _ in 0..<60 {
            let effects = app.receive(away, at: now)
            #expect(!effects.contains { if case .quit = $0 { true } else { false } }, "gave up at \(now) ms")
            #expect(app.compose(at: now).textLines.joined().contains("(b) is away: asking again in 1 s"))
            now += 1_000
            #expect(app.tick(at: now).contains { if case .send(.join) = $0 { true } else { false } })
        }
        #expect(app.input(.key(.character("q")), at: now).contains { if case .quit = $0 { true } else { false } })
    }

    /// A move refused `node_away` while seated (the node holding the match let its lease lapse):
    /// the server's words for a while, the seat kept, no countdown to a join that never comes (it
    /// stayed at "asking again in 0 s" for good).
    @Test func aMoveRefusedByANodeAwayIsSaidAndTheSeatKept() {
        var app = ClientFixtures.app(ClientFixtures.view())
        let away = ServerMessage.error(WireError(.nodeAway, "The server holding duel-1 (b) is away; try again in 2 s.",
                                                 details: ["match": .string("duel-1"), "node": .string("b"), "retryAfterMs": .int(2_000)]), id: nil)
        let effects = app.receive(away, at: 10_000)
        #expect(!effects.contains { if case .disconnect = $0 { true } else { false } }, "\(effects)")
        #expect(app.state.connection == .live)
        let shown = app.compose(at: 10_500).textLines.joined()
        #expect(shown.contains("(b) is away; try again in 2 s") && !shown.contains("asking again"), "\(shown)")
        let later = app.compose(at: 10_000 + 2 * Notice.lifetime + 1).textLines.joined()
        #expect(!later.contains("is away"), "\(later)")
        #expect(app.tick(at: 13_000).allSatisfy { if case .send(.join) = $0 { false } else { true } }, "no join: the seat is here")
    }

    @Test func aLostConnectionRetriesWithBackoffAndResumesTheSeat() {
        var app = ClientFixtures.app(ClientFixtures.view())
        _ = app.connectionLost("reset", at: 10_000)
        #expect(app.compose(at: 10_000).textLines[1].contains("Connection lost: retrying in 1 s (reset)"))
        #expect(app.tick(at: 10_000 + ClientApp.backoff[0] - 1).isEmpty)
        #expect(app.tick(at: 10_000 + ClientApp.backoff[0]) == [.connect])
        _ = app.connectionLost("refused", at: 11_000)
        guard case .lost(_, let retryAt, _) = app.state.connection else { Issue.record("not lost"); return }
        #expect(retryAt == 11_000 + ClientApp.backoff[1], "the second wait is longer")
        _ = app.tick(at: retryAt)
        _ = app.connected(at: retryAt)
        let join = app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: retryAt)
        #expect(join.contains(.send(.join(JoinRequest(name: "alice", match: "duel-1", token: "tok", lastSeq: 5)))))
        #expect(app.state.view?.table.count == 12, "the table stays on screen meanwhile")
    }

    @Test func aRefusedTokenIsForgottenAndAFreshSeatTaken() {
        var app = ClientFixtures.app(ClientFixtures.view())
        let effects = app.receive(.error(WireError(.badToken, "no"), id: nil), at: 0)
        #expect(effects.prefix(2) == [.saveToken(nil), .send(.join(JoinRequest(name: "alice")))])
    }

    @Test func theFirstConnectionFailingEndsTheProgram() {
        var app = ClientApp(state: ClientState(options: ClientFixtures.configuration(), size: TerminalSize(columns: 80, rows: 24)))
        #expect(app.start(at: 0) == [.connect])
        #expect(app.connectionLost("cannot connect to 127.0.0.1:1: Connection refused", at: 0)
            == [.quit(status: 1, message: "setgame: cannot connect to 127.0.0.1:1: Connection refused")])
    }

    /// A door player over their address's share hears why, not only that the server closed.
    @Test func aFatalRefusalBeforeJoiningEndsTheProgramWithItsReason() {
        var app = ClientApp(state: ClientState(options: ClientFixtures.configuration(), size: TerminalSize(columns: 80, rows: 24)))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        let effects = app.receive(.error(WireError(.addressLimit, "Your address has 2 connections open, the most one address may hold.",
                                                   fatal: true), id: nil), at: 0)
        #expect(effects == [.quit(status: 1, message: "setgame: Your address has 2 connections open, the most one address may hold.")])
    }

    @Test func quittingMidDuelAsksFirstAndFinishedGamesForgetTheSeat() {
        var app = ClientFixtures.app(ClientFixtures.view())
        #expect(app.input(.key(.character("q")), at: 0).isEmpty)
        #expect(app.state.overlay == .confirmQuit)
        #expect(app.input(.key(.escape), at: 0).isEmpty)
        #expect(app.input(.key(.ctrl("c")), at: 0) == [.quit(status: 0, message: "setgame: your seat in duel-1 is kept for 2 min: run the same command to come back")])
        var over = ClientFixtures.app(ClientFixtures.view(phase: .over))
        #expect(over.input(.key(.character("q")), at: 0) == [.saveToken(nil), .quit(status: 0, message: nil)])
    }

    @Test func aClaimRaceLostSaysByHowMuch() {
        var app = ClientFixtures.app(ClientFixtures.view())
        _ = app.input(.key(.character("1")), at: 0)
        _ = app.receive(.error(WireError(.claimTaken, "x", details: ["holder": .int(1), "leadMs": .int(120)]), id: nil), at: 5)
        #expect(app.state.shownSelection.isEmpty)
        #expect(app.compose(at: 5).textLines[1].contains("bob called Set! first, by 120 ms"))
    }
}
