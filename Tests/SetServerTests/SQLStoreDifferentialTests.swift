import Foundation
import SetRatings
import SetRules
@testable import SetServer
import SetTestSupport
import Testing

/// The oracle kept from the accounts log's engine, deleted in issue 34: random histories
/// (accounts, renames, rated, unrated, aborted, solo, drawn games, games against oneself, guests,
/// an unknown account) went to that engine and every answer it gave was frozen in `Fixtures/`
/// (`AccountFixture`). Both SQL engines must give the same answers, byte for byte: each game's
/// record, profiles, history pages with their cursors, crosstables, leaderboards.
@Suite struct SQLStoreDifferentialTests {
    /// Small enough that a few hundred games list players and hit the pair limit.
    static let policy = RatingPolicy(pairGamesPerWindow: 4, pairWindowSeconds: 2_000, leaderboardGames: 4, leaderboardOpponents: 2,
                                     leaderboardSpanSeconds: 600)

    @Test(arguments: TestStoreKind.allCases, [UInt64(1), 2, 3])
    func everyAnswerIsTheFrozenAnswerOfTheOldEngine(kind: TestStoreKind, seed: UInt64) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let lines = try AccountFixture.lines("differential-seed\(seed).jsonl")
        #expect(lines.count > 1_000)
        let listed = try AccountFixture.replay(lines, into: subject.store, policy: Self.policy)
        #expect(listed > 0, "no leaderboard listed anyone: the comparison proves little")
    }
}
