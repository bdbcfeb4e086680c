import SetClient
import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The lobby's app: the one session and the lobby screen, as the driver sees them. Pure: what
/// the screen shows and what the driver is asked to do, from messages, keys and times.
@Suite struct LobbyAppTests {
    static let welcome = ServerMessage.welcome(server: "t", versions: [1], time: 1_000, limits: ServerLimits())

    /// ann's lobby, greeted and listed at time 0.
    static func listed() -> LobbyApp {
        var app = LobbyApp(me: "ann", variant: .junior)
        #expect(app.start(at: 0) == [.connect])
        _ = app.connected(at: 0)
        _ = app.receive(welcome, at: 0)
        _ = app.receive(.lobby([LobbyEntry(name: "ann", variant: .junior), LobbyEntry(name: "bob", variant: .classic)], id: nil), at: 0)
        return app
    }

    @Test func theWelcomeEntersTheLobbyAndTheScreenListsWhatTheSessionHeard() {
        var app = LobbyApp(me: "ann", variant: .junior)
        _ = app.connected(at: 0)
        #expect(app.receive(Self.welcome, at: 0) == [.send(.lobby(.enter(JoinRequest(name: "ann", variant: .junior)))), .send(.list())])
        _ = app.receive(.lobby([LobbyEntry(name: "ann", variant: .junior), LobbyEntry(name: "bob", variant: .classic)], id: nil), at: 0)
        #expect(app.lobby.stage == .listed && app.lobby.others.map(\.name) == ["bob"])
        #expect(app.input(.key(.enter), at: 10) == [.send(.lobby(.challenge(name: "bob", variant: nil)))])
        #expect(app.input(.key(.character("r")), at: 20) == [.send(.lobby(.enter(JoinRequest(name: "ann", variant: .junior)))), .send(.list())])
    }

    @Test func anAcceptedChallengeLeavesTheLobbyForTheGamesClient() {
        var app = Self.listed()
        let notice = ChallengeNotice(from: "bob", to: "ann", variant: .chain, state: .accepted, match: "challenge-b-1", token: "tok")
        #expect(app.receive(.challenge(notice, id: nil), at: 100) == [.quit(status: 0, message: nil)],
                "the seat is the game's to take, on its own connection")
        #expect(app.outcome == .play(match: "challenge-b-1", token: "tok", variant: .chain))
        #expect(app.tick(at: 60_000).isEmpty && app.nextWake(at: 60_000) == nil)
    }

    @Test func aLobbyNodeThatDoesNotAnswerIsCountedDownThenTheFirstServerAskedAgain() {
        var app = Self.listed()
        #expect(app.receive(.redirect(Redirect(match: "~lobby", address: "127.0.0.9:7380"), id: nil), at: 100).contains(.connect))
        #expect(app.redirectedPlace == .tcp(host: "127.0.0.9", port: 7380))
        _ = app.connectionLost("connection refused", at: 200)
        #expect(app.outcome == nil && app.reconnectAt == 1_200 && app.redirectedPlace == nil)
        #expect(app.lobby.note?.contains("did not answer") == true)
        #expect(app.tick(at: 1_199).isEmpty)
        #expect(app.tick(at: 1_200) == [.connect])
    }

    @Test func aLossAfterTheWelcomeEndsTheLobby() {
        var app = Self.listed()
        #expect(app.connectionLost("reset", at: 300) == [.quit(status: 0, message: nil)])
        #expect(app.outcome == .failed("setgame: lost the server (reset)"))
    }

    @Test func aLobbyNodeAwayIsShownAndAskedAgainOnTheSessionsClock() {
        var app = Self.listed()
        let away = WireError(.nodeAway, "Away.", details: ["match": .string("~lobby"), "node": .string("b"), "retryAfterMs": .int(2_000)])
        #expect(app.receive(.error(away, id: nil), at: 1_000).isEmpty)
        #expect(app.lobby.note == "The lobby's server (b) is away; asking again in 2 s.")
        #expect(app.nextWake(at: 1_000) == 2_000, "the countdown's next second")
        #expect(app.tick(at: 3_000).prefix(2) == [.send(.lobby(.enter(JoinRequest(name: "ann", variant: .junior)))), .send(.list())])
    }
}

extension LobbyAppTests {
    /// The game goes on with the lobby's session: the seat's token and the lobby's node, where
    /// the duel was made, so its first join is the reserved seat's resume there.
    @Test func theGameGoesOnWithTheLobbysSessionToTheReservedSeat() {
        var app = Self.listed()
        _ = app.receive(.redirect(Redirect(match: "~lobby", address: "127.0.0.9:7380"), id: nil), at: 100)
        _ = app.connected(at: 110)
        _ = app.receive(Self.welcome, at: 110)
        let notice = ChallengeNotice(from: "bob", to: "ann", variant: .chain, state: .accepted, match: "challenge-b-1", token: "tok")
        _ = app.receive(.challenge(notice, id: nil), at: 200)
        var options = ClientOptions(name: "ann", match: "challenge-b-1")
        options.reservedSeat = true
        var state = ClientState(options: options, size: TerminalSize(columns: 80, rows: 24), token: "tok")
        state.continueSession(app.session)
        var game = ClientApp(state: state)
        #expect(game.redirectedPlace == .tcp(host: "127.0.0.9", port: 7380), "the lobby's node, not the first server")
        _ = game.start(at: 300)
        _ = game.connected(at: 300)
        let effects = game.receive(Self.welcome, at: 310)
        #expect(effects.contains(.send(.join(JoinRequest(name: "ann", match: "challenge-b-1", token: "tok")))))
        #expect(!effects.contains { if case .send(.lobby) = $0 { true } else { false } }, "the lobby is over")
    }
}
