import Foundation
import SetDatabase
import SetRatings
import SetRules
@testable import SetServer
import SetTestSupport
import Testing

/// How many statements (round trips, on PostgreSQL) a finished game's record takes, and how long,
/// on a real SQLite file and a real PostgreSQL (issue 42, "fewer round trips"): a rated duel of
/// two accounts with 27 sets between them.
@Suite(.serialized) struct RecordRoundTripTests {
    /// A database that counts the statements it is asked to run, and passes them on.
    final class Counting: Database {
        let inner: Database
        var statements = 0
        /// The next transaction commits, then says unavailable, as a connection lost before the
        /// answer to its COMMIT came would.
        var losesCommitAnswer = false
        init(_ inner: Database) { self.inner = inner }
        var dialect: SQLDialect { inner.dialect }
        func execute(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) {
            statements += 1
            try inner.execute(sql, values)
        }
        func query(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> [Row] {
            statements += 1
            return try inner.query(sql, values)
        }
        func transaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
            statements += 2  // BEGIN and COMMIT
            let result = try inner.transaction(body)
            if losesCommitAnswer {
                losesCommitAnswer = false
                throw DatabaseError(.unavailable, "the connection was lost before the answer to COMMIT came")
            }
            return result
        }
    }

    static func duel(_ number: Int) -> FinishedGame {
        let times = (0..<27).map { 900 + $0 * 731 % 20_000 }
        return FinishedGame(match: "m", game: number, commitment: "c\(number)", mode: .duel, variant: .classic,
                            result: MatchResult(reason: .noSetsLeft, by: nil, scores: [40, 30], winner: .first),
                            seats: [.init(account: 0, name: "ann", casual: false, sets: 15, setTimes: Array(times.prefix(15))),
                                    .init(account: 1, name: "bob", casual: false, sets: 12, setTimes: Array(times.suffix(12)))],
                            endedAt: 5_000, durationMs: 300_000)
    }

    /// The statements of one record: at most 10 (46 before the batched writes, 24 before the
    /// facts were read in one statement and the lists, counts and ratings written in one each),
    /// on both engines; the figure and the mean time of 40 records are printed.
    @Test(arguments: TestStoreKind.allCases)
    func aRatedDuelsRecordTakesFewStatements(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        _ = try subject.store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1)
        _ = try subject.store.create(.accountKey(digest: "b"), name: "bob", bot: false, wallSeconds: 1)
        let counting = Counting(subject.store.database)
        let store = SQLAccountStore(reading: counting)
        _ = try store.record(Self.duel(0), journal: "m.jsonl", wallSeconds: 10, policy: .open)
        counting.statements = 0
        _ = try store.record(Self.duel(1), journal: "m.jsonl", wallSeconds: 11, policy: .open)
        let perRecord = counting.statements
        let start = ContinuousClock.now
        for number in 2..<42 { _ = try store.record(Self.duel(number), journal: "m.jsonl", wallSeconds: Int64(10 + number), policy: .open) }
        let mean = (ContinuousClock.now - start) / 40
        print("record round trips (\(kind)): \(perRecord) statements, \(mean) a record (mean of 40)")
        #expect(perRecord <= 10)
        #expect(try subject.store.account(id: 0)?.ratings[.classic] != nil)
    }
}
