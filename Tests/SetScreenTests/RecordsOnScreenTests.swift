import SetClient
import SetRules
import Testing
import SetWire
@testable import SetScreen

/// A local solo game's personal records: the client times each set from the table changing, counts
/// the sets left on each table dealt over, and at game over asks to keep the records and shows
/// them in the game-over box, readable at 80×24.
@Suite struct RecordsOnScreenTests {
    private func cards(_ ids: [Int]) -> [Card] { ids.compactMap { Card(id: $0) } }

    /// An app in a local solo game with `records` kept so far, its first table 0...11 shown at 0.
    private func soloApp(records: PersonalRecords?, size: TerminalSize = TerminalSize(columns: 80, rows: 24)) -> ClientApp {
        var options = ClientFixtures.configuration(mode: .solo)
        options.local = LocalMatch(onStart: {}, onHold: { _ in })
        options.records = records
        var app = ClientApp(state: ClientState(options: options, size: size))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        _ = app.receive(.welcome(server: "test", versions: [1], time: 1_000, limits: ServerLimits()), at: 0)
        _ = app.receive(.joined(role: .player, match: "duel-1", mode: .solo, seat: .first, token: "tok", resumed: false, id: nil), at: 0)
        _ = app.receive(.snapshot(ClientFixtures.view(cards: 12, mode: .solo)), at: 0)
        return app
    }

    /// A set taken 2.5 s after the table was shown, a deal over a table with sets, and the end.
    private func play(_ app: inout ClientApp, score: Int, reason: MatchResult.Reason = .noSetsLeft) -> [ClientEffect] {
        let after = cards([12, 13, 14] + Array(3...11))
        _ = app.receive(ClientFixtures.event(.rules(.setTaken(seat: .first, cards: cards([0, 1, 2]), points: 3, score: 3)), seq: 6), at: 2_500)
        _ = app.receive(ClientFixtures.event(.rules(.tableChanged(removed: cards([0, 1, 2]), added: cards([12, 13, 14]),
                                                                  table: after, deckCount: 66)), seq: 7), at: 2_500)
        _ = app.receive(ClientFixtures.event(.rules(.tableChanged(removed: [], added: cards([15, 16, 17]),
                                                                  table: after + cards([15, 16, 17]), deckCount: 63)), seq: 8), at: 4_000)
        return app.receive(ClientFixtures.event(.gameOver(MatchResult(reason: reason, by: reason == .resigned ? .first : nil,
                                                                      scores: [score], winner: nil), seed: nil), seq: 9), at: 5_000)
    }

    @Test func aFinishedSoloGameKeepsItsRecordsAndShowsThemAtGameOver() throws {
        var app = soloApp(records: PersonalRecords())
        let effects = play(&app, score: 7)
        let missed = SetLogic.allSets(in: cards([12, 13, 14] + Array(3...11))).count
        #expect(missed > 1)
        var expected = PersonalRecords()
        expected.games = 1
        expected.bestScore = 7
        expected.fastestSetMs = 2_500
        expected.setsTaken = 1
        expected.setTimeTotalMs = 2_500
        #expect(effects == [.saveRecords(expected)])
        let screen = app.compose(at: 5_000).textLines
        for line in ["best score 7", "fastest set 2.5 s · 2.5 s a set", "\(missed) sets missed before dealing", "You scored 7"] {
            #expect(screen.contains { $0.contains(line) }, "\(line) at 80×24:\n\(screen.joined(separator: "\n"))")
        }
        // The box still ends with its keys: nothing was pushed off the 80×24 screen.
        #expect(screen.contains { $0.contains("r new game") && $0.contains("q quit") })
    }

    @Test func aBetterGameIsCheeredAWorseOneKeepsTheRecords() {
        var best = PersonalRecords()
        best.record(SoloGameTally(score: 5, setTimesMs: [4_000]))
        var better = soloApp(records: best)
        _ = play(&better, score: 9)
        #expect(better.compose(at: 5_000).textLines.contains { $0.contains("best score 9 (new record!)") })
        #expect(better.compose(at: 5_000).textLines.contains { $0.contains("fastest set 2.5 s (new record!)") })

        var top = PersonalRecords()
        top.record(SoloGameTally(score: 50, setTimesMs: [1_000]))
        var worse = soloApp(records: top)
        guard case .saveRecords(let kept)? = play(&worse, score: 9).first else {
            Issue.record("a finished game is always counted in")
            return
        }
        #expect(kept.bestScore == 50 && kept.fastestSetMs == 1_000 && kept.games == 2)
        #expect(worse.compose(at: 5_000).textLines.contains { $0.contains("best score 50") && !$0.contains("new record") })
    }

