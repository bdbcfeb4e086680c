import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import Testing

/// Ids come from the database (issue 42 item 11): two game commits that overlap on two
/// connections (two nodes) both succeed, and ids written by an import are followed, not reused.
@Suite struct DatabaseIDsTests {
    /// Two transactions, each recording a game of two accounts of its own, overlap on two
    /// connections of one PostgreSQL: both commit. With `MAX(id) + 1` both read the same id and the
    /// second insert waits on the first's row (here cut short by `lock_timeout`) then fails.
    @Test func twoOverlappingGameCommitsOnTwoConnectionsBothSucceed() throws {
        guard let subject = try StoreUnderTest.make(.postgres) else { return }
        let store = subject.store
        for (index, name) in ["ann", "bob", "cy", "dee"].enumerated() {
            _ = try store.create(.accountKey(digest: "\(index)"), name: name, bot: false, wallSeconds: 1)
        }
        let other = try SQLAccountStore(reading: subject.secondConnection())
        for database in [store.database, other.database] { try database.execute("SET lock_timeout = '2s'") }
        let first = GameRecord(of: SQLStoreTests.duel(0, 1, commitment: "first"), ratings: [:], pairGamesInWindow: 0,
                                   wallSeconds: 10, journal: "m.jsonl", policy: .open)
        let second = GameRecord(of: SQLStoreTests.duel(2, 3, commitment: "second"), ratings: [:], pairGamesInWindow: 0,
                                    wallSeconds: 10, journal: "m.jsonl", policy: .open)
        try store.database.execute("BEGIN")
        try other.database.execute("BEGIN")
        try store.insert(first, policy: .open)
        try other.insert(second, policy: .open)
        try other.database.execute("COMMIT")
        try store.database.execute("COMMIT")
        let ids = try store.database.query("SELECT id FROM games ORDER BY commitment").map { row throws -> Int in try row.int(0) }
        #expect(ids.count == 2 && Set(ids).count == 2)
        #expect(try store.game(commitment: "first") != nil && store.game(commitment: "second") != nil)
    }

    /// An account written under an id it already had (an import of the old log) is followed by
    /// the next one the database hands out, on both engines.
    @Test(arguments: TestStoreKind.allCases)
    func idsWrittenByAnImportAreFollowed(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let store = subject.store
        #expect(try store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1).id == 0)
        try store.insertAccount(id: 7, identity: .accountKey(digest: "b"), name: "bob", bot: false, wallSeconds: 1)
        try DatabaseIDs.catchUp("accounts", on: store.database)
        #expect(try store.create(.accountKey(digest: "c"), name: "cy", bot: false, wallSeconds: 1).id == 8)
    }
}
