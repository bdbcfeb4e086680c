import Foundation
import SetClient
import SetRules
import SetWire
import Testing
@testable import SetScreen

/// Issue 12: a seat is its owner's, a local game begins when the player is ready, and what the
/// client prints is true and safe.
@Suite struct ClientTrustTests {
    static let size = TerminalSize(columns: 120, rows: 40)

    /// An app with `configuration` that has joined seat 0 and holds `view`.
    static func app(_ configuration: ClientOptions, view: MatchView?, resumed: Bool = false,
                    size: TerminalSize = size) -> ClientApp {
        var app = ClientApp(state: ClientState(options: configuration, size: size))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        _ = app.receive(.welcome(server: "t", versions: [1], time: 1_000, limits: ServerLimits()), at: 0)
        _ = app.receive(.joined(role: .player, match: view?.match ?? "duel-1", mode: configuration.mode, seat: .first,
                                token: "tok", resumed: resumed, id: nil), at: 0)
        if let view { _ = app.receive(.snapshot(view), at: 0) }
        return app
    }

    static func local(mode: Mode = .duel, start: String? = "You against an easy bot") -> ClientOptions {
        var configuration = ClientFixtures.configuration(mode: mode)
        configuration.local = LocalMatch(onStart: {}, onHold: { _ in })
        configuration.startBoxTitle = start
        configuration.quitNote = "Your game is kept: 'setgame play' resumes it."
        configuration.confirmsQuit = mode == .duel
        configuration.resumeNote = "your unfinished game is back"
        configuration.watchLead = "A friend on this machine can watch with:"
        configuration.watchCommand = "swift run setgame watch 127.0.0.1:5 duel"
        return configuration
    }

    static func text(_ app: ClientApp, at now: Int64 = 0) -> String { app.compose(at: now).textLines.joined(separator: "\n") }

