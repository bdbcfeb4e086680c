import Foundation
import SetDatabase
import SetRatings
import SetRules
@testable import SetServer
import SetTestSupport
import Testing

/// A finished game's record in few round trips (issue 43 item 3; `RecordRoundTripTests` counts
/// them): the rows it writes are the rows the version before wrote (frozen in
/// `Fixtures/record-rows-seed1.txt` by that version, over the differential history), and a record
/// whose commit was not heard is found when told again, never written twice.
@Suite struct RecordStatementsTests {
    static let fixture = AccountFixture.folder + "/record-rows-seed1.txt"

    /// Every table a record writes, with the columns that order its rows and the columns the
    /// frozen version had (`games.by_seat`, migration 13, came after it: `ArenaRecountTests`).
    static let tables: [(String, String, String)] = [
        ("accounts", "id", "*"), ("ratings", "account_id, variant", "*"), ("rated_opponents", "account_id, variant, opponent_id", "*"),
        ("games", "id", "id, commitment, match, game, mode, variant, rated, outcome, reason, winner, ended_at, duration_ms, wall, journal"),
        ("game_seats", "game_id, seat", "*"), ("account_games", "account_id, number", "*"), ("set_times", "account_id, ms", "*"),
    ]

    /// Every row of the record's tables, one line each, in key order.
    static func dump(_ database: Database) throws -> String {
        var lines: [String] = []
        for (table, order, columns) in tables {
            for row in try database.query("SELECT \(columns) FROM \(table) ORDER BY \(order)") {
                lines.append(table + "|" + row.values.map(\.description).joined(separator: "|"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: TestStoreKind.allCases)
    func theRecordWritesEveryRowTheOneStatementPerRowVersionWrote(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let lines = try AccountFixture.lines("differential-seed1.jsonl")
        try AccountFixture.replay(lines, into: subject.store, policy: SQLStoreDifferentialTests.policy)
        let rows = try Self.dump(subject.database.database)
        if ProcessInfo.processInfo.environment["SETGAME_FREEZE_RECORD_ROWS"] == "1", kind == .sqlite {
            try rows.write(toFile: Self.fixture, atomically: true, encoding: .utf8)
        }
        let frozen = try String(contentsOfFile: Self.fixture, encoding: .utf8)
        #expect(rows.split(separator: "\n").count > 2_000, "the history wrote too few rows to prove much")
        let (got, old) = (rows.split(separator: "\n"), frozen.split(separator: "\n"))
        #expect(got.count == old.count)
        if let first = zip(got, old).first(where: { $0 != $1 }) { Issue.record("first row that differs:\nnew \(first.0)\nold \(first.1)") }
    }

    @Test(arguments: TestStoreKind.allCases)
    func aRecordWhoseCommitWasNotHeardIsFoundWhenToldAgainNotWrittenTwice(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let losing = RecordRoundTripTests.Counting(subject.database.database)
        let store = SQLAccountStore(reading: losing)
        let ann = try store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1)
        let bob = try store.create(.accountKey(digest: "b"), name: "bob", bot: false, wallSeconds: 1)
        losing.losesCommitAnswer = true
        #expect(throws: StoreError.self) {
            try store.record(SQLStoreTests.duel(ann.id, bob.id, commitment: "c"), journal: "m.jsonl", wallSeconds: 5, policy: .standard)
        }
        let again = try store.record(SQLStoreTests.duel(ann.id, bob.id, commitment: "c"), journal: "m.jsonl", wallSeconds: 6, policy: .standard)
        #expect(again?.rated == true && again?.wallSeconds == 5, "the record as the lost commit wrote it")
        #expect(try subject.database.database.row("SELECT COUNT(*) FROM games")?.int(0) == 1)
        #expect(try subject.database.database.query("SELECT games FROM accounts ORDER BY id").map { try $0.int(0) as Int } == [1, 1])
        #expect(try subject.database.database.row("SELECT rated_games FROM ratings WHERE account_id = $1", .int(ann.id))?.int(0) == 1)
    }
}
