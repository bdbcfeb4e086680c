import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import Testing

/// Issue 43: the import sets the filled tables' secondary indexes (and on PostgreSQL their
/// foreign keys) aside while its rows go in and makes them again at the end; primary keys and
/// UNIQUE stay, and after the import every index and constraint is there as the schema made it.
@Suite struct ImportSetAsideTests {
    /// Every index and (PostgreSQL) constraint of the schema, with its definition.
    static func schema(_ database: Database) throws -> [[SQLValue]] {
        switch database.dialect {
        case .sqlite: try database.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").map(\.values)
        case .postgres:
            try database.query("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname").map(\.values)
                + database.query("SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint ORDER BY 1, 2").map(\.values)
        }
    }

    @Test(arguments: TestStoreKind.allCases)
    func indexesAndForeignKeysAreDroppedAndMadeAgainAsTheSchemaMadeThem(kind: TestStoreKind) throws {
        guard let subject = try TestDatabase.make(kind) else { return }
        _ = try SQLAccountStore(database: subject.database, wallSeconds: 1)
        let database = subject.database
        let before = try Self.schema(database)
        let dropped = try ImportSetAside.drop(on: AccountCopy.tables, in: database)
        #expect(dropped.restore.contains { $0.contains("account_games_pair") } && dropped.restore.contains { $0.contains("ratings_leaderboard") })
        let during = try Self.schema(database)
        #expect(!during.contains { $0[0] == .text("account_games_pair") })
        // The primary keys' and UNIQUE columns' indexes stay: a duplicate is still refused as it is written.
        #expect(during.contains { $0[0] == .text("games_commitment_key") || $0[0] == .text("sqlite_autoindex_games_1") }, "\(during)")
        if kind == .postgres {
            let keys = before.filter { $0.count == 3 && $0[2].description.hasPrefix("FOREIGN KEY") && AccountCopy.tables.contains($0[0].description) }
            #expect(keys.count >= 8 && dropped.restore.filter { $0.contains("FOREIGN KEY") }.count == keys.count, "\(dropped.restore)")
            #expect(!during.contains { $0.count == 3 && $0[2].description.hasPrefix("FOREIGN KEY") && AccountCopy.tables.contains($0[0].description) })
            // A row whose reference is wrong goes in while the keys are aside, and fails their making again.
            try database.execute("INSERT INTO set_times (account_id, ms, sets) VALUES (99, 100, 1)")
            #expect { try database.transaction { () throws(DatabaseError) in try dropped.restore(in: database) } } throws: {
                ($0 as? DatabaseError)?.code == .invalidStatement
            }
            #expect(try Self.schema(database) == during)
            try database.execute("DELETE FROM set_times")
        } else {
            // SQLite's keys cannot be dropped: the import turns them off for its connection, and
            // a row whose reference is wrong fails the check after the indexes are made again.
            try database.execute("PRAGMA foreign_keys=OFF")
            try database.execute("INSERT INTO set_times (account_id, ms, sets) VALUES (99, 100, 1)")
            #expect { try database.transaction { () throws(DatabaseError) in try dropped.restore(in: database) } } throws: {
                ($0 as? DatabaseError)?.code == .invalidStatement && "\($0)".contains("set_times")
            }
            #expect(try Self.schema(database) == during)
            try database.execute("DELETE FROM set_times")
            try database.execute("PRAGMA foreign_keys=ON")
        }
        try dropped.restore(in: database)
        #expect(try Self.schema(database) == before)
    }

    @Test(arguments: TestStoreKind.allCases)
    func anImportLeavesEveryIndexAndConstraintAsTheSchemaMadeIt(kind: TestStoreKind) throws {
        guard let subject = try TestDatabase.make(kind), let fresh = try TestDatabase.make(kind) else { return }
        let folder = temporaryFolder("setgame-import-set-aside")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try OldAccountLog.write(OldAccountLog.lines(accounts: 20, games: 100), into: folder)
        let store = try SQLAccountStore(database: subject.database, wallSeconds: 1)
        _ = try SQLAccountStore(database: fresh.database, wallSeconds: 1)
        let said = ServerLogLines()
        let summary = try AccountImport.run(from: folder + "/accounts", into: store, policy: .standard, wallSeconds: 2, log: said.log)
        #expect(summary?.games ?? 0 > 50)
        #expect(try Self.schema(subject.database) == Self.schema(fresh.database))
        // A line before each, since each reads a whole table: "…, 1 of 2", "…, 2 of 2" on SQLite.
        let making = said.all.filter { $0.contains("making the indexes and foreign keys again, ") }
        #expect(making.count >= (kind == .sqlite ? 2 : 10), "\(said.all)")
        #expect(making.last?.contains("again, \(making.count) of \(making.count)") == true, "\(making)")
    }
}
