@testable import SetServer
import SetRatings
import SetRules
import SetTestSupport
import Testing

/// Which games a crosstable counts (Protocol.md, "Accounts and ratings"): every recorded duel
/// between the two accounts, rated or casual, of any variant; an aborted one in `games` only;
/// none against a guest or another account.
struct CrosstableCountTests {
    static func duel(_ n: Int, _ first: Int?, _ second: Int?, variant: Variant = .classic, casual: Bool = false,
                     scores: [Int] = [30, 12], reason: MatchResult.Reason = .noSetsLeft) -> FinishedGame {
        let winner: Seat? = scores[0] == scores[1] ? nil : scores[0] > scores[1] ? .first : .second
        return FinishedGame(match: "x\(n)", game: 1, commitment: String(repeating: String(n % 10), count: 64), mode: .duel, variant: variant,
                            result: MatchResult(reason: reason, by: nil, scores: scores, winner: winner),
                            seats: [FinishedGame.Seated(account: first, name: first.map { "p\($0)" } ?? "guest", casual: casual, sets: 3, setTimes: [4_000]),
                                    FinishedGame.Seated(account: second, name: second.map { "p\($0)" } ?? "guest", casual: casual, sets: 1, setTimes: [5_000])],
                            endedAt: Int64(n) * 1_000, durationMs: 60_000)
    }

    @Test(arguments: TestStoreKind.allCases) func everyRecordedDuelBetweenTheTwoAccountsRatedOrCasualAnyVariant(_ kind: TestStoreKind) throws {
        guard let under = try StoreUnderTest.make(kind) else { return }
        let store = under.store
        let ann = try store.create(.accountKey(digest: String(repeating: "a1", count: 32)), name: "ann", bot: false, wallSeconds: 1)
        let bob = try store.create(.accountKey(digest: String(repeating: "b2", count: 32)), name: "bob", bot: false, wallSeconds: 1)
        let cy = try store.create(.accountKey(digest: String(repeating: "c3", count: 32)), name: "cy", bot: false, wallSeconds: 1)
        let games = [Self.duel(1, ann.id, bob.id),                                   // rated, ann wins
                     Self.duel(2, bob.id, ann.id, casual: true),                      // casual, bob wins
                     Self.duel(3, ann.id, bob.id, variant: .junior, scores: [9, 9]),  // another variant, a draw
                     Self.duel(4, ann.id, nil),                                       // against a guest
                     Self.duel(5, ann.id, cy.id)]                                     // against another account
        for (n, game) in games.enumerated() {
            _ = try store.record(game, journal: "x\(n + 1).jsonl", wallSeconds: Int64(n + 1) * 100, policy: .standard)
        }
        let table = try store.crosstable("ann", "bob").get()
        #expect(table.fields["games"]?.intValue == 3)
        #expect(table.fields["wins"]?.intValue == 1 && table.fields["losses"]?.intValue == 1 && table.fields["draws"]?.intValue == 1)
    }
}
