import SetClient
import SetRules
import SetWire
import Testing

/// The session alone: messages and times in, effects out, compared whole.
@Suite struct ClientSessionTests {
    static let welcome = ServerMessage.welcome(server: "t", versions: [1], time: 1_000, limits: ServerLimits())

    static func view(seq: Int = 5, match: String = "m") -> MatchView {
        MatchView(match: match, seq: seq, time: 1_000, mode: .duel, phase: .playing, game: 1,
                  players: [PlayerInfo(seat: .first, name: "ann", present: true, score: 0),
                            PlayerInfo(seat: .second, name: "bob", present: true, score: 0)],
                  spectators: 0, table: Array(Card.all.prefix(12)), deck: 69, selection: [], selectionSeat: nil,
                  window: nil, shown: nil, tableChangedAt: 1_000, rules: .standard, commitment: nil, result: nil,
                  seed: nil, rematchAsked: [], setsOnTable: nil)
    }

    static func event(_ seq: Int, match: String = "m") -> ServerMessage {
        .event(WireEvent(match: match, seq: seq, time: 2_000, body: .spectators(count: seq)))
    }

    /// A player session that has been welcomed, seated with token "tok", and shown `view()`.
    static func seated(pings: ClientSession.PingPolicy = .measuring) -> ClientSession {
        var session = ClientSession(.init(name: "ann", match: "m", variant: .chain, pings: pings))
        session.connected(at: 0)
        _ = session.receive(welcome, at: 0)
        _ = session.receive(.joined(role: .player, match: "m", mode: .duel, seat: .first, token: "tok", resumed: false, id: nil), at: 0)
        _ = session.receive(.snapshot(view()), at: 0)
        return session
    }

    // MARK: Welcome, join, resume