    /// A client welcomed by the server, its join sent and not yet answered.
    static func welcomed(_ configuration: ClientOptions = ClientFixtures.configuration(), token: String? = nil) -> ClientApp {
        var app = ClientApp(state: ClientState(options: configuration, size: size, token: token))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        _ = app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 0)
        return app
    }

    static func over(_ result: MatchResult, present: Bool = true) -> MatchView {
        var view = ClientFixtures.view(phase: .over)
        view.result = result
        view.players[1].present = present
        return view
    }

    // MARK: Seats

    @Test func aSeatInUseIsTakenOverOnlyWhenTheUserSaysSo() {
        var app = Self.welcomed(token: "tok")
        let refused = app.receive(.error(WireError(.seatInUse, "alice is still connected in this seat; join with \"takeOver\":true to take it over.\u{1B}]2;x\u{07}"), id: nil), at: 0)
        #expect(refused.isEmpty, "nothing is sent before the user decides")
        guard case .confirmTakeOver(let message) = app.state.overlay else {
            Issue.record("no question asked")
            return
        }
        #expect(!message.contains("\u{1B}"))
        #expect(message == "alice is still connected in this seat.")
        #expect(Self.text(app).contains("Your seat is in use"))
        #expect(app.input(.key(.character("s")), at: 0).isEmpty, "other keys do nothing")
        let taken = app.input(.key(.character("y")), at: 0)
        #expect(taken == [.send(.join(JoinRequest(name: "alice", token: "tok", takeOver: true)))])
    }

    @Test func decliningATakeOverQuitsAndLeavesTheSeatAlone() {
        var app = Self.welcomed(token: "tok")
        _ = app.receive(.error(WireError(.seatInUse, "alice is still connected"), id: nil), at: 0)
        let effects = app.input(.key(.character("n")), at: 0)
        #expect(effects.count == 1, "the kept token is not forgotten")
        guard case .quit(0, let message?) = effects.first else {
            Issue.record("no quit")
            return
        }
        #expect(message.contains("another --name"))
    }

    /// Issue 32, item 19: `join` under a name another account owns said "try bob2", then
    /// "Joining… connecting" forever. Now it exits with the reason and the name to ask for.
    @Test func aTakenNameEndsTheJoinWithTheReasonAndTheSuggestion() {
        var app = Self.welcomed()
        let taken = WireError(.nameTaken, "The name \"alice\" belongs to another player here; try \"alice2\".",
                              details: ["suggestion": .string("alice2")])
        let effects = app.receive(.error(taken, id: nil), at: 0)
        #expect(effects == [.quit(status: 1, message: "setgame: The name \"alice\" belongs to another player here; try \"alice2\". Join with --name alice2, or another --name.")])
    }

    /// A new account refused for now (the door's 50 keys from one network): the screen said the
    /// start of the reason and then "Joining…" for good. It ends with the whole reason.
    @Test func aJoinRefusedForANewAccountEndsWithTheWholeReason() {
        var app = Self.welcomed()
        let limited = WireError(.accountLimit, "Your address, or its network, has made as many new accounts as it may for now; try again in 39 s, or play as a guest.",
                                details: ["retryAfterMs": .int(39_000)])
        let effects = app.receive(.error(limited, id: nil), at: 0)
        #expect(effects == [.quit(status: 1, message: "setgame: \(limited.message)")])
        var joined = ClientFixtures.app(ClientFixtures.view())
        #expect(!joined.receive(.error(limited, id: nil), at: 0).contains { if case .quit = $0 { true } else { false } },
                "a rename refused in a game goes on with the game")
    }

    /// A Set! called while the opponent is away is refused (the match is paused): the screen
    /// stayed on "Calling Set!…" for good and no claim could be sent again once they were back.
    @Test func aClaimRefusedWhileTheMatchIsPausedCanBeMadeAgain() {
        var app = ClientFixtures.app(ClientFixtures.view())
        let claim = app.input(.key(.character("s")), at: 0)
        #expect(!claim.isEmpty && app.state.claimPending)
        _ = app.receive(.error(WireError(.waitingForOpponent, "The match is paused until bob is back."), id: nil), at: 10)
        #expect(!app.state.claimPending)
        #expect(app.input(.key(.character("s")), at: 20) == claim, "the next Set! is sent")
    }

    /// A hint costs every time it is asked, and shows the same set while the table is as it was:
    /// `c` again while that set is still marked asks nothing (it took 15 points for nothing).
    @Test func aHintStillMarkedIsNotAskedForAgain() {
        var app = ClientFixtures.app(ClientFixtures.view(mode: .solo))
        #expect(app.input(.key(.character("c")), at: 0) == [.send(.act(.hint, seat: nil, seen: nil))])
        let cards = Array(app.state.view!.table.prefix(3))
        _ = app.receive(.event(WireEvent(match: "duel-1", seq: 6, time: 1_100, body: .rules(.hintShown(seat: .first, cards: cards, cost: 15, score: -15)))), at: 100)
        #expect(app.state.hint == cards)
        #expect(app.input(.key(.character("c")), at: 200).isEmpty)
        #expect(Self.text(app, at: 200).contains("the hint is still marked"))
    }

    /// Leaving a duel under way with `join` says how long the seat waits and how to come back
    /// (only the log's path was printed); a finished game's result is said instead.
    @Test func leavingAGameUnderWaySaysTheSeatWaitsAndHowToComeBack() {
        var app = ClientFixtures.app(ClientFixtures.view())
        _ = app.input(.key(.character("q")), at: 0)
        let effects = app.input(.key(.character("y")), at: 0)
        let seatWait = ServerLimits().seatWaitMs / 60_000
        #expect(effects.last == .quit(status: 0, message: "setgame: your seat in duel-1 is kept for \(seatWait) min: run the same command to come back"))
    }

    /// The door's Quick duel after a drop at the end screen: the kept token resumed the finished
    /// game, and the player sat before its end box again. The seat is given up for a new one.
    @Test func aKeptSeatWhoseGameIsOverIsGivenUpWhenANewGameWasAsked() {
        var configuration = ClientFixtures.configuration()
        configuration.startsAfreshAfterAFinishedGame = true
        func resumed(_ phase: MatchPhase, _ configuration: ClientOptions) -> (ClientApp, [ClientEffect]) {
            var app = Self.welcomed(configuration, token: "old")
            _ = app.receive(.joined(role: .player, match: "duel-7", mode: .duel, seat: .first, token: "old", resumed: true, id: nil), at: 0)
            let effects = app.receive(.snapshot(ClientFixtures.view(phase: phase)), at: 0)
            return (app, effects)
        }
        var (app, effects) = resumed(.over, configuration)
        #expect(effects == [.saveToken(nil), .connect, .log("the kept seat's game is over: joining a new one")])
        #expect(app.state.token == nil)
        _ = app.connected(at: 10)
        let joined = app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 10)
        #expect(joined.contains(.send(.join(JoinRequest(name: "alice")))), "a fresh join, no token, no match")
        #expect(!resumed(.playing, configuration).1.contains(.connect), "a game under way is resumed")
        #expect(!resumed(.over, ClientFixtures.configuration()).1.contains(.connect), "the way back to a game shows its end")
    }

    @Test func theDoorsClientTakesTheSuggestedNameAndJoinsAgain() {
        var configuration = ClientFixtures.configuration()
        configuration.takesSuggestedName = true
        var app = Self.welcomed(configuration)
        let taken = WireError(.nameTaken, "taken", details: ["suggestion": .string("alice2")])
        let effects = app.receive(.error(taken, id: nil), at: 0)
        #expect(effects.first == .send(.join(JoinRequest(name: "alice2"))))
        #expect(!effects.contains { if case .quit = $0 { true } else { false } })
    }

    @Test func reconnectingAfterOurOwnDropTakesOurSeatBackWithoutAsking() {
        var app = ClientFixtures.app(ClientFixtures.view())
        _ = app.connectionLost("reset", at: 0)
        _ = app.tick(at: 10_000)
        _ = app.connected(at: 10_000)
        _ = app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 10_000)
        let effects = app.receive(.error(WireError(.seatInUse, "alice is still connected"), id: nil), at: 10_000)
        #expect(effects.first == .send(.join(JoinRequest(name: "alice", match: "duel-1", token: "tok", lastSeq: 5, takeOver: true))))
        #expect(app.state.overlay == nil)
    }

    @Test func theWaitingScreenSuggestsACommandThatTakesTheOtherSeat() {
        var configuration = ClientFixtures.configuration()
        configuration.command = "swift run setgame"
        let app = Self.app(configuration, view: ClientFixtures.view(cards: 0, phase: .waiting))
        #expect(Self.text(app).contains("swift run setgame join 127.0.0.1:7380 --match duel-1 --name friend"))
    }

    // MARK: Starting a local game

    @Test func aLocalDuelBeginsAtThePlayersFirstKey() {
        var app = Self.app(Self.local(), view: ClientFixtures.view(cards: 0, phase: .waiting))
        let screen = Self.text(app)
        #expect(screen.contains("Press any key to start"))
        #expect(screen.contains("You against an easy bot"))
        #expect(screen.contains(Variant.classic.rule))
        #expect(screen.contains("swift run setgame watch 127.0.0.1:5 duel"))
        #expect(app.input(.key(.character("d")), at: 0) == [.startLocal])
        #expect(!app.state.awaitingStart)
        #expect(app.perform(.start, at: 0).isEmpty, "the start happens once")
        #expect(!Self.text(app).contains("Press any key to start"))
    }

    /// At 80 columns the lead and the command no longer fit one line: the command must start its
    /// own, or the box breaks it after "setgame watch" and whoever copies that line watches nothing.
    @Test func theWatchCommandIsWholeOnALineOfItsOwnAtEightyColumns() {
        var configuration = Self.local()
        configuration.watchCommand = "swift run setgame watch 127.0.0.1:40001 duel"
        func boxLines(_ app: ClientApp) -> [String] {
            app.compose(at: 0).textLines.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
        }
        let waiting = ClientFixtures.view(cards: 0, phase: .waiting)
        let start = Self.app(configuration, view: waiting, size: TerminalSize(columns: 80, rows: 24))
        #expect(boxLines(start).contains("A friend on this machine can watch with:"))
        #expect(boxLines(start).contains("swift run setgame watch 127.0.0.1:40001 duel"), "in the box that starts the game")
        // The help keeps its notes (the watch command among them) only where the rows allow.
        var help = Self.app(configuration, view: waiting, size: TerminalSize(columns: 80, rows: 40))
        _ = help.input(.key(.character("?")), at: 0)
        #expect(help.state.overlay == .help)
        #expect(boxLines(help).contains("swift run setgame watch 127.0.0.1:40001 duel"), "in the help")
    }

    @Test func beforeTheStartQAndHelpStillWork() {
        var app = Self.app(Self.local(), view: ClientFixtures.view(cards: 0, phase: .waiting))
        #expect(app.input(.key(.character("?")), at: 0) == [.holdLocal(true)])
        #expect(app.state.overlay == .help)
        _ = app.input(.key(.escape), at: 0)
        #expect(app.input(.key(.character("q")), at: 0) == [.quit(status: 0, message: nil)])
    }

    @Test func helpHoldsTheLocalBotWhileOpen() {
        var app = Self.app(Self.local(start: nil), view: ClientFixtures.view())
        #expect(app.input(.key(.character("?")), at: 0) == [.holdLocal(true)])
        #expect(Self.text(app).contains("The game is paused while this help is open"))
        // The bot steps out to pause the match: the screen says paused, not "left" or "forfeit".
        _ = app.receive(ClientFixtures.event(.presence(seat: .second, present: false, forfeitAt: 9_000_000), seq: 6), at: 0)
        let paused = app.compose(at: 0).textLines[1]
        #expect(paused.contains("Paused while you read the help"))
        #expect(!paused.contains("left") && !paused.contains("forfeit"))
        #expect(app.input(.key(.escape), at: 0) == [.holdLocal(false)])
        var remote = ClientFixtures.app(ClientFixtures.view())
        #expect(remote.input(.key(.character("?")), at: 0).isEmpty, "a match on a server has someone to be unfair to")
    }

    @Test func aResumedGameSaysSo() {
        let app = Self.app(Self.local(start: nil), view: ClientFixtures.view(), resumed: true)
        #expect(Self.text(app, at: 1_000).contains("your unfinished game is back"))
    }

    @Test func theFirstGameShowsHowToPlayInOneLine() {
        let app = ClientFixtures.app(ClientFixtures.view())
        #expect(app.compose(at: 0).textLines[1].contains("Spot a set? 3 cards, each feature all alike or all different"))
        var second = ClientFixtures.view()
        second.game = 2
        #expect(!ClientFixtures.app(second).compose(at: 0).textLines[1].contains("each feature"))
    }

    // MARK: Quitting says what is kept

    @Test func quittingALocalGameSaysItIsKeptAndSoloDoesNotAsk() {
        var duel = Self.app(Self.local(start: nil), view: ClientFixtures.view())
        // Nothing is sent and nothing quits; the box holds the bot (issue 23 item 5).
        #expect(duel.input(.key(.character("q")), at: 0) == [.holdLocal(true)])
        #expect(Self.text(duel).contains("Your game is kept: 'setgame play' resumes it."))
        var solo = Self.app(Self.local(mode: .solo, start: nil), view: ClientFixtures.view(mode: .solo))
        #expect(solo.input(.key(.character("q")), at: 0) == [.quit(status: 0, message: nil)])
    }

    @Test func quittingAServerMatchSaysHowLongTheSeatWaits() {
        var app = ClientFixtures.app(ClientFixtures.view())
        _ = app.input(.key(.character("q")), at: 0)
        #expect(Self.text(app).contains("Your seat waits 2 minutes, then counts as forfeited"))
    }

    /// Resigned from the leave box, a duel's client leaves once the game's end is told: the
    /// server tells it once the record is committed, so the profile the door (or the player)
    /// asks next counts the game (issue 45: the door's menu missed the new rating).
    @Test func resignAndLeaveLeavesOnceTheEndIsTold() {
        var app = ClientFixtures.app(ClientFixtures.view())
        _ = app.input(.key(.character("q")), at: 0)
        #expect(app.input(.key(.character("x")), at: 0) == [.send(.act(.resign, seat: nil)), .saveToken(nil)])
        #expect(app.tick(at: 1_000).allSatisfy { !$0.isQuit }, "not before the end is told")
        let over = MatchResult(reason: .resigned, by: .first, scores: [42, 17], winner: .second)
        // Issue 23: the terminal keeps the result once the screen is gone.
        #expect(app.receive(ClientFixtures.event(.gameOver(over, seed: 9), seq: 6), at: 1_200).contains(
            .quit(status: 0, message: "setgame: you resigned: bob wins · you 42, bob 17")))
    }

    @Test func resignAndLeaveLeavesAnywayWhenTheEndIsLate() {
        var app = ClientFixtures.app(ClientFixtures.view())
        _ = app.input(.key(.character("q")), at: 0)
        _ = app.input(.key(.character("x")), at: 0)
        #expect(app.nextWake(at: 0) ?? .max <= ClientApp.resignedLeaveWaitMs)
        #expect(app.tick(at: ClientApp.resignedLeaveWaitMs) == [.quit(status: 0, message: "setgame: you resigned: bob wins · you 42, bob 17")])
    }

    // MARK: The end of a game

    @Test func theResultListsTheWinnerFirst() {
        let result = MatchResult(reason: .noSetsLeft, by: nil, scores: [42, 17], winner: .second)
        var view = Self.over(result)
        view.players[0].score = 17
        view.players[1].score = 42
        let screen = Self.text(ClientFixtures.app(view))
        #expect(screen.contains("bob 42   alice 17"))
    }

    @Test func noRematchIsOfferedAfterTheOpponentForfeited() {
        let result = MatchResult(reason: .forfeited, by: .second, scores: [42, 17], winner: .first)
        var app = ClientFixtures.app(Self.over(result, present: false))
        let screen = Self.text(app)
        #expect(!screen.contains("r rematch"))
        #expect(screen.contains("bob has left: no rematch"))
        #expect(app.input(.key(.character("r")), at: 0).isEmpty)
        #expect(app.compose(at: 0).textLines[1].contains("bob left the match: no rematch"))
        #expect(!Self.text(app).contains("Rematch r"), "nor does the button bar")
        #expect(Self.text(ClientFixtures.app(Self.over(MatchResult(reason: .noSetsLeft, by: nil, scores: [42, 17], winner: .first)))).contains("Rematch r"))
    }

    @Test func aSoloGameOverOffersANewGame() {
        var view = ClientFixtures.view(mode: .solo, phase: .over)
        view.result = MatchResult(reason: .noSetsLeft, by: nil, scores: [42], winner: nil)
        let app = ClientFixtures.app(view)
        #expect(app.compose(at: 0).textLines[1].contains("Game over: r new game · q quit"))
    }

    @Test func theHintKeySaysWhatItCosts() {
        var app = ClientFixtures.app(ClientFixtures.view(mode: .solo))
        _ = app.input(.key(.character("?")), at: 0)
        #expect(Self.text(app).contains("hint: show a set (costs 15 points)"))
    }

    // MARK: Text from the server

    @Test func aServerMessageShownAtQuitCarriesNoControlCharacters() {
        var app = ClientFixtures.app(ClientFixtures.view())
        let hostile = "full\u{1B}]2;owned\u{07}\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{9D}"
        let effects = app.receive(.error(WireError(.matchFull, hostile, fatal: true), id: nil), at: 0)
        guard case .quit(_, let message?) = effects.first else {
            Issue.record("no quit")
            return
        }
        #expect(!message.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9D })
        #expect(message.hasPrefix("setgame: full]2;owned"))
    }

    @Test func aWideNameKeepsTheScoreboardInPlace() {
        var view = ClientFixtures.view()
        view.players[1].name = "名前名前名前名前名前名前"
        let line = ClientFixtures.app(view).compose(at: 0).textLines[0]
        #expect(line.contains("名前名前名前名前名前名前"))
        #expect(line.contains("17"))
        #expect(line.contains("duel-1 · deck 69"))
    }
}

