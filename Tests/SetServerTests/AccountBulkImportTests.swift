import Foundation
import SetDatabase
import SetNet
import SetRatings
import SetRules
@testable import SetServer
import SetTestSupport
import Synchronization
import Testing

/// Issue 43, item 4: the import of an old accounts log writes many rows to a statement and sums
/// what games move in memory; every table then holds exactly what the game-by-game import (each
/// record through `SQLAccountStore.insert`, as it was written before) leaves, on SQLite and on a
/// real PostgreSQL; and the server's log says how far it is while it runs.
@Suite struct AccountBulkImportTests {
    /// Each table's rows in one order, every column.
    static let tables = [("accounts", "id"), ("ratings", "account_id, variant"), ("rated_opponents", "account_id, variant, opponent_id"),
                         ("games", "id"), ("game_seats", "game_id, seat"), ("account_games", "account_id, number"),
                         ("set_times", "account_id, ms")]

    static func dump(_ database: Database) throws -> [String: [[SQLValue]]] {
        var rows: [String: [[SQLValue]]] = [:]
        for (table, order) in Self.tables { rows[table] = try database.query("SELECT * FROM \(table) ORDER BY \(order)").map(\.values) }
        return rows
    }

    /// The import as it was before issue 43: each accepted record through the store, one by one.
    static func importOneByOne(_ path: String, into store: SQLAccountStore, policy: RatingPolicy) throws {
        try store.database.transaction { () throws(DatabaseError) in
            var failure: DatabaseError?
            _ = try? AccountLogFile.read(path, skip: { _, _ in }) { record throws(JournalFile.Problem) in
                do throws(DatabaseError) {
                    switch record {
                    case .created(let id, let identity, let name, let bot, let wall):
                        try store.insertAccount(id: id, identity: identity, name: name, bot: bot, wallSeconds: wall)
                    case .renamed(let id, let name): try store.renameAccount(id, to: name)
                    case .game(let game) where game.concernsAccounts: try store.insert(game, policy: policy)
                    case .game: break
                    }
                } catch {
                    failure = error
                    throw .unreadable("\(error)")
                }
            }
            if let failure { throw failure }
        }
    }