    @Test func theWelcomeIsAnsweredWithAPingAndTheJoin() {
        var session = ClientSession(.init(name: "ann", match: "m", variant: .chain))
        session.connected(at: 7)
        #expect(session.stage == .greeting)
        #expect(session.receive(Self.welcome, at: 10) == [
            .welcomed(serverTime: 1_000, limits: ServerLimits()), .send(.ping(time: 10)),
            .send(.join(JoinRequest(name: "ann", match: "m", variant: .chain)))])
        #expect(session.stage == .joining)
    }

    @Test func joiningKeepsTheNewTokenAndSaysWhetherItWasTheFirstJoin() {
        var session = ClientSession(.init(name: "ann"))
        session.connected(at: 0)
        _ = session.receive(Self.welcome, at: 0)
        let joined = ServerMessage.joined(role: .player, match: "m", mode: .duel, seat: .second, token: "tok", resumed: false, id: nil)
        #expect(session.receive(joined, at: 0) == [.saveToken("tok"), .joined(match: "m", seat: .second, resumed: false, first: true)])
        #expect(session.receive(joined, at: 0) == [.joined(match: "m", seat: .second, resumed: false, first: false)],
                "the same token is not saved twice")
        #expect(session.stage == .joined && session.seat == .second && session.matchName == "m" && session.token == "tok")
    }

    @Test func aReconnectionResumesWithTheTokenAndTheLastSeqSeen() {
        var session = Self.seated()
        session.disconnected()
        #expect(session.tick(at: 60_000).isEmpty, "nothing is sent or owed while offline")
        session.connected(at: 61_000)
        let effects = session.receive(Self.welcome, at: 61_000)
        #expect(effects.last == .send(.join(JoinRequest(name: "ann", match: "m", token: "tok", lastSeq: 5))),
                "a resume names its match (any node sends it on), not the variant: the token says which seat")
    }

    @Test func aKeptTokenWithTakeOverAsksForTheSeatEvenIfHeld() {
        var session = ClientSession(.init(name: "bot", match: "m", pings: .keepAlive), token: "kept", takeOver: true)
        session.connected(at: 0)
        #expect(session.receive(Self.welcome, at: 0) == [
            .welcomed(serverTime: 1_000, limits: ServerLimits()),
            .send(.join(JoinRequest(name: "bot", match: "m", token: "kept", takeOver: true)))])
    }

    @Test func aRefusedTokenIsForgottenAndAFreshSeatAskedFor() {
        var session = Self.seated()
        #expect(session.receive(.error(WireError(.badToken, "no"), id: nil), at: 0) == [
            .saveToken(nil), .send(.join(JoinRequest(name: "ann", match: "m", variant: .chain))),
            .log("seat token refused; joining afresh")])
        #expect(session.token == nil)
    }

    @Test func aSeatInUseIsTakenOverOnlyWhenAgreedOrOurOwn() {
        var fresh = ClientSession(.init(name: "ann"), token: "kept")
        fresh.connected(at: 0)
        _ = fresh.receive(Self.welcome, at: 0)
        let inUse = WireError(.seatInUse, "held")
        #expect(fresh.receive(.error(inUse, id: nil), at: 0) == [.seatInUse(inUse)], "a first join asks the user")
        #expect(fresh.agreeToTakeOver() == [.send(.join(JoinRequest(name: "ann", token: "kept", takeOver: true)))])

        var ours = Self.seated()
        ours.disconnected()
        ours.connected(at: 1_000)
        _ = ours.receive(Self.welcome, at: 1_000)
        #expect(ours.receive(.error(inUse, id: nil), at: 1_000) == [
            .send(.join(JoinRequest(name: "ann", match: "m", token: "tok", lastSeq: 5, takeOver: true))),
            .log("seat still held by our old connection; taking it over")])
    }

    /// Issue 32, item 19: a taken name never leaves a client "joining" forever.
    @Test func aTakenNameIsSwappedForTheSuggestionOnlyByAClientWhosePlayerChoseNone() {
        let taken = WireError(.nameTaken, "The name \"guest-4321\" is a guest's in that match; try \"guest-43212\".",
                              details: ["suggestion": .string("guest-43212")])
        var door = ClientSession(.init(name: "guest-4321", match: "m"))
        door.options.takesSuggestedName = true
        door.connected(at: 0)
        _ = door.receive(Self.welcome, at: 0)
        #expect(door.receive(.error(taken, id: nil), at: 0) == [
            .send(.join(JoinRequest(name: "guest-43212", match: "m"))),
            .log("name taken; joining as guest-43212, as the server suggested")])
        #expect(door.options.name == "guest-43212")
        // A few times at most: a server that keeps refusing is passed on, never looped on.
        for round in 1..<ClientSession.maxSuggestionsTaken {
            let next = WireError(.nameTaken, "taken", details: ["suggestion": .string("guest-\(round)")])
            #expect(door.receive(.error(next, id: nil), at: 0).first == .send(.join(JoinRequest(name: "guest-\(round)", match: "m"))))
        }
        let last = WireError(.nameTaken, "taken", details: ["suggestion": .string("guest-9")])
        #expect(door.receive(.error(last, id: nil), at: 0) == [.refused(last)])

        // A player who chose the name decides: the refusal goes to the driver.
        var chosen = ClientSession(.init(name: "bob", match: "m"))
        chosen.connected(at: 0)
        _ = chosen.receive(Self.welcome, at: 0)
        let bob = WireError(.nameTaken, "taken", details: ["suggestion": .string("bob2")])
        #expect(chosen.receive(.error(bob, id: nil), at: 0) == [.refused(bob)])
        #expect(chosen.options.name == "bob")
    }

    @Test func aWelcomeWithoutOurProtocolGivesUp() {
        var session = ClientSession(.init(name: "ann"))
        session.connected(at: 0)
        let effects = session.receive(.welcome(server: "t", versions: [2, 3], time: 0, limits: ServerLimits()), at: 0)
        #expect(effects.last == .gaveUp(.unsupportedProtocol(serverVersions: [2, 3])))
        #expect(SessionEnd.unsupportedProtocol(serverVersions: [2, 3]).reason == "the server speaks protocol 2, 3, this client 1")
        #expect(session.stage == .offline)
    }

    @Test func aSpectatorWithoutAMatchChoosesFirstAndChoosesAgainWhenItIsGone() {
        var session = ClientSession(.init(name: "eve", role: .spectator))
        session.connected(at: 0)
        #expect(session.receive(Self.welcome, at: 0).last == .readyToChoose)
        #expect(session.stage == .choosing && session.isChoosing)
        #expect(session.watch("m") == [.send(.join(JoinRequest(role: .spectator, name: "eve", match: "m")))])
        let gone = WireError(.noSuchMatch, "gone")
        #expect(session.receive(.error(gone, id: nil), at: 0) == [.refused(gone)])
        #expect(session.isChoosing && session.stage == .choosing && session.matchName == nil)
    }

    // MARK: Pings and giving up

    @Test func measuringPingsEveryIntervalAndGivesUpOnTheOldestUnansweredOne() {
        var session = Self.seated(pings: .measuring)
        #expect(session.nextPingAt == ClientSession.pingInterval)
        #expect(session.tick(at: 4_999).isEmpty)
        #expect(session.tick(at: 5_000) == [.send(.ping(time: 5_000))], "answered or not: each pong is a clock sample")
        #expect(session.receive(.pong(time: 9_000, clientTime: 0, id: nil), at: 5_010) == [.pong(serverTime: 9_000, sentAt: 0)])
        _ = session.tick(at: 10_000)
        #expect(session.awaitingAnswerSince == 10_000)
        #expect(session.tick(at: 39_999) == [.send(.ping(time: 39_999))], "pings keep going while within the limit")
        #expect(session.tick(at: 40_000) == [.gaveUp(.silent(ms: 30_000))])
        #expect(session.stage == .offline && session.nextWake == nil)
        #expect(SessionEnd.silent(ms: 30_000).reason == "the server did not answer for 30 s")
    }

    @Test func keepAlivePingsOneAtATimeAndWakesForTheLimit() {
        var session = Self.seated(pings: .keepAlive)
        #expect(session.awaitingAnswerSince == nil, "no ping with the welcome")
        #expect(session.tick(at: 5_000) == [.send(.ping(time: 5_000))])
        #expect(session.tick(at: 10_000).isEmpty, "one unanswered ping, not one every interval")
        #expect(session.nextWake == 15_000)
        _ = session.tick(at: 30_000)
        #expect(session.nextWake == 35_000, "the limit is a wake of its own")
        #expect(session.tick(at: 35_000) == [.gaveUp(.silent(ms: 30_000))])
    }

    @Test func aServerThatNeverWelcomesIsGivenUp() {
        var session = ClientSession(.init(name: "ann", pings: .keepAlive))
        session.connected(at: 100)
        #expect(session.tick(at: 30_099).isEmpty)
        #expect(session.tick(at: 30_100) == [.gaveUp(.silent(ms: 30_000))])
    }

    @Test func aServerPingIsAnsweredOnlyWhenNoPingOfOursIsOnItsWay() {
        var session = Self.seated(pings: .keepAlive)
        #expect(session.receive(.ping(time: 1), at: 100) == [.send(.ping(time: 100))])
        #expect(session.receive(.ping(time: 2), at: 200).isEmpty)
    }

    // MARK: The view

    @Test func eventsApplyInOrderAndAGapAsksForOneSnapshot() {
        var session = Self.seated()
        let before = session.view!
        guard case .event(let sixth) = Self.event(6) else { return }
        #expect(session.receive(.event(sixth), at: 0) == [.eventApplied(sixth, before: before)])
        #expect(session.view?.seq == 6 && session.view?.spectators == 6)
        #expect(session.receive(Self.event(6), at: 0).isEmpty, "an event seen already is dropped")
        #expect(session.receive(Self.event(7, match: "other"), at: 0).isEmpty, "another match's event is dropped")
        #expect(session.receive(Self.event(9), at: 0) == [.send(.snapshot), .log("missed events 7..<9; asking for a snapshot")])
        #expect(session.receive(Self.event(10), at: 0).isEmpty, "one snapshot, not one per event")
        #expect(session.view?.seq == 6)
        let fresh = Self.view(seq: 10), shown = session.view
        #expect(session.receive(.snapshot(fresh), at: 0) == [.viewReplaced(previous: shown)])
        #expect(session.view == fresh && !session.awaitingSnapshot)
        #expect(session.receive(Self.event(11), at: 0).count == 1, "events apply again after the snapshot")
    }

    /// A snapshot request the server dropped (`rate_limited` names no line) would leave the session
    /// ignoring every event for good: unanswered, it is asked for again, and only then.
    @Test func aSnapshotThatDoesNotComeIsAskedForAgain() {
        var session = Self.seated(pings: .keepAlive)
        _ = session.receive(Self.event(9), at: 1_000)
        #expect(session.nextWake.map { $0 <= 1_000 + ClientSession.snapshotPatience } == true)
        #expect(!session.tick(at: 1_000 + ClientSession.snapshotPatience - 1).contains(.send(.snapshot)), "not before its time")
        let again = session.tick(at: 1_000 + ClientSession.snapshotPatience)
        #expect(again.contains(.send(.snapshot)))
        #expect(!session.tick(at: 1_001 + ClientSession.snapshotPatience).contains(.send(.snapshot)), "once per wait, not per tick")
        _ = session.receive(.snapshot(Self.view(seq: 10)), at: 7_000)
        #expect(!session.tick(at: 13_000).contains(.send(.snapshot)), "nothing is owed once it came")
        #expect(session.receive(Self.event(11), at: 13_000).count == 1)
    }

    @Test func aNewConnectionForgetsASnapshotAskedForOnTheOldOne() {
        var session = Self.seated()
        _ = session.receive(Self.event(9), at: 0)
        session.disconnected()
        session.connected(at: 1)
        #expect(!session.awaitingSnapshot)
    }

    @Test func insightCountsOnlyForTheMatchWatched() {
        var session = Self.seated()
        #expect(session.receive(.insight(match: "other", seq: 1, setsOnTable: 3), at: 0).isEmpty)
        #expect(session.receive(.insight(match: "m", seq: 6, setsOnTable: 2), at: 0) == [.setsOnTable(2)])
        #expect(session.setsOnTable == 2)
    }

    // MARK: Refusals, typed

    @Test func rulesRefusalsComeBackTypedFromTheWire() throws {
        let line = #"{"code":"claim_taken","fatal":false,"holder":0,"id":"b1","leadMs":120,"message":"ann called \"Set!\" first, by 120 ms.","type":"error"}"#
        guard case .error(let error, _) = try ServerMessageCoding.decode(Array(line.utf8)).get() else {
            Issue.record("not an error")
            return
        }
        #expect(error.refusal == .claimTaken(holder: .first, leadMs: 120))
        var session = Self.seated()
        #expect(session.receive(.error(error, id: "b1"), at: 0) == [.refused(error)])
    }

    @Test(arguments: [RuleRefusal.matchOver, .matchNotOver, .claimFirst, .notYourWindow(holder: .second),
                      .claimTaken(holder: .second, leadMs: 40), .alreadyYourWindow, .finishYourClaim,
                      .cardNotOnTable(Card.all[80]), .deckEmpty, .noWindowToPass, .hintsDisabled, .noSetOnTable,
                      .rematchAlreadyAsked])
    func everyRefusalWithItsFactsOnTheWireTravelsTyped(_ refusal: RuleRefusal) throws {
        let line = ServerMessageCoding.line(.error(WireError(refusal), id: nil))
        guard case .error(let error, _) = try ServerMessageCoding.decode(line.dropLast()).get() else {
            Issue.record("not an error")
            return
        }
        #expect(error.refusal == refusal)
    }

    @Test func refusalsWithoutTheirFactsOrNotTheRulesAreNotTyped() {
        #expect(WireError(.claimTaken, "x", details: ["holder": 1]).refusal == nil, "no leadMs")
        #expect(WireError(.claimTaken, "x", details: ["holder": 7, "leadMs": 3]).refusal == nil, "no such seat")
        #expect(WireError(.cardNotOnTable, "x", details: ["card": 81]).refusal == nil)
        #expect(WireError(.notInSolo("Passing")).refusal == nil, "its subject does not travel")
        #expect(WireError(.badToken, "x").refusal == nil)
    }
}

/// A session that joins at once, as a bot does.
@Suite struct EagerJoinTests {
    @Test func aSessionThatJoinsAtOnceSendsOneJoinBeforeTheWelcome() {
        var options = ClientOptions(name: "bot", match: "m", pings: .keepAlive)
        options.joinsAtOnce = true
        var session = ClientSession(options)
        #expect(session.connected(at: 0) == [.send(.join(JoinRequest(name: "bot", match: "m")))])
        #expect(session.receive(ClientSessionTests.welcome, at: 0) == [.welcomed(serverTime: 1_000, limits: ServerLimits())])
        #expect(session.stage == .joining)
    }
}
