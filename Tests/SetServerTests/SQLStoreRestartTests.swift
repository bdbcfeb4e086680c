import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import Testing

/// PostgreSQL restarted under a store (`pg_ctl restart`, on a server of the test's own so no
/// other test loses its connection): the call the restart broke says unavailable, the next one
/// connects again and works, and nothing committed is lost.
@Suite struct SQLStoreRestartTests {
    @Test func aRestartedPostgresIsReconnectedAndKeepsEverything() throws {
        guard ThrowawayPostgres.binaries != nil else {
            if ProcessInfo.processInfo.environment["SETGAME_REQUIRE_POSTGRES"] == "1" { Issue.record("PostgreSQL is required but not installed") }
            print("note: PostgreSQL is not installed: the restart test is passed over")
            return
        }
        let server = try ThrowawayPostgres.start()
        defer { server.stop() }
        let database = try PostgresDatabase(url: server.url)
        let store = try SQLAccountStore(database: database, wallSeconds: 1)
        let ann = try store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1)
        let bob = try store.create(.accountKey(digest: "b"), name: "bob", bot: false, wallSeconds: 1)
        let game = try store.record(SQLStoreTests.duel(ann.id, bob.id, commitment: "before"), journal: "m.jsonl", wallSeconds: 5, policy: .standard)

        try server.restart()
        var first: Result<StoredAccount?, StoreError>
        do { first = .success(try store.account(named: "ann")) } catch { first = .failure(error) }
        switch first {
        case .failure(.unavailable(let reason)):  // the restart cut the connection under this call
            #expect(!reason.contains("\n") && !reason.contains("\t"), "one line for the server's log: \(reason)")
        case .success(let account): #expect(account?.id == ann.id, "a call that did not fail must be right")
        case .failure(let other): Issue.record("not unavailable: \(other)")
        }
        #expect(try store.account(named: "ann")?.rating(.classic) == game?.players[0].after)
        #expect(try store.game(commitment: "before") == game)
        #expect(database.isConnected)
        #expect(try store.record(SQLStoreTests.duel(ann.id, bob.id, commitment: "after"), journal: "m.jsonl", wallSeconds: 6, policy: .standard)?.rated == true)
    }
}

/// A throwaway PostgreSQL whose test process was killed (no exit handler ran) is stopped by the
/// next test process that starts one: runs of `swift test` do not pile up servers.
@Suite struct ThrowawayPostgresTests {
    @Test func aServerWhoseProcessIsGoneIsStoppedByTheNextStart() throws {
        guard ThrowawayPostgres.binaries != nil else {
            if ProcessInfo.processInfo.environment["SETGAME_REQUIRE_POSTGRES"] == "1" { Issue.record("PostgreSQL is required but not installed") }
            return
        }
        let orphan = try ThrowawayPostgres.start()
        let database = try PostgresDatabase(url: orphan.url)
        #expect(database.isConnected)
        // Started for a process that has ended: a child that exited at once.
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { free(argv[0]) }
        #expect(posix_spawn(&child, "/bin/true", nil, nil, argv, environ) == 0)
        var status: Int32 = 0
        _ = waitpid(child, &status, 0)
        try orphan.claim(for: child)
        let mine = try ThrowawayPostgres.start()
        defer { mine.stop() }
        #expect(!FileManager.default.fileExists(atPath: orphan.folder))
        #expect(throws: (any Error).self) { _ = try PostgresDatabase(url: orphan.url) }
    }
}
