import SetRatings
import SetRules
@testable import SetServer
import Testing

/// Issue 32 items 7 and 8: a farm of fresh accounts trading wins for ten minutes lists nobody
/// and rates each pair six times at most; the kept leaderboard is always the one a full ranking
/// would give.
@Suite struct RatingFarmTests {
    final class Wall {
        var seconds: Int64 = 1_795_000_000
    }

    func finished(_ winner: Int, _ loser: Int, names: [String], number: Int) -> FinishedGame {
        FinishedGame(match: "farm", game: number, commitment: "c\(number)", mode: .duel, variant: .classic,
                     result: MatchResult(reason: .resigned, by: .second, scores: [3, 0], winner: .first),
                     seats: [.init(account: winner, name: names[winner], casual: false, sets: 1, setTimes: [900]),
                             .init(account: loser, name: names[loser], casual: false, sets: 0, setTimes: [])],
                     endedAt: Int64(number), durationMs: 4_000)
    }

    /// The issue's attack: 40 throwaway accounts feed wins to two of them, then the two trade wins,
    /// a game every 2 s for ten minutes. Honest players rated before are untouched.
    @Test func aTenMinuteFarmListsNobodyAndMovesNoHonestRating() throws {
        let accounts = try Accounts(directory: nil, faults: nil, log: .silent)
        let wall = Wall()
        accounts.wallSeconds = { wall.seconds }
        let names = (0..<42).map { "farm\($0)" } + ["honest1", "honest2"]
        for (id, name) in names.enumerated() {
            guard case .success = accounts.seat(name, identity: .accountKey(digest: name), bot: false) else { Issue.record("seat \(name)"); return }
            _ = id
        }
        let honest = [42, 43].map { accounts.book.accounts[$0].ratings[.classic] }
        var number = 0
        var rated = 0
        func play(_ winner: Int, _ loser: Int) {
            number += 1
            wall.seconds += 2
            let record = accounts.record(of: finished(winner, loser, names: names, number: number), journal: "farm.jsonl")
            if record.rated { rated += 1 }
            #expect(accounts.record(record))
        }
        while wall.seconds < 1_795_000_000 + 600 {
            for feeder in 2..<42 { play(feeder % 2, feeder) }
            for _ in 0..<20 { play(0, 1); play(1, 0) }
        }
        let board = try accounts.leaderboard(.classic, after: nil, limit: 50).get()
        #expect(board.fields["players"] == .array([]), "\(board.fields)")
        #expect([42, 43].map { accounts.book.accounts[$0].ratings[.classic] } == honest)
        // Each of the 41 pairs was rated six times at most, however many games it played.
        #expect(rated <= 41 * 6 && number > 41 * 6, "\(rated) of \(number) rated")
    }

    /// The kept order equals a full ranking after every rated game, through players joining the
    /// list, leaving it (a rating gone provisional again is not possible, but one falling behind
    /// others is) and trading places, in every variant asked for.
    @Test func theKeptLeaderboardIsAlwaysTheFullRanking() throws {
        for policy in [RatingPolicy.open, .standard] {
            let accounts = try Accounts(directory: nil, faults: nil, log: .silent, policy: policy)
            let wall = Wall()
            accounts.wallSeconds = { wall.seconds }
            let names = (0..<12).map { "p\($0)" }
            for name in names { _ = accounts.seat(name, identity: .accountKey(digest: name), bot: false) }
            var rng = SplitMix64(seed: 32)
            _ = try accounts.leaderboard(.classic, after: nil, limit: 1).get()  // built now, kept from here on
            for number in 1...600 {
                wall.seconds += 700
                let winner = Int(rng.next() % 12)
                let loser = (winner + 1 + Int(rng.next() % 11)) % 12
                #expect(accounts.record(accounts.record(of: finished(winner, loser, names: names, number: number), journal: "m.jsonl")))
                let kept = try accounts.leaderboard(.classic, after: nil, limit: 50).get()
                let full = try AccountReplies.leaderboard(.classic, ranked: AccountReplies.ranking(.classic, in: accounts.book, policy: policy),
                                                          after: nil, limit: 50, in: accounts.book).get()
                #expect(kept == full, "after game \(number)")
                if kept != full { return }
            }
            let listed = try accounts.leaderboard(.classic, after: nil, limit: 50).get().fields["players"]?.arrayValue?.count ?? 0
            #expect(listed > 0, "the games made someone established under \(policy)")
        }
    }
}
