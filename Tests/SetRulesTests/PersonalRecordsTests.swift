import Testing
@testable import SetRules

/// The personal records a solo player keeps: best score, fastest set, seconds per set, and the
/// sets missed before dealing, and the game-over lines that show them.
@Suite struct PersonalRecordsTests {
    private func cards(_ ids: [Int]) -> [Card] { ids.compactMap { Card(id: $0) } }

    @Test func aFirstGameSetsTheRecordsAndBeatsNone() {
        var records = PersonalRecords()
        let game = SoloGameTally(score: 90, setTimesMs: [4_000, 2_150, 6_000])
        let beaten = records.record(game)
        #expect(beaten == PersonalRecords.Beaten())
        #expect(records.games == 1 && records.bestScore == 90 && records.fastestSetMs == 2_150)
        #expect(records.setsTaken == 3 && records.secondsPerSet == 4.05)
        #expect(records.gameOverLines(game, beaten: beaten)
            == ["best score 90", "fastest set 2.2 s · 4.1 s a set", "no set missed before dealing"])
    }

    @Test func aBetterGameBeatsTheRecordsAWorseOneKeepsThem() {
        var records = PersonalRecords()
        records.record(SoloGameTally(score: 90, setTimesMs: [3_000]))
        let better = SoloGameTally(score: 120, setTimesMs: [1_000, 5_000])
        let beaten = records.record(better)
        #expect(beaten.bestScore && beaten.fastestSet)
        #expect(records.gameOverLines(better, beaten: beaten)
            == ["best score 120 (new record!)", "fastest set 1.0 s (new record!) · 3.0 s a set", "no set missed before dealing"])
        let worse = records.record(SoloGameTally(score: -20, setTimesMs: []))
        #expect(worse == PersonalRecords.Beaten())
        #expect(records.games == 3 && records.bestScore == 120 && records.fastestSetMs == 1_000 && records.setsTaken == 3)
    }

    @Test func theSetsOnTheTableAtEachDealWereMissed() {
        // 0, 1, 2 differ only in number: a set. 0, 3, 6 too; a table of 0...8 holds several.
        let oneSet = cards([0, 1, 2, 4])
        let none = cards([0, 1, 4])
        #expect(SetLogic.allSets(in: oneSet).count == 1 && SetLogic.allSets(in: none).isEmpty)
        var game = SoloGameTally(score: 10, setTimesMs: [2_000])
        for table in [oneSet, none, oneSet] { game.dealt(over: table) }
        #expect(game.missedSets.count == 2)
        var records = PersonalRecords()
        let lines = records.gameOverLines(game, beaten: records.record(game))
        #expect(lines.last == "2 sets missed before dealing")
        var once = SoloGameTally(score: 0)
        once.dealt(over: oneSet)
        #expect(records.gameOverLines(once, beaten: .init()).last == "1 set missed before dealing")
    }

    /// A Set-Chain table dealt over misses only the sets that use one chain card: a plain set
    /// among the table's own cards would have been refused.
    @Test func aSetChainDealMissesOnlyChainSets() {
        let chain = cards([0, 1, 2]), table = cards([3, 4, 5])
        #expect(SetLogic.allSets(in: table).count == 1)
        var game = SoloGameTally(score: 0)
        game.dealt(over: table, chain: chain, variant: .chain)
        #expect(game.missedSets.isEmpty)
        game.dealt(over: table + [cards([6])[0]], chain: chain, variant: .chain)
        #expect(game.missedSets == Variant.chain.combinations(table: table + cards([6]), chain: chain) && !game.missedSets.isEmpty)
    }
}