    @Test func aResignedGameOrOneWithoutRecordsKeepsNothing() {
        var resigned = soloApp(records: PersonalRecords())
        #expect(play(&resigned, score: 40, reason: .resigned).isEmpty, "a resigned game is no record")
        var none = soloApp(records: nil)
        #expect(play(&none, score: 7).isEmpty)
        #expect(!none.compose(at: 5_000).textLines.contains { $0.contains("best score") })
    }
}

/// The daily deal's end box says which day's deal it was and how long it took: it had neither.
@Suite struct DailyEndBoxTests {
    @Test func theEndBoxNamesTheDayAndTheTimePlayed() {
        var view = ClientFixtures.view(mode: .solo, phase: .waiting)
        view.table = []
        var app = ClientFixtures.app(view, size: TerminalSize(columns: 80, rows: 24))
        app.state.options.daily = "2026-11-27"
        let start = GameStart(game: 1, table: Array(Card.all.prefix(12)), deck: 69, scores: [0], commitment: String(repeating: "a", count: 64))
        _ = app.receive(ClientFixtures.event(.gameStarted(start), seq: 6, time: 10_000), at: 0)
        let result = MatchResult(reason: .noSetsLeft, by: nil, scores: [240], winner: nil)
        _ = app.receive(ClientFixtures.event(.gameOver(result, seed: 9), seq: 7, time: 10_000 + 247_000), at: 1)
        let screen = app.compose(at: 2).textLines.joined(separator: "\n")
        #expect(screen.contains("the daily deal of 2026-11-27 (UTC) · played in 4:07"), "\(screen)")
        #expect(Overlays.clock(3_723_000) == "1:02:03" && Overlays.clock(59_999) == "0:59")
    }

    /// `play --daily` is solo with no start box: its time runs from the deal its first view shows
    /// (the end box had no "played in").
    @Test func aSoloDailyDealWithoutAStartBoxTimesItsGameFromTheDeal() {
        var view = ClientFixtures.view(mode: .solo)
        view.time = 20_000
        var app = ClientFixtures.app(view, size: TerminalSize(columns: 80, rows: 24))
        app.state.options.daily = "2026-11-27"
        let result = MatchResult(reason: .noSetsLeft, by: nil, scores: [240], winner: nil)
        _ = app.receive(ClientFixtures.event(.gameOver(result, seed: 9), seq: 6, time: 20_000 + 247_000), at: 6_000)
        let screen = app.compose(at: 6_001).textLines.joined(separator: "\n")
        #expect(screen.contains("the daily deal of 2026-11-27 (UTC) · played in 4:07"), "\(screen)")
    }

    /// A solo daily deal is dealt as it is joined: no `game_started` reaches the client, and the
    /// end box had no "played in" (issue 45). Its time runs from the start box's key.
    @Test func aSoloDailyDealTimesItsGameFromTheStartKey() {
        var app = ClientFixtures.app(ClientFixtures.view(mode: .solo), size: TerminalSize(columns: 80, rows: 24))
        app.state.options.daily = "2026-11-27"
        // As a start box leaves it (the fixture joins without one): waiting, and no time begun.
        app.state.awaitingStart = true
        app.state.gameStartedAt = nil
        _ = app.perform(.start, at: 5_000)
        let began = app.state.clock.serverTime(at: 5_000)
        let result = MatchResult(reason: .noSetsLeft, by: nil, scores: [240], winner: nil)
        _ = app.receive(ClientFixtures.event(.gameOver(result, seed: 9), seq: 6, time: began + 247_000), at: 6_000)
        let screen = app.compose(at: 6_001).textLines.joined(separator: "\n")
        #expect(screen.contains("the daily deal of 2026-11-27 (UTC) · played in 4:07"), "\(screen)")
    }
}
