import SetRules
@testable import SetScreen
import SetWire
import Testing

/// Both players' round trips, as the server measures them for fair claim races, on the scoreboard.
@Suite struct RoundTripScoreboardTests {
    static let standard = TerminalSize(columns: 80, rows: 24)

    @Test(arguments: [Role.player, .spectator])
    func bothRoundTripsShowBesideTheScoresAt80Columns(role: Role) {
        var app = ClientFixtures.app(ClientFixtures.view(), size: Self.standard, role: role)
        #expect(!app.compose(at: 0).textLines[0].contains("ms "), "no round trips before the server measures them")
        _ = app.receive(.roundTrips(match: "duel-1", ms: [12, 170]), at: 10)
        let scoreboard = app.compose(at: 20).textLines[0]
        #expect(scoreboard.contains("42 ping 12ms") && scoreboard.contains("17 ping 170ms"), "'\(scoreboard)'")
    }

    @Test func aSnapshotCarriesThemAndAnotherMatchsAreIgnored() {
        var view = ClientFixtures.view()
        view.roundTripMs = [30, nil]
        var app = ClientFixtures.app(view, size: Self.standard)
        _ = app.receive(.roundTrips(match: "elsewhere", ms: [1, 2]), at: 10)
        let scoreboard = app.compose(at: 20).textLines[0]
        #expect(scoreboard.contains("42 ping 30ms") && !scoreboard.contains("2ms"), "'\(scoreboard)'")
    }

    @Test func theyGiveWayBeforeThePlayersOnANarrowScreen() {
        var app = ClientFixtures.app(ClientFixtures.view(), size: TerminalSize(columns: 40, rows: 12))
        _ = app.receive(.roundTrips(match: "duel-1", ms: [12, 170]), at: 10)
        let scoreboard = app.compose(at: 20).textLines[0]
        #expect(scoreboard.contains("alice") && scoreboard.contains("bob") && !scoreboard.contains("170ms"), "'\(scoreboard)'")
    }
}
