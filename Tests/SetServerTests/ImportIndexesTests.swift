import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import Testing

/// Issue 43: the SQLite import sets the filled tables' secondary indexes aside while its rows go
/// in and builds them at the end; the constraints' own indexes stay, and after the import every
/// index is there as the schema made it.
@Suite struct ImportIndexesTests {
    static func indexes(_ database: Database) throws -> [[SQLValue]] {
        switch database.dialect {
        case .sqlite: try database.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").map(\.values)
        case .postgres: try database.query("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname").map(\.values)
        }
    }

    @Test(arguments: TestStoreKind.allCases)
    func secondaryIndexesAreDroppedAndBuiltAgainAsTheSchemaMadeThem(kind: TestStoreKind) throws {
        guard let subject = try TestDatabase.make(kind) else { return }
        _ = try SQLAccountStore(database: subject.database, wallSeconds: 1)
        let database = subject.database
        let before = try Self.indexes(database)
        let dropped = try ImportIndexes.drop(on: AccountCopy.tables, in: database)
        #expect(dropped.definitions.count == 2, "\(dropped)")
        #expect(dropped.definitions.contains { $0.contains("account_games_pair") } && dropped.definitions.contains { $0.contains("ratings_leaderboard") })
        let during = try Self.indexes(database)
        #expect(!during.contains { $0[0] == .text("account_games_pair") })
        // The primary keys' and UNIQUE columns' indexes stay: a duplicate is still refused as it is written.
        #expect(during.contains { $0[0] == .text("games_commitment_key") || $0[0] == .text("sqlite_autoindex_games_2") }, "\(during)")
        try dropped.build(in: database)
        #expect(try Self.indexes(database) == before)
    }

    @Test func anImportIntoSQLiteLeavesEveryIndexAsTheSchemaMadeIt() throws {
        guard let subject = try TestDatabase.make(.sqlite), let fresh = try TestDatabase.make(.sqlite) else { return }
        let folder = temporaryFolder("setgame-import-indexes")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try OldAccountLog.write(OldAccountLog.lines(accounts: 20, games: 100), into: folder)
        let store = try SQLAccountStore(database: subject.database, wallSeconds: 1)
        _ = try SQLAccountStore(database: fresh.database, wallSeconds: 1)
        let summary = try AccountImport.run(from: folder + "/accounts", into: store, policy: .standard, wallSeconds: 2, log: ServerLogLines().log)
        #expect(summary?.games ?? 0 > 50)
        #expect(try Self.indexes(subject.database) == Self.indexes(fresh.database))
        #expect(try subject.database.row("PRAGMA integrity_check")?.values == [.text("ok")])
    }
}
