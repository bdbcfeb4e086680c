import Foundation
import SetDatabase
import SetRatings
@testable import SetServer
import SetTestSupport
import Testing

/// Issue 43, item 4: the import into a SQLite file writes its pages once, through a rollback
/// journal rather than the WAL (`SQLiteDatabase.withRollbackJournal`), and a start after a kill
/// midway rolls that journal back and imports the whole log again.
@Suite struct ImportJournalTests {
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// The pages of the import go into the file once: the WAL the file is in again after it holds
    /// none of them (in WAL mode it held every page the import wrote, checkpointed or not).
    @Test func theImportsPagesDoNotGoThroughTheWAL() throws {
        let folder = temporaryFolder("setgame-import-journal")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try OldAccountLog.write(OldAccountLog.lines(), into: folder)
        let path = folder + "/accounts.sqlite3"
        let database = try SQLiteDatabase(path: path)
        let store = try SQLAccountStore(database: database, wallSeconds: 1)
        let summary = try #require(try AccountImport.run(from: folder + "/accounts", into: store, policy: .standard, wallSeconds: 2,
                                                         log: ServerLogLines().log, pause: nil))
        #expect(summary.games > 400)
        let pageSize = try #require(try database.row("PRAGMA page_size")?.int(0) as Int?)
        let pages = try #require(try database.row("PRAGMA page_count")?.int(0) as Int?)
        #expect(pages > 100, "an import of \(pages) pages proves nothing")
        #expect(try database.journalMode() == "wal")
        // The keys, off for the import's rows (checked at its end), are on again for the server.
        #expect(try database.row("PRAGMA foreign_keys")?.int(0) as Int? == 1)
        #expect(Self.fileSize(path + "-wal") < 4 * pageSize, "the WAL holds \(Self.fileSize(path + "-wal")) bytes after an import of \(pages) pages")
        #expect(Self.fileSize(path) == pages * pageSize)
        #expect(access(path + "-journal", F_OK) != 0, "the rollback journal is gone after the commit")
    }

    /// What kill -9 leaves midway (the file and its journal as they are on disk while the
    /// transaction runs, copied then) is rolled back by the next start, which imports the whole
    /// log again: every table then equals a clean import's. The import's page cache is made small
    /// so that its pages have spilled into the file by then: the rollback has work to do.
    @Test func aStartAfterAKillMidwayRollsTheJournalBackAndImportsAgain() throws {
        let folder = temporaryFolder("setgame-import-killed")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = OldAccountLog.lines()
        try OldAccountLog.write(lines, into: folder + "/first")
        try OldAccountLog.write(lines, into: folder + "/killed")
        let path = folder + "/first/accounts.sqlite3"
        let copy = folder + "/killed/accounts.sqlite3"
        let store = try SQLAccountStore(database: try SQLiteDatabase(path: path), wallSeconds: 1)
        let before = Self.fileSize(path)
        // The moment of the kill: every row written, the indexes not yet made again, no commit.
        let taken = ServerLogLines()
        let log = ServerLog { line in
            guard line.contains("every row is written; making the indexes"), taken.all.isEmpty else { return }
            for suffix in ["", "-journal", "-wal"] where access(path + suffix, F_OK) == 0 {
                try? FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
                taken.append(suffix)
            }
        }
        try AccountImport.run(from: folder + "/first/accounts", into: store, policy: .standard, wallSeconds: 2, log: log, cacheKiB: 64, pause: nil)
        #expect(taken.all == ["", "-journal"], "the files beside the database midway: \(taken.all)")
        #expect(Self.fileSize(copy) > before + 64 * 1024, "the import's pages had not spilled into the file (\(before) → \(Self.fileSize(copy)) bytes)")

        // `serve --check` cannot roll the journal back (it changes nothing) and does not call it damage.
        #expect(StoreCheck.damage(copy) == nil)
        let said = ServerLogLines()
        let again = try SQLAccountStore.open(.sqliteFile(copy), dataFolder: folder + "/killed", policy: .standard, wallSeconds: 3, log: said.log)
        #expect(said.all.contains { $0.contains("accounts: importing") }, "\(said.all)")
        #expect(access(copy + "-journal", F_OK) != 0)
        #expect(try again.database.row("PRAGMA quick_check")?.text(0) == "ok")
        #expect(try AccountBulkImportTests.dump(again.database) == AccountBulkImportTests.dump(store.database))
    }

    /// Another connection on the file keeps it in WAL mode (SQLite cannot change it under a
    /// reader): the body runs as it would have, and its rows are there.
    @Test func anotherConnectionKeepsTheWAL() throws {
        let folder = temporaryFolder("setgame-import-wal-kept")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/accounts.sqlite3"
        let database = try SQLiteDatabase(path: path)
        try database.execute("CREATE TABLE t (a TEXT)")
        let reader = try SQLiteDatabase(path: path, readOnly: true)
        #expect(try reader.query("SELECT a FROM t").isEmpty)
        let (_, rollback) = try database.withRollbackJournal { () throws(DatabaseError) in
            try database.transaction { () throws(DatabaseError) in try database.execute("INSERT INTO t (a) VALUES ($1)", .text("kept")) }
        }
        #expect(rollback == false)
        #expect(try database.journalMode() == "wal")
        #expect(try reader.query("SELECT a FROM t").map { try $0.text(0) } == ["kept"])
        reader.close()
        let (_, alone) = try database.withRollbackJournal { () throws(DatabaseError) in try database.execute("INSERT INTO t (a) VALUES ('alone')") }
        #expect(alone == true)
        #expect(try database.journalMode() == "wal")
    }
}
