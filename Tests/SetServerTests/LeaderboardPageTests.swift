import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// The leaderboard pages by key, not by offset (issue 42 item 15), on a real SQLite file and a
/// real PostgreSQL: a page boundary inside a tie neither repeats nor skips anyone, and a player
/// listed above the boundary between two pages does not push a row of the first into the second.
@Suite struct LeaderboardPageTests {
    static func list(_ store: SQLAccountStore, _ name: String, digest: String, rating: Double) throws {
        let id = try store.create(.accountKey(digest: digest), name: name, bot: false, wallSeconds: 1).id
        try store.database.execute("""
            INSERT INTO ratings (account_id, variant, rating, deviation, volatility, rated_games, opponents, first_wall, last_wall, listed)
            VALUES ($1, 'classic', $2, 60, 0.06, 20, 5, 1, 2, 1)
            """, .int(id), .double(rating))
    }

    static func page(_ store: SQLAccountStore, after: String?) throws -> (names: [String], ranks: [Int64], next: String?) {
        guard case .success(let info) = try store.leaderboard(.classic, after: after, limit: 2) else {
            Issue.record("refused")
            return ([], [], nil)
        }
        let players = info.fields["players"]?.arrayValue ?? []
        return (players.compactMap { $0.objectValue?["name"]?.stringValue }, players.compactMap { $0.objectValue?["rank"]?.intValue },
                info.fields["next"]?.stringValue)
    }

    @Test(arguments: TestStoreKind.allCases)
    func aPageBoundaryInsideATieNeitherRepeatsNorSkipsAnyone(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let store = subject.store
        // Three tied at 1600.123 (an exact rating that is no round number), between 1700 and 1500.
        for (index, (name, rating)) in [("top", 1_700.5), ("tie1", 1_600.123456789), ("tie2", 1_600.123456789),
                                         ("tie3", 1_600.123456789), ("low", 1_500.25)].enumerated() {
            try Self.list(store, name, digest: "\(index)", rating: rating)
        }
        let first = try Self.page(store, after: nil)
        #expect(first.names == ["top", "tie1"])
        #expect(first.ranks == [1, 2])
        // Someone is listed above the boundary between the two pages.
        try Self.list(store, "new", digest: "n", rating: 1_800)
        let afterFirst: String = try #require(first.next)
        let second = try Self.page(store, after: afterFirst)
        #expect(second.names == ["tie2", "tie3"])
        #expect(second.ranks == [3, 4])
        let afterSecond: String = try #require(second.next)
        let third = try Self.page(store, after: afterSecond)
        #expect(third.names == ["low"])
        #expect(third.next == nil)
        // A cursor that is not one the server gave is refused, as before.
        let forged = try store.leaderboard(.classic, after: "3:x:1", limit: 2)
        guard case .failure(let error) = forged else {
            Issue.record("a forged cursor was accepted")
            return
        }
        #expect(error.code == .badField)
    }
}
