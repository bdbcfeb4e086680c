import SetArena
import Testing

/// Issue 44: lichess's Arena scoring, for Set, and the standings order, on values alone.
@Suite struct ArenaScoringTests {
    /// The scoring rule as Protocol.md says it, written independently: a game's points are the
    /// base (2, 1, 0) doubled when the two games before it, and every game since the streak
    /// began, were wins.
    static func oracle(_ outcomes: [ArenaOutcome]) -> (score: Int, streak: Int) {
        var score = 0, winsInARow = 0
        for outcome in outcomes {
            let base = outcome == .win ? 2 : outcome == .draw ? 1 : 0
            score += winsInARow >= 2 ? base * 2 : base
            winsInARow = outcome == .win ? winsInARow + 1 : 0
        }
        return (score, winsInARow)
    }

    static func sequences(length: Int) -> [[ArenaOutcome]] {
        guard length > 0 else { return [[]] }
        return sequences(length: length - 1).flatMap { prefix in ArenaOutcome.allCases.map { prefix + [$0] } }
    }

    @Test func everySequenceOfUpToSevenGamesScoresAsTheRuleSays() {
        for length in 0...7 {
            for outcomes in Self.sequences(length: length) {
                var record = ArenaRecord()
                for outcome in outcomes { record.record(outcome) }
                let expected = Self.oracle(outcomes)
                #expect(record.score == expected.score, "\(outcomes)")
                #expect(record.streak == expected.streak, "\(outcomes)")
                #expect(record.fire == (expected.streak >= 2), "\(outcomes)")
                #expect(record.games == outcomes.count)
                #expect(record.wins == outcomes.filter { $0 == .win }.count)
            }
        }
    }

    @Test func aStreakDoublesWinsAndDrawsUntilAGameIsNotWon() {
        var record = ArenaRecord()
        #expect([ArenaOutcome.win, .win, .win, .draw, .win].map { record.record($0) } == [2, 2, 4, 2, 2])
        #expect(record.score == 12 && !record.fire)
    }

    static func player(_ name: String, score: [ArenaOutcome] = [], rating: Int? = nil) -> ArenaPlayer {
        var player = ArenaPlayer(ArenaEntrant(name: name, rating: rating))
        for outcome in score { player.record.record(outcome) }
        return player
    }

    @Test func standingsGoByScoreThenFewerGamesThenRatingThenName() {
        let players = [
            Self.player("eve", score: [.win], rating: 1400),          // 2 in 1
            Self.player("dan", score: [.draw, .draw], rating: 2000),  // 2 in 2
            Self.player("cat", score: [.win, .win, .win]),            // 8
            Self.player("bob", score: [.win], rating: 1600),          // 2 in 1, higher rating
            Self.player("ann", score: [.win]),                        // 2 in 1, counts as 1500
            Self.player("abe", score: [.win]),                        // as ann, name first
        ]
        #expect(ArenaStandings.ordered(players).map(\.name) == ["cat", "bob", "abe", "ann", "eve", "dan"])
        #expect(ArenaStandings.winners(ArenaStandings.ordered(players)) == ["cat"])
    }

    @Test func beforeAnyoneScoredTheStandingsAreTheRatingOrderAndNobodyHasWon() {
        let players = [Self.player("a", rating: 1200), Self.player("b", rating: 1900), Self.player("c")]
        let ordered = ArenaStandings.ordered(players)
        #expect(ordered.map(\.name) == ["b", "c", "a"])
        #expect(ArenaStandings.winners(ordered).isEmpty)
    }

    @Test func aTieOnTopScoreHasSeveralWinners() {
        let players = [Self.player("a", score: [.win]), Self.player("b", score: [.draw, .draw]), Self.player("c", score: [.draw])]
        #expect(ArenaStandings.winners(ArenaStandings.ordered(players)) == ["a", "b"])
    }
}
