import Foundation
import SetDatabase
import SetRatings
import SetRules
@testable import SetServer
import SetTestSupport
import Synchronization
import Testing

/// The SQL store's promises on a real SQLite file and a real PostgreSQL: the schema from its
/// first version, all or nothing, idempotent games, errors as values, and both of two writers
/// counted.
@Suite struct SQLStoreTests {
    static func duel(_ first: Int?, _ second: Int?, commitment: String, winner: SetRules.Seat? = .first) -> FinishedGame {
        FinishedGame(match: "m-1", game: 1, commitment: commitment, mode: .duel, variant: .classic,
                     result: MatchResult(reason: .noSetsLeft, by: nil, scores: [9, 3], winner: winner),
                     seats: [.init(account: first, name: "one", casual: false, sets: 3, setTimes: [800, 1_200, 30_000]),
                             .init(account: second, name: "two", casual: false, sets: 1, setTimes: [2_000])],
                     endedAt: 5_000, durationMs: 60_000)
    }

    @Test(arguments: TestStoreKind.allCases)
    func migrationsRunFromTheFirstVersionOnAnEmptyDatabase(kind: TestStoreKind) throws {
        guard let empty = try TestDatabase.make(kind) else { return }
        let database = empty.database
        #expect(throws: DatabaseError.self) { try database.query("SELECT COUNT(*) FROM accounts") }
        let store = try SQLAccountStore(database: database, wallSeconds: 7)
        #expect(try Migrations.version(of: database) == SQLAccountSchema.migrations.count)
        #expect(try database.query("SELECT version, applied_wall FROM schema_version ORDER BY version").map { try $0.int(0) as Int } ==
                Array(1...SQLAccountSchema.migrations.count))
        _ = try store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1)
        // Opened again: nothing is applied twice, nothing is lost.
        let again = try SQLAccountStore(database: database, wallSeconds: 8)
        #expect(try again.account(named: "ANN")?.id == 0)
        #expect(try database.query("SELECT version FROM schema_version").count == SQLAccountSchema.migrations.count)
        // A database a newer program made is refused, not written wrongly.
        try database.execute("INSERT INTO schema_version (version, summary, applied_wall) VALUES (99, 'future', 0)")
        #expect(throws: StoreError.self) { try SQLAccountStore(database: database, wallSeconds: 9) }
    }

    @Test(arguments: TestStoreKind.allCases)
    func aTransactionThatFailsChangesNothing(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let database = subject.database.database
        let thrown = #expect(throws: DatabaseError.self) {
            try database.transaction { () throws(DatabaseError) in
                try database.execute("INSERT INTO accounts (id, identity, name, bot, created_wall) VALUES (5, 'key:x', 'x', 0, 1)")
                try database.execute("INSERT INTO accounts (id, identity, name, bot, created_wall) VALUES (6, 'key:x', 'y', 0, 1)")
            }
        }
        #expect(thrown?.code == .uniqueViolation)
        #expect(try database.row("SELECT COUNT(*) FROM accounts")?.int(0) as Int? == 0)
        // The store's own refusals leave nothing behind either.
        _ = try subject.store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1)
        #expect(throws: StoreError.nameTaken) { try subject.store.create(.accountKey(digest: "b"), name: "Ann", bot: false, wallSeconds: 1) }
        #expect(throws: StoreError.identityTaken) { try subject.store.create(.accountKey(digest: "a"), name: "zed", bot: false, wallSeconds: 1) }
        #expect(try database.row("SELECT COUNT(*) FROM accounts")?.int(0) as Int? == 1)
    }

    @Test(arguments: TestStoreKind.allCases)
    func aGameIsRecordedOnceAndGuestsAloneAreNotKept(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let store = subject.store
        let ann = try store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1)
        let bob = try store.create(.sshKey(fingerprint: "SHA256:b"), name: "bob", bot: true, wallSeconds: 1)
        let first = try #require(try store.record(Self.duel(ann.id, bob.id, commitment: "c1"), journal: "m-1.jsonl", wallSeconds: 10, policy: .standard))
        #expect(first.rated && first.players[0].after != nil)
        let again = try store.record(Self.duel(ann.id, bob.id, commitment: "c1"), journal: "m-1.jsonl", wallSeconds: 20, policy: .standard)
        let kept = try store.game(commitment: "c1")
        #expect(again == first && kept == first)
        #expect(try store.account(id: ann.id)?.rating(.classic) == first.players[0].after)
        #expect(try store.record(Self.duel(nil, nil, commitment: "c2"), journal: "m-1.jsonl", wallSeconds: 30, policy: .standard) == nil)
        #expect(try store.game(commitment: "c2") == nil)
        guard case .success(let profile) = try store.profile("ann").map(\.info) else { Issue.record("no profile"); return }
        #expect(profile.fields["games"] == .int(1) && profile.fields["bestSetMs"] == .int(800) && profile.fields["medianSetMs"] == .int(1_200))
    }

    /// SQLite reports a full disk (`SQLITE_FULL`, made here by a page limit) and a file it may
    /// not write (`SQLITE_READONLY`, made by `query_only`: the tests run as root, whom a file's
    /// mode does not stop) as errors the store turns into `.unavailable`, changing nothing.
    @Test func aFullDiskOrAReadOnlyFileIsUnavailableNotACrash() throws {
        guard let subject = try StoreUnderTest.make(.sqlite) else { return }
        let store = subject.store
        let database = subject.database.database
        _ = try store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1)
        _ = try store.create(.accountKey(digest: "b"), name: "bob", bot: false, wallSeconds: 1)
        // No free page left to fill first: a migration that makes a table again (14, `set_times`)
        // leaves the old table's pages free in the file.
        try database.execute("VACUUM")
        let pages: Int = try database.row("PRAGMA page_count")?.int(0) ?? 0
        _ = try database.query("PRAGMA max_page_count = \(pages)")
        var full: StoreError?
        for game in 0..<50 where full == nil {
            do {
                _ = try store.record(Self.duel(0, 1, commitment: "full-\(game)"), journal: "m.jsonl", wallSeconds: Int64(game), policy: .open)
            } catch {
                full = error
            }
        }
        guard case .unavailable(let reason) = full else { Issue.record("a full database was not reported: \(String(describing: full))"); return }
        #expect(reason.contains("full"), "\(reason)")
        let kept: Int = try database.row("SELECT games FROM accounts WHERE id = 0")?.int(0) ?? -1
        #expect(try database.row("SELECT COUNT(*) FROM games")?.int(0) as Int? == kept)
        _ = try database.query("PRAGMA max_page_count = 1000000")
        try database.execute("PRAGMA query_only = 1")
        #expect {
            _ = try store.create(.accountKey(digest: "c"), name: "cy", bot: false, wallSeconds: 1)
        } throws: { error in
            guard case StoreError.unavailable(let reason) = error else { return false }
            return reason.contains("readonly")
        }
        try database.execute("PRAGMA query_only = 0")
        #expect(try store.create(.accountKey(digest: "c"), name: "cy", bot: false, wallSeconds: 1).id == 2)
    }

    /// Two stores on one database (two servers sharing it) record games of one account at
    /// once: every game counts, and each of its ratings starts from the one before it.
    @Test(arguments: TestStoreKind.allCases)
    func twoStoresRecordingGamesOfOneAccountBothCount(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let store = subject.store
        for (index, name) in ["ann", "bob", "cy"].enumerated() {
            _ = try store.create(.accountKey(digest: "\(index)"), name: name, bot: false, wallSeconds: 1)
        }
        let games = 25
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for opponent in [1, 2] {
            let connection = try subject.secondConnection()
            nonisolated(unsafe) let other = try SQLAccountStore(database: connection, wallSeconds: 1)
            DispatchQueue.global().async(group: group) {
                for game in 0..<games {
                    do {
                        _ = try other.record(Self.duel(0, opponent, commitment: "g\(opponent)-\(game)", winner: game % 3 == 0 ? .second : .first),
                                             journal: "m.jsonl", wallSeconds: Int64(game), policy: .open)
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 } == [])
        #expect(try subject.database.database.row("SELECT games FROM accounts WHERE id = 0")?.int(0) as Int? == 2 * games)
        // Ann's games in the order they were committed: each one's rating before is the last one's after.
        let rows = try subject.database.database.query("""
            SELECT s.before_rating, s.after_rating FROM account_games ag JOIN game_seats s ON s.game_id = ag.game_id AND s.seat = ag.seat
            WHERE ag.account_id = 0 ORDER BY ag.number
            """)
        var last = Rating.initial.rating
        for row in rows {
            #expect(try row.double(0) == last)
            last = try row.double(1)
        }
        #expect(try store.account(id: 0)?.rating(.classic).rating == last)
    }
}
