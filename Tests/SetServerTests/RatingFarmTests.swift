import SetDatabase
import SetRatings
@testable import SetServer
import SetTestSupport
import Testing

/// A farm of fresh accounts, each losing once on purpose to one account (from the hostile audit of
/// 2026-12-01: 52 of them took one from 1500 to 2250 in a minute). Its rating moves, as Glicko-2
/// says it must; but under the standard rules an opponent counts among the different ones a
/// leaderboard asks for only with an established rating before the game, so the farm counts for
/// nothing toward it, however many accounts it has. Established opponents still count.
@Suite struct RatingFarmTests {
    @Test(arguments: TestStoreKind.allCases)
    func freshAccountsLosingOnPurposeCountForNothingTowardALeaderboard(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let store = subject.store
        let target = try store.create(.accountKey(digest: "target"), name: "target", bot: false, wallSeconds: 1).id
        var commitment = 0
        func beat(_ sock: Int) throws {
            commitment += 1
            _ = try store.record(SQLStoreTests.duel(target, sock, commitment: "farm-\(commitment)"), journal: "j",
                                 wallSeconds: 1_000 + Int64(commitment), policy: .standard)
        }
        for index in 0..<12 {
            try beat(try store.create(.accountKey(digest: "sock\(index)"), name: "sock\(index)", bot: false, wallSeconds: 1).id)
        }
        func standing() throws -> (rating: Double, opponents: Int64) {
            let row = try #require(try store.database.row("SELECT rating, opponents FROM ratings WHERE account_id = $1 AND variant = 'classic'",
                                                          .int(target)))
            return (try row.double(0), try row.int(1))
        }
        let farmed = try standing()
        #expect(farmed.rating > 1_700, "the rating moves: \(farmed.rating)")
        #expect(farmed.opponents == 0, "twelve fresh accounts, none counted")
        // An opponent whose rating was established before the game counts.
        let veteran = try store.create(.accountKey(digest: "veteran"), name: "veteran", bot: false, wallSeconds: 1).id
        try store.database.execute("""
            INSERT INTO ratings (account_id, variant, rating, deviation, volatility, rated_games, opponents, first_wall, last_wall, listed)
            VALUES ($1, 'classic', 1800, 60, 0.06, 30, 5, 1, 2, 1)
            """, .int(veteran))
        try beat(veteran)
        #expect(try standing().opponents == 1)
        // Under rules that count every opponent (a test's, or a server's before this one), the same farm would have.
        var counting = RatingPolicy.standard
        counting.opponentsMustBeEstablished = false
        #expect(counting.countsOpponent(ratedBefore: nil) && !RatingPolicy.standard.countsOpponent(ratedBefore: nil))
    }
}
