import Foundation
import SetDatabase
@testable import SetServer
import SetTestSupport
import Synchronization
import Testing

/// Nodes started at once on one new PostgreSQL (README, "From one server to three"; a
/// StatefulSet starts its pods in parallel) all open the store: the schema is made once, and no
/// node stops at start because another was making it at the same moment.
@Suite struct SQLStoreStartTogetherTests {
    @Test func serversStartingTogetherOnAnEmptyPostgresAllOpenIt() throws {
        let servers = 4
        // Each round a new, empty database; the servers' connections are open before they start,
        // so they reach `CREATE TABLE … schema_version` as nearly together as threads can.
        for _ in 0..<3 {
            guard let empty = try TestDatabase.make(.postgres) else { return }
            let location = empty.location, failures = Failures()
            let ready = DispatchSemaphore(value: 0), go = DispatchGroup(), done = DispatchGroup()
            go.enter()
            for _ in 0..<servers {
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    do {
                        let connection = try PostgresDatabase(url: location)
                        ready.signal()
                        go.wait()
                        _ = try SQLAccountStore(database: connection, wallSeconds: 1)
                    } catch {
                        ready.signal()
                        failures.list.withLock { $0.append("\(error)") }
                    }
                }
            }
            for _ in 0..<servers { ready.wait() }
            go.leave()
            done.wait()
            #expect(failures.list.withLock { $0 } == [])
            #expect(try Migrations.version(of: empty.database) == SQLAccountSchema.migrations.count)
            #expect(try empty.database.query("SELECT version FROM schema_version").count == SQLAccountSchema.migrations.count)
        }
    }
}

/// What the servers' threads could not do.
private final class Failures: Sendable {
    let list = Mutex<[String]>([])
}
