import SetClient
import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The arena on the one session (issue 44, items 2–3): the standings between duels, the duel's own
/// screen and keys once paired, the standings again after its end; pause and leave sent through the
/// session; an unknown arena ends the program with the server's words.
@Suite struct ArenaAppTests {
    static let welcome = ServerMessage.welcome(server: "t", versions: [1], time: 30_000, limits: ServerLimits())
    static let pairing = ArenaPairingNotice(arena: "friday", match: "arena-friday-3", token: "tok", opponent: "bob")

    static func app() -> ArenaApp {
        var options = ClientOptions(name: "ann")
        options.account = "k1"
        var app = ArenaApp(arena: "friday", options: options, size: TerminalSize(columns: 80, rows: 24))
        #expect(app.start(at: 0) == [.connect])
        _ = app.connected(at: 0)
        let joined = app.receive(welcome, at: 0)
        #expect(joined.contains(.send(.arena(.join(ArenaJoinRequest(arena: "friday", name: "ann", account: "k1"))))))
        _ = app.receive(.arena(ArenaScreenTests.state(), id: nil), at: 0)
        return app
    }

    static func text(_ app: ArenaApp) -> String { app.compose(at: 0).textLines.joined(separator: "\n") }

    @Test func theStandingsThenTheDuelThenTheStandingsAgain() {
        var app = Self.app()
        #expect(Self.text(app).contains("Arena friday · Classic, rated · 7:30 left"))
        let paired = app.receive(.arenaPairing(Self.pairing), at: 100)
        #expect(paired.contains(.saveToken("tok")))
        #expect(paired.contains { if case .send(.join(let join)) = $0 { join.match == "arena-friday-3" && join.token == "tok" } else { false } })
        _ = app.receive(.joined(role: .player, match: "arena-friday-3", mode: .duel, seat: .first, token: "tok", resumed: true, id: nil), at: 110)
        var view = ClientFixtures.view(seq: 5)
        view.match = "arena-friday-3"
        _ = app.receive(.snapshot(view), at: 120)
        #expect(app.isPlaying && !Self.text(app).contains("Arena friday"), "the duel's own screen")
        #expect(app.input(.key(.character("l")), at: 130).allSatisfy { $0 != .send(.arena(.leave)) }, "the duel has the keys")
        let over = WireEvent(match: "arena-friday-3", seq: 6, time: 9_000, body: .gameOver(
            MatchResult(reason: .noSetsLeft, by: nil, scores: [12, 9], winner: .first), seed: 7))
        _ = app.receive(.event(over), at: 9_000)
        #expect(!app.isPlaying && Self.text(app).contains("You beat bob 12–9."))
    }

    @Test func pauseAndLeaveGoThroughTheSession() {
        var app = Self.app()
        #expect(app.input(.key(.character("p")), at: 0) == [.send(.arena(.pause))])
        #expect(app.input(.key(.character("l")), at: 0) == [.send(.arena(.leave)), .quit(status: 0, message: nil)])
        #expect(app.outcome == .left && app.nextWake(at: 0) == nil)
    }

    @Test func anUnknownArenaEndsTheProgramWithTheServersWords() {
        var app = ArenaApp(arena: "nope", options: ClientOptions(name: "ann"), size: TerminalSize(columns: 80, rows: 24))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        _ = app.receive(Self.welcome, at: 0)
        let effects = app.receive(.error(WireError(.noSuchArena, "No arena is called nope."), id: nil), at: 10)
        #expect(effects.last == .quit(status: 1, message: "No arena is called nope."))
    }

    @Test func aLostConnectionBetweenDuelsIsMadeAgainAndTheArenaJoinedThere() {
        var app = Self.app()
        #expect(app.connectionLost("reset by peer", at: 1_000).allSatisfy { !$0.isQuit }, "joined once: retried, not given up")
        var effects: [ClientEffect] = []
        for now in stride(from: Int64(1_000), through: 10_000, by: 250) where !effects.contains(.connect) { effects += app.tick(at: now) }
        #expect(effects.contains(.connect))
        _ = app.connected(at: 10_000)
        #expect(app.receive(Self.welcome, at: 10_010).contains(.send(.arena(.join(ArenaJoinRequest(arena: "friday", name: "ann", account: "k1"))))))
    }

    @Test func theClockWakesTheScreenEachSecondBetweenDuels() {
        let app = Self.app()
        #expect((app.nextWake(at: 1_234) ?? .max) <= 2_000)
    }
}