extension ClientTrustTests {
    @Test func newsOnANarrowScreenIsNotCrowdedOutByTheRule() {
        var app = ClientFixtures.app(ClientFixtures.view(), size: TerminalSize(columns: 80, rows: 24))
        _ = app.receive(ClientFixtures.event(.rules(.penalised(seat: .second, reason: .dealtWithSetOnTable, points: 15, score: 2)), seq: 6), at: 0)
        let line = app.compose(at: 0).textLines[1]
        #expect(line.contains("bob dealt over a set"))
        #expect(!line.contains("each feature"))
    }
}

extension ClientTrustTests {
    @Test func theStartBoxWrapsItsLinesOnAnEightyColumnTerminal() {
        var configuration = Self.local()
        configuration.watchLead = "A friend on this machine can watch with:"
        configuration.watchCommand = "/home/someone/projects/setgame/.build/debug/setgame watch 127.0.0.1:40001 duel"
        var app = ClientApp(state: ClientState(options: configuration, size: TerminalSize(columns: 80, rows: 24)))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        _ = app.receive(.welcome(server: "t", versions: [1], time: 1_000, limits: ServerLimits()), at: 0)
        _ = app.receive(.joined(role: .player, match: "duel-1", mode: .duel, seat: .first, token: "tok", resumed: false, id: nil), at: 0)
        _ = app.receive(.snapshot(ClientFixtures.view(cards: 0, phase: .waiting)), at: 0)
        let screen = Self.text(app)
        #expect(screen.contains("or all different."), "the rule's last words are on screen")
        #expect(screen.contains("/home/someone/projects/setgame/.build/debug/setgame watch 127.0.0.1:40001"),
                "the watch command is on screen, broken only at a space")
        #expect(screen.contains("│ duel "))
    }
}