    /// Small batches and statements (7 games, 50 values) so that every table is written over
    /// several statements and batches, as a million games are.
    @Test(arguments: TestStoreKind.allCases)
    func everyTableHoldsWhatTheGameByGameImportWrote(kind: TestStoreKind) throws {
        guard let bulk = try TestDatabase.make(kind), let reference = try TestDatabase.make(kind) else { return }
        let folder = temporaryFolder("setgame-bulk-import")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try OldAccountLog.write(OldAccountLog.lines(), into: folder)
        // The standard rules but for fewer different opponents: the log's 40 accounts have few
        // established ones, and some player must reach a leaderboard for the tables to show it.
        var policy = RatingPolicy.standard
        policy.leaderboardOpponents = 2
        let oneByOne = try SQLAccountStore(database: reference.database, wallSeconds: 1)
        try Self.importOneByOne(path, into: oneByOne, policy: policy)

        let store = try SQLAccountStore(database: bulk.database, wallSeconds: 1)
        let summary = try #require(try AccountImport.run(from: folder + "/accounts", into: store, policy: policy, wallSeconds: 2,
                                                         log: ServerLogLines().log, batchGames: 7, maxParameters: 50))
        let expected = try Self.dump(reference.database)
        let got = try Self.dump(bulk.database)
        #expect(try reference.database.row("SELECT COUNT(*) FROM games")?.int(0) == summary.games as Int)
        #expect(summary.games > 400 && summary.accounts == 40)
        // What the log exercises is there to compare: listed players, look-alikes, self games.
        #expect(expected["ratings"]?.contains { $0.last == .int(1) } == true)
        #expect(expected["accounts"]?.contains { $0[3] == .null } == true)
        #expect(expected["account_games"]?.contains { $0[5] == .text("self") } == true)
        #expect(expected.count == Self.tables.count)
        for (table, _) in Self.tables {
            #expect(got[table] == expected[table], "\(table): \(got[table]?.count ?? 0) rows against \(expected[table]?.count ?? 0)")
        }
        // New ids follow the imported ones, as after the import one by one.
        let next = try store.insertAccount(identity: .accountKey(digest: String(repeating: "e", count: 64)), name: "newcomer", bot: false, wallSeconds: 3)
        #expect(next == 41)
        let lines = OldAccountLog.lines()
        guard case .game(var game) = try AccountLogRecord.decode(Array(try #require(lines.last { $0.contains("\"rated\":true") }).utf8)) else {
            Issue.record("no rated game in the log")
            return
        }
        game.commitment = "after the import"
        try store.insert(game, policy: policy)
        #expect(try bulk.database.row("SELECT id FROM games WHERE commitment = $1", .text(game.commitment))?.int(0) == summary.games as Int)
    }

    /// A clock that moves `step` milliseconds each time it is read.
    final class SteppingTime: TimeSource {
        private let current = Mutex<Int64>(0)
        let step: Int64

        init(step: Int64) { self.step = step }

        func now() -> Instant { Instant(milliseconds: current.withLock { $0 += step; return $0 }) }
    }

    /// While it runs the import logs its progress: games done of the log's, the rate, the time
    /// left, and the totals at the end; never two lines within five seconds.
    @Test func theImportSaysHowFarItIsAtLeastEveryFiveSeconds() throws {
        let folder = temporaryFolder("setgame-bulk-progress")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = OldAccountLog.lines(accounts: 20, games: 200)
        let total = lines.filter { $0.contains("\"type\":\"game\"") }.count
        try OldAccountLog.write(lines, into: folder)
        let said = ServerLogLines()
        let store = try SQLAccountStore(database: try SQLiteDatabase(path: nil), wallSeconds: 1)
        // Each statement takes the clock 2 s further: a line every third statement at most.
        try AccountImport.run(from: folder + "/accounts", into: store, policy: .standard, wallSeconds: 2, log: said.log,
                              clock: SteppingTime(step: 2_000), batchGames: 10, maxParameters: 200, pause: nil)
        let progress = said.all.filter { $0.contains("accounts import:") && $0.contains("games/s") }
        #expect(progress.count >= 5, "\(said.all)")
        #expect(progress.allSatisfy { $0.contains(" of \(ImportProgress.grouped(total)) games (") && $0.contains(" s left") }, "\(progress)")
        #expect(said.all.contains { $0.contains("writing the accounts' totals") }, "\(said.all)")
    }

    @Test func aProgressLineComesOnceTheFirstGamesAreWrittenThenEveryFourSeconds() {
        var progress = ImportProgress(total: 1_000_000, at: Instant(milliseconds: 1_000))
        #expect(progress.games(0, at: Instant(milliseconds: 1_500)) == nil)
        #expect(progress.games(5_000, at: Instant(milliseconds: 1_500))
                == "accounts import: 5,000 of 1,000,000 games (0 %), 10,000 games/s, about 100 s left")
        #expect(progress.games(60_000, at: Instant(milliseconds: 5_499)) == nil)
        #expect(progress.games(60_000, at: Instant(milliseconds: 5_500))
                == "accounts import: 60,000 of 1,000,000 games (6 %), 13,333 games/s, about 71 s left")
        #expect(progress.totals(10, of: 100_000, at: Instant(milliseconds: 9_000)) == nil)
        #expect(progress.totals(10, of: 100_000, at: Instant(milliseconds: 9_500))
                == "accounts import: every game is written; writing the accounts' totals, 10 of 100,000 accounts")
        var uncounted = ImportProgress(total: nil, at: .zero)
        #expect(uncounted.games(3, at: Instant(milliseconds: 1_000)) == "accounts import: 3 games, 3 games/s")
    }

    /// The games are counted in one pass over the bytes, a record cut by a read's end included;
    /// a log that cannot be read twice (a pipe) is not counted.
    @Test func theLogsGamesAreCountedAcrossReadsAndNotInAPipe() throws {
        let folder = temporaryFolder("setgame-bulk-count")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let record = #"{"type":"game"}"#
        // The second record straddles the first megabyte's end.
        let text = record + "\n" + String(repeating: " ", count: (1 << 20) - record.count - 6) + record + "\n" + record + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/log"))
        #expect(ImportProgress.games(in: folder + "/log") == 3)
        #expect(mkfifo(folder + "/pipe", 0o600) == 0)
        #expect(ImportProgress.games(in: folder + "/pipe") == nil)
        #expect(ImportProgress.games(in: folder + "/missing") == nil)
    }
}
