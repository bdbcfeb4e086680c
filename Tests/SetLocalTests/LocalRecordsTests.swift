import Foundation
import SetNet
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing
@testable import SetLocal
@testable import SetScreen
@testable import SetTerminal

/// A local solo game played to its end over real loopback sockets, through the parts `setgame
/// play` wires together: the local match it builds (`LocalGame.localMatch`), the configuration the
/// terminal client gives the app, the client's own driver, and the shell's performer of local
/// effects. The records file beside the kept game holds the finished game.
@Suite(.serialized) struct LocalRecordsTests {
    @Test func aFinishedLocalSoloGameUpdatesTheRecordsFile() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        var options = PlayOptions()
        options.solo = true
        options.seed = 7
        let kept = KeptGame(stateDirectory: state, mode: .solo, player: "sol")
        let table = try LocalTable.open(kept, store: SeatTokenStore(directory: state),
                                        config: LocalGame.serverConfig(options, daily: nil), log: .silent)
        defer { table.stop() }

        var client = ClientOptions(port: table.port, name: "sol", match: kept.match, mode: .solo, role: .player, animation: false)
        client.local = LocalGame.localMatch(options, kept: kept, start: nil, again: "setgame play --solo", onStart: {}, onHold: { _ in })
        let clock = ManualTime(1_000)
        let loop = try EventLoop()
        let app = ClientApp(state: ClientState(options: TerminalClient.configuration(client), size: TerminalSize(columns: 80, rows: 24),
                                               token: table.playerToken))
        let driver = ClientDriver(app: app, loop: loop, clock: clock, host: "127.0.0.1", port: table.port)
        driver.onEffect = { TerminalClient.performLocal($0, of: client.local) }
        driver.start()
        #expect(runLoop(loop) { driver.app.state.view?.table.isEmpty == false })

        // Every set taken one second after its table showed (a solo set stays on show until the
        // next touch, which deals in its place); a table without one is dealt over.
        var taken = 0
        func view() -> MatchView? { driver.app.state.view }
        while let now = view(), now.phase != .over {
            if let trio = now.combinations.first {
                driver.send(driver.app.state.session.request(.select(trio[0])))
                #expect(runLoop(loop) { view()?.selection == [trio[0]] })
                clock.advance(by: 1_000)
                for card in trio.dropFirst() { driver.send(driver.app.state.session.request(.select(card))) }
                taken += 1
                #expect(runLoop(loop) { view().map { $0.phase == .over || $0.shown == Match.ShownTrio(cards: trio, isSet: true) } ?? false })
            } else {
                let deck = now.deck
                if deck > 0 { driver.send(driver.app.state.session.request(.deal)) }
                #expect(runLoop(loop) { view().map { $0.phase == .over || $0.deck < deck } ?? false })
            }
        }
        let score = try #require(driver.app.state.view?.result?.scores.first)
        #expect(taken > 20)

        let records = RecordsFile.load(kept.recordsFile)
        #expect(records.games == 1 && records.bestScore == score)
        #expect(records.setsTaken == taken && records.fastestSetMs == 1_000 && records.secondsPerSet == 1.0)
        #expect(driver.app.compose(at: driver.now).textLines.contains { $0.contains("best score \(score)") })
    }

    /// Which games keep records, and where: solo in the kept game's file, a daily solo game in
    /// its own file beside it, a duel none.
    @Test func soloKeepsRecordsDailyKeepsItsOwnDuelNone() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        var solo = PlayOptions()
        solo.solo = true
        let deal = try #require(DailyDeal(year: 2026, month: 11, day: 25))
        let kept = KeptGame(stateDirectory: state, mode: .solo, player: "sol")
        let daily = KeptGame(stateDirectory: state, mode: .solo, daily: deal, player: "sol")
        var records = PersonalRecords()
        records.record(SoloGameTally(score: 12, setTimesMs: [3_000]))
        #expect(RecordsFile.save(records, to: kept.recordsFile) == nil)

        let ordinary = LocalGame.localMatch(solo, kept: kept, start: nil, again: "", onStart: {}, onHold: { _ in })
        #expect(ordinary.records == records)
        let day = LocalGame.localMatch(solo, kept: daily, start: nil, again: "", onStart: {}, onHold: { _ in })
        #expect(day.records == PersonalRecords(), "the daily deal's records start apart")
        TerminalClient.performLocal(.saveRecords(records), of: day)
        #expect(RecordsFile.load(daily.recordsFile) == records && daily.recordsFile != kept.recordsFile)
        #expect(LocalGame.localMatch(PlayOptions(), kept: KeptGame(stateDirectory: state, mode: .duel, player: "sol"), start: "You",
                                     again: "", onStart: {}, onHold: { _ in }).records == nil)
    }
}
