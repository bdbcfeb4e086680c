import Foundation
import SetClient
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
/// play` wires together (`HeadlessSoloGame`): the records file beside the kept game holds it.
@Suite(.serialized) struct LocalRecordsTests {
    /// The client a local game is wired into.
    static let client = ClientOptions(name: "sol")

    @Test func aFinishedLocalSoloGameUpdatesTheRecordsFile() throws {
        let state = "/tmp/setgame-local-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = try? FileManager.default.removeItem(atPath: state) }
        let game = try HeadlessSoloGame(state: state, seed: 7)
        defer { game.stop() }
        let taken = game.playToTheEnd()
        let score = try #require(game.view?.result?.scores.first)
        #expect(taken > 20)

        let records = RecordsFile.load(game.kept.recordsFile)
        #expect(records.games == 1 && records.bestScore == score)
        #expect(records.setsTaken == taken && records.fastestSetMs == 1_000 && records.secondsPerSet == 1.0)
        #expect(game.driver.app.compose(at: game.driver.now).textLines.contains { $0.contains("best score \(score)") })
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

        let ordinary = LocalGame.localMatch(solo, kept: kept, start: nil, again: "", onStart: {}, onHold: { _ in }, client: Self.client)
        #expect(ordinary.records == records)
        let day = LocalGame.localMatch(solo, kept: daily, start: nil, again: "", onStart: {}, onHold: { _ in }, client: Self.client)
        #expect(day.records == PersonalRecords(), "the daily deal's records start apart")
        TerminalClient.performLocal(.saveRecords(records), of: day.local)
        #expect(RecordsFile.load(daily.recordsFile) == records && daily.recordsFile != kept.recordsFile)
        #expect(LocalGame.localMatch(PlayOptions(), kept: KeptGame(stateDirectory: state, mode: .duel, player: "sol"), start: "You",
                                     again: "", onStart: {}, onHold: { _ in }, client: Self.client).records == nil)
    }
}
