import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 43: on SQLite `accounts` and `games` are keyed by rowid and `game_seats` and
/// `account_games` are one B-tree each (migration 15, `RowIDKeys`). A store made before keeps
/// every row and answers every question byte for byte as before; its references stay checked.
@Suite struct RowIDKeysMigrationTests {
    /// The four tables the migration makes again, each read whole in key order.
    static let remade = ["accounts": "id", "games": "id", "game_seats": "game_id, seat", "account_games": "account_id, number"]

    @Test func aStoreMadeBeforeKeepsEveryRowAndAnswerAndItsReferences() throws {
        let folder = temporaryFolder("setgame-rowid-keys")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try accountsFile(before: RowIDKeys.migration, in: folder)
        // The store's statements name columns, not keys: the same store fills the old schema.
        let before = SQLAccountStore(reading: database)
        let ann = try before.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1)
        let bob = try before.create(.sshKey(fingerprint: "SHA256:b"), name: "bob", bot: true, wallSeconds: 1)
        let cy = try before.create(.accountKey(digest: "c"), name: "cy", bot: false, wallSeconds: 1)
        for (number, pair) in [(ann.id, bob.id), (bob.id, cy.id), (cy.id, ann.id), (ann.id, nil)].enumerated() {
            _ = try before.record(SQLStoreTests.duel(pair.0, pair.1, commitment: "c-\(number)", winner: number == 1 ? nil : .first),
                                  journal: "m-\(number).jsonl", wallSeconds: Int64(10 + number), policy: .standard)
        }
        let rows = try Self.rows(in: database)
        #expect(rows.values.allSatisfy { !$0.isEmpty })
        let answers = try Self.answers(of: before, for: ["ann", "bob", "cy"])

