import Foundation
import SetDatabase
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing
import Synchronization

/// One server per node name: a server starting under a name whose holder still renews it refuses
/// to start; one whose holder stopped renewing takes the name, and the old holder, if it comes
/// back, serves none of the node's matches; a node stopping gives its lease back.
@Suite(.serialized) struct NodeNameTests {
    static let twin = DatabaseError(.uniqueViolation, """
        another server is node a: it renewed the node's lease while this one waited 250 ms to take its name. \
        Two servers under one name would play its matches twice; stop that one, or give this one another --node
        """)

    @Test func aServerStartingUnderANameItsHolderRenewsRefusesToStart() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let holder = try NodeDirectoryTests.directory("a", database), newcomer = try NodeDirectoryTests.directory("a", database)
        _ = try holder.register(at: 1_000, leaseMs: 10_000)
        #expect(throws: Self.twin) {
            try newcomer.awaitName(at: 2_000, watchMs: 10_000) { _ in
                _ = try? holder.renew(NodeSync(now: 3_000, leaseMs: 10_000, listings: [], gone: []))
            }
        }
        #expect(try holder.renew(NodeSync(now: 4_000, leaseMs: 10_000, listings: [], gone: [])).until == 14_000)
    }

    @Test func aHolderThatStoppedRenewingLosesTheNameAndServesNoneOfItsMatches() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let holder = try NodeDirectoryTests.directory("a", database), newcomer = try NodeDirectoryTests.directory("a", database)
        _ = try holder.register(at: 1_000, leaseMs: 10_000)
        var watched: Int64 = 0
        try newcomer.awaitName(at: 2_000, watchMs: 10_000) { watched += $0 }
        #expect(watched == 10_000)
        _ = try newcomer.register(at: 2_000, leaseMs: 10_000)
        // The old holder, back from a network split, finds the row is not its own any more.
        #expect(throws: DatabaseError(.uniqueViolation, "another server registered as node a: this one no longer holds the name, and serves none of its matches")) {
            _ = try holder.renew(NodeSync(now: 5_000, leaseMs: 10_000, listings: [], gone: []))
        }
        #expect(try newcomer.holder() == NameHolder(started: 2_000, leaseUntil: 12_000))
        #expect(try newcomer.renew(NodeSync(now: 6_000, leaseMs: 10_000, listings: [], gone: [])).until == 16_000)
    }

    @Test func aNameWhoseLeaseEndedOrWasGivenBackIsTakenAtOnce() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let holder = try NodeDirectoryTests.directory("a", database), newcomer = try NodeDirectoryTests.directory("a", database)
        try newcomer.awaitName(at: 0, watchMs: 10_000) { _ in Issue.record("no row: nothing to watch") }
        _ = try holder.register(at: 1_000, leaseMs: 10_000)
        try newcomer.awaitName(at: 11_000, watchMs: 10_000) { _ in Issue.record("the lease ended: nothing to watch") }
        try holder.release(at: 3_000)
        #expect(try holder.holder()?.leaseUntil == 3_000)
        try newcomer.awaitName(at: 3_500, watchMs: 10_000) { _ in Issue.record("given back: nothing to watch") }

        // Given back while watched: taken then, not a whole watch later.
        _ = try holder.register(at: 4_000, leaseMs: 10_000)
        var steps = 0
        try newcomer.awaitName(at: 4_500, watchMs: 10_000) { _ in
            steps += 1
            if steps == 2 { try? holder.release(at: 5_000) }
        }
        #expect(steps == 2)
    }

    @Test func aSecondServerTakesTheNameOfOneThatStoppedRenewingAndTheFirstStopsServing() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        // The first node's clock stands still: it renews nothing while the second watches.
        let first = try NodeServerTests.node("a", database)
        defer { first.stop() }
        let second = try TestServer {
            $0.store = .postgres(database.location)
            $0.cluster.node = "a"
            $0.cluster.advertise = "127.0.0.1:0"
            $0.cluster.wallBaseMs = NodeServerTests.wallBase
            $0.cluster.nameWatchMs = 500
        }
        defer { second.stop() }
        #expect(second.logLines.all.contains { $0.contains("watching 500 ms for another server renewing it") })
        let client = try TestClient(port: first.port)
        first.advance(by: 2_000)
        let report = polled({ try? HealthTests.health(client, id: UUID().uuidString) }, until: { $0?.lease == .lapsed })
        #expect(report == HealthReport(ready: false, store: .ok, node: "a", lease: .lapsed))
        #expect(first.logLines.all.contains { $0.contains("node a stops serving its matches: another server registered as node a") })
    }
}

/// Two servers started at the same instant under one name (issue 42 item 10): exactly one takes it.
@Suite(.serialized) struct NodeNameClaimTests {
    @Test func ofTwoServersStartingTogetherUnderOneNameExactlyOneTakesItAndTheOtherCannotRenew() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let first = try NodeDirectoryTests.directory("a", database), second = try NodeDirectoryTests.directory("a", database)
        // Both look at the same moment: nobody holds the name.
        let seenByFirst = try first.awaitName(at: 1_000, watchMs: 10_000) { _ in Issue.record("no row: nothing to watch") }
        let seenBySecond = try second.awaitName(at: 1_000, watchMs: 10_000) { _ in Issue.record("no row: nothing to watch") }
        #expect(seenByFirst == nil && seenBySecond == nil)
        _ = try first.register(at: 1_000, leaseMs: 10_000, claiming: seenByFirst)
        #expect(throws: DatabaseError.self) { _ = try second.register(at: 1_000, leaseMs: 10_000, claiming: seenBySecond) }
        // The winner serves: its renewals go on, and the row bears its mark.
        #expect(try first.renew(NodeSync(now: 2_000, leaseMs: 10_000, listings: [], gone: [])).until == 12_000)
        #expect(try first.holder() == NameHolder(started: 1_000, leaseUntil: 12_000))
        #expect(throws: DatabaseError.self) { _ = try second.renew(NodeSync(now: 2_000, leaseMs: 10_000, listings: [], gone: [])) }
    }

    /// Two servers racing on two threads, each on its own connection: one takes the name.
    @Test func twoRegistrationsRacingOnTwoConnectionsLeaveOneWinner() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        for round in 0..<5 {
            let name = "race\(round)"
            let outcomes = Mutex<[Bool]>([])
            let group = DispatchGroup()
            for _ in 0..<2 {
                nonisolated(unsafe) let directory = try NodeDirectoryTests.directory(name, database)
                DispatchQueue.global().async(group: group) {
                    let taken = (try? directory.register(at: 1_000, leaseMs: 10_000, claiming: nil)) != nil
                    outcomes.withLock { $0.append(taken) }
                }
            }
            group.wait()
            #expect(outcomes.withLock { $0 }.filter { $0 }.count == 1)
        }
    }
}
