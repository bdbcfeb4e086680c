import SetRatings
import SetRules
@testable import SetServer
import Testing

/// Issue 32 items 7 and 8: a farm of fresh accounts trading wins for ten minutes lists nobody
/// and rates each pair six times at most. (That the leaderboard is the full ranking the rules
/// give is held by `SQLStoreDifferentialTests` against the old engine's frozen rankings.)
@Suite struct RatingFarmTests {
    func finished(_ winner: Int, _ loser: Int, names: [String], number: Int) -> FinishedGame {
        FinishedGame(match: "farm", game: number, commitment: "c\(number)", mode: .duel, variant: .classic,
                     result: MatchResult(reason: .resigned, by: .second, scores: [3, 0], winner: .first),
                     seats: [.init(account: winner, name: names[winner], casual: false, sets: 1, setTimes: [900]),
                             .init(account: loser, name: names[loser], casual: false, sets: 0, setTimes: [])],
                     endedAt: Int64(number), durationMs: 4_000)
    }

    /// The attack: 40 throwaway accounts feed wins to two of them, then the two trade wins,
    /// a game every 2 s for ten minutes. Honest players rated before are untouched.
    @Test func aTenMinuteFarmListsNobodyAndMovesNoHonestRating() throws {
        let store = try SQLAccountStore.open(.memory, dataFolder: nil, policy: .standard, wallSeconds: 1, log: .silent)
        var wall: Int64 = 1_795_000_000
        let names = (0..<42).map { "farm\($0)" } + ["honest1", "honest2"]
        for (id, name) in names.enumerated() {
            #expect(try store.create(.accountKey(digest: name), name: name, bot: false, wallSeconds: wall).id == id)
        }
        let honest = try [42, 43].map { try store.account(id: $0)?.ratings[.classic] }
        var number = 0
        var rated = 0
        func play(_ winner: Int, _ loser: Int) throws {
            number += 1
            wall += 2
            let record = try store.record(finished(winner, loser, names: names, number: number), journal: "farm.jsonl", wallSeconds: wall,
                                          policy: .standard)
            if record?.rated == true { rated += 1 }
        }
        while wall < 1_795_000_000 + 600 {
            for feeder in 2..<42 { try play(feeder % 2, feeder) }
            for _ in 0..<20 { try play(0, 1); try play(1, 0) }
        }
        let board = try store.leaderboard(.classic, after: nil, limit: 50).get()
        #expect(board.fields["players"] == .array([]), "\(board.fields)")
        #expect(try [42, 43].map { try store.account(id: $0)?.ratings[.classic] } == honest)
        // Each of the 41 pairs was rated six times at most, however many games it played.
        #expect(rated <= 41 * 6 && number > 41 * 6, "\(rated) of \(number) rated")
    }
}