        let wal = folder + "/accounts.sqlite3-wal"
        #expect(try Self.size(of: wal) > 0, "the old schema's rows are in the WAL still")
        let lines = ServerLogLines()
        let after = try SQLAccountStore(database: database, wallSeconds: 2, log: lines.log)
        // Each step is folded into the file: the WAL does not keep the tables made again beside it.
        #expect(try Self.size(of: wal) == 0)
        #expect(try Migrations.version(of: database) == SQLAccountSchema.migrations.count)
        // The operator is told before a step that may take a while on a large store starts.
        let step = "accounts: bringing the store to schema version \(RowIDKeys.migration.version) of \(SQLAccountSchema.migrations.count): "
        #expect(lines.all.count == SQLAccountSchema.migrations.count - RowIDKeys.migration.version + 1
                && lines.all.first?.hasSuffix(step + RowIDKeys.migration.summary) == true, "\(lines.all)")
        for table in ["accounts", "games"] {
            #expect(try Self.schema(of: table, in: database).contains("id INTEGER PRIMARY KEY"), "\(table)")
        }
        for table in ["game_seats", "account_games"] {
            #expect(try Self.schema(of: table, in: database).hasSuffix("WITHOUT ROWID"), "\(table)")
        }
        #expect(try database.row("SELECT COUNT(*) FROM sqlite_master WHERE name = 'account_games_pair'")?.int(0) as Int? == 1)
        #expect(try database.row("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE '%_keyed%'")?.int(0) as Int? == 0)
        #expect(try Self.rows(in: database) == rows)
        #expect(try Self.answers(of: after, for: ["ann", "bob", "cy"]) == answers)

        // Foreign keys are on again, and still refer to the tables made again.
        #expect(try database.row("PRAGMA foreign_keys")?.int(0) as Int? == 1)
        #expect(try database.row("PRAGMA foreign_key_check")?.values == nil)
        #expect(try database.row("PRAGMA integrity_check")?.text(0) == "ok")
        #expect(throws: DatabaseError.self) {
            try database.execute("INSERT INTO account_games (account_id, number, game_id, seat, result, rated, wall) VALUES (0, 99, 77, 0, 'win', 1, 1)")
        }
        #expect(throws: DatabaseError.self) { try database.execute("INSERT INTO ratings (account_id, variant, rating, deviation, volatility, rated_games, opponents, first_wall, last_wall, listed) VALUES (9, 'classic', 1500, 350, 0.06, 0, 0, 0, 0, 0)") }
        // Ids go on from the ones kept.
        let dee = try after.create(.accountKey(digest: "d"), name: "dee", bot: false, wallSeconds: 3)
        #expect(dee.id == 3)
        let record = try #require(try after.record(SQLStoreTests.duel(dee.id, ann.id, commitment: "c-9"), journal: "m-9.jsonl", wallSeconds: 30, policy: .standard))
        #expect(record.rated)
        #expect(try database.row("SELECT id FROM games WHERE commitment = 'c-9'")?.int(0) as Int? == 4)
        #expect(try database.row("SELECT MAX(number) FROM account_games WHERE account_id = $1", .int(Int64(ann.id)))?.int(0) as Int? == 3)
    }

    /// A step that makes a referenced table again runs with foreign keys off, is refused when it
    /// leaves a row referring to none (rolled back whole), and turns them on again either way.
    @Test func aStepRemakingAReferencedTableIsCheckedBeforeItCommits() throws {
        let database = try SQLiteDatabase(path: nil)
        let first = Migration(version: 1, summary: "parents and children") { _ in
            ["CREATE TABLE parents (id BIGINT PRIMARY KEY)",
             "CREATE TABLE children (parent BIGINT NOT NULL REFERENCES parents(id))"]
        }
        var announced: [Int] = []
        try Migrations.run([first], on: database, wallSeconds: 0) { announced.append($0.version) }
        #expect(announced.isEmpty, "a new database is made, not upgraded: nothing to announce")
        try database.execute("INSERT INTO parents VALUES (1), (2)")
        try database.execute("INSERT INTO children VALUES (1), (2)")
        let remake: @Sendable (String) -> [String] = { keep in
            ["CREATE TABLE parents_keyed (id INTEGER PRIMARY KEY)",
             "INSERT INTO parents_keyed SELECT * FROM parents WHERE id IN (\(keep))",
             "DROP TABLE parents",
             "ALTER TABLE parents_keyed RENAME TO parents"]
        }
        // With foreign keys on, SQLite refuses to drop a table rows refer to.
        let unflagged = Migration(version: 2, summary: "parents by rowid") { _ in remake("1, 2") }
        #expect(throws: DatabaseError.self) { try Migrations.run([first, unflagged], on: database, wallSeconds: 0) }
        #expect(try Migrations.version(of: database) == 1)

        let losing = Migration(version: 2, summary: "parents by rowid", remakesReferencedTables: true) { _ in remake("1") }
        #expect {
            try Migrations.run([first, losing], on: database, wallSeconds: 0)
        } throws: { error in
            (error as? DatabaseError)?.code == .migration && "\(error)".contains("children")
        }
        #expect(try Migrations.version(of: database) == 1)
        #expect(try database.query("SELECT id FROM parents ORDER BY id").map(\.values) == [[.int(1)], [.int(2)]])
        #expect(try database.row("PRAGMA foreign_keys")?.int(0) as Int? == 1)

        let keeping = Migration(version: 2, summary: "parents by rowid", remakesReferencedTables: true) { _ in remake("1, 2") }
        #expect(try Migrations.run([first, keeping], on: database, wallSeconds: 0) { announced.append($0.version) } == 2)
        #expect(announced == [2])
        #expect(try database.row("PRAGMA foreign_keys")?.int(0) as Int? == 1)
        #expect(try database.row("SELECT sql FROM sqlite_master WHERE name = 'parents'")?.text(0).contains("INTEGER PRIMARY KEY") == true)
        #expect(throws: DatabaseError.self) { try database.execute("INSERT INTO children VALUES (3)") }
        #expect(throws: DatabaseError.self) { try database.execute("DELETE FROM parents WHERE id = 2") }
    }

    /// Every row of the four tables, by table, each read in key order.
    private static func rows(in database: Database) throws -> [String: [[SQLValue]]] {
        var rows: [String: [[SQLValue]]] = [:]
        for (table, order) in remade { rows[table] = try database.query("SELECT * FROM \(table) ORDER BY \(order)").map(\.values) }
        return rows
    }

    private static func size(of path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    private static func schema(of table: String, in database: Database) throws -> String {
        try database.row("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = $1", .text(table))?.text(0) ?? ""
    }

    /// Each player's history page as the wire has it, and profile.
    private struct Answers: Equatable {
        var histories: [String] = []
        var profiles: [AccountInfo] = []
    }

    private static func answers(of store: SQLAccountStore, for names: [String]) throws -> Answers {
        var answers = Answers()
        for name in names {
            guard case .success(let history) = try store.history(name, after: nil, limit: 10, id: nil),
                  case .success(let profile) = try store.profile(name) else { Issue.record("\(name): no answer"); continue }
            answers.histories.append(String(decoding: history, as: UTF8.self))
            answers.profiles.append(profile.info)
        }
        return answers
    }
}
