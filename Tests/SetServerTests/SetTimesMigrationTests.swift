import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import Testing

/// Issue 43: `set_times` is one B-tree on SQLite (`WITHOUT ROWID`, migration 14), and a store
/// made before keeps every count through the change; PostgreSQL's table is as it was.
@Suite struct SetTimesMigrationTests {
    @Test func aStoreMadeBeforeKeepsItsSetTimesInOneBTree() throws {
        let folder = temporaryFolder("setgame-set-times")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try accountsFile(before: SQLAccountSchema.setTimesWithoutRowID, in: folder)
        try database.execute("INSERT INTO accounts (id, identity, name, bot, created_wall) VALUES (0, 'key:a', 'ann', 0, 1), (1, 'key:b', 'bob', 0, 1)")
        try database.execute("INSERT INTO set_times (account_id, ms, sets) VALUES (1, 900, 2), (0, 25500, 1), (0, 800, 3)")
        let sql = "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'set_times'"
        #expect(try database.row(sql)?.text(0).contains("WITHOUT ROWID") == false)

        let store = try SQLAccountStore(database: database, wallSeconds: 2)
        #expect(try Migrations.version(of: database) == SQLAccountSchema.migrations.count)
        #expect(try database.row(sql)?.text(0).contains("WITHOUT ROWID") == true)
        #expect(try database.query("SELECT account_id, ms, sets FROM set_times ORDER BY account_id, ms").map(\.values)
                == [[.int(0), .int(800), .int(3)], [.int(0), .int(25_500), .int(1)], [.int(1), .int(900), .int(2)]])
        // Still keyed by (account, ms), still referring to accounts, and the store still adds to it.
        #expect(throws: DatabaseError.self) { try database.execute("INSERT INTO set_times (account_id, ms, sets) VALUES (0, 800, 1)") }
        #expect(throws: DatabaseError.self) { try database.execute("INSERT INTO set_times (account_id, ms, sets) VALUES (7, 800, 1)") }
        _ = try store.record(SQLStoreTests.duel(0, 1, commitment: "c-1"), journal: "m-1.jsonl", wallSeconds: 10, policy: .standard)
        #expect(try database.row("SELECT sets FROM set_times WHERE account_id = 0 AND ms = 800")?.int(0) as Int? == 4)
        #expect(try database.row("PRAGMA foreign_key_check")?.values == nil)
    }
}