extension ClientTrustTests {
    /// On a narrow terminal the match facts give way whole, least useful first: the deck count
    /// stays, and no fact is shown cut in half ("bob 17 ching ●" before).
    @Test func theScoreboardDropsWholeFactsOnANarrowTerminal() {
        var view = ClientFixtures.view()
        view.game = 3
        for columns in [40, 44, 50, 60, 80, 120] {
            let line = ClientFixtures.app(view, size: TerminalSize(columns: columns, rows: 24)).compose(at: 0).textLines[0]
            #expect(line.contains("deck 69"), "\(columns) columns: \(line)")
            let right = line.components(separatedBy: "17").last ?? ""
            let shown = right.components(separatedBy: "·").map { $0.trimmingCharacters(in: .whitespaces) }
                .flatMap { $0.components(separatedBy: "  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && $0 != "●" && !$0.hasSuffix("ms") }
            let whole = ["duel-1", "game 3", "deck 69", "2 watching"]
            #expect(shown.allSatisfy(whole.contains), "\(columns) columns: a fact cut in \(shown)")
        }
        let wide = ClientFixtures.app(view, size: TerminalSize(columns: 120, rows: 24)).compose(at: 0).textLines[0]
        #expect(wide.contains("duel-1 · game 3 · deck 69 · 2 watching"))
    }
}
