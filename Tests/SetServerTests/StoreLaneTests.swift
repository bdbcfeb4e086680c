import Foundation
import SetDatabase
import SetNet
@testable import SetServer
import SetTestSupport
import Testing

/// The store gateway's lanes (issue 42 item 9) against a real PostgreSQL: a node's lease is
/// renewed on a lane of its own, however much player work waits on the other, and the player
/// lane sheds what it cannot queue.
@Suite(.serialized) struct StoreLaneTests {
    /// A node edge on its own loop, driven from the test's thread (which is the loop's).
    final class Rig {
        let loop: EventLoop
        let clock = ManualTime(1_000)
        let faults = NodeFaults()
        let logLines = ServerLogLines()
        let edge: NodeEdge

        init(_ database: TestDatabase, capacity: Int) throws {
            loop = try EventLoop()
            var settings = ClusterSettings()
            (settings.node, settings.advertise, settings.faults) = ("a", "127.0.0.1:1", faults)
            settings.wallBaseMs = NodeServerTests.wallBase
            settings.playerLaneCapacity = capacity
            edge = try NodeEdge(settings: settings, me: NodeIdentity(name: "a", address: "127.0.0.1:1"), url: database.location,
                                loop: loop, clock: clock, log: logLines.log)
            edge.start()
        }

        /// Runs the loop until `done` holds, or (a failure) `boundMs` passed: a bound only a
        /// broken gateway reaches.
        func run(boundMs: Int = 20_000, until done: () -> Bool) {
            let deadline = ContinuousClock.now.advanced(by: .milliseconds(boundMs))
            loop.run(timeout: { 50 }, tick: {
                if done() || ContinuousClock.now >= deadline { loop.stop() }
            })
            loop.clearStop()
        }
    }

    @Test func eightThousandPlayerCallsHeldInTheirLaneDoNotDelayARenewal() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let rig = try Rig(database, capacity: 10_000)
        defer { rig.faults.releasePlayerLane(); rig.edge.stop() }
        let before = rig.edge.lease.until
        rig.faults.holdPlayerLane()
        var answered = 0
        for _ in 0..<8_000 { rig.edge.ask({ _ in () }) { _ in answered += 1 } }
        rig.clock.advance(by: rig.edge.settings.renewEveryMs)
        rig.edge.renewIfDue(at: rig.clock.now(), changes: 0, listings: { [] })
        rig.run { rig.edge.lease.until > before }
        #expect(rig.edge.lease.until == before + rig.edge.settings.renewEveryMs)
        #expect(answered == 0)  // every player call still waits behind the held one
        rig.faults.releasePlayerLane()
        rig.run { answered == 8_000 }
        #expect(answered == 8_000)
    }

    @Test func aFullPlayerLaneAnswersUnavailableAtOnceAndTheCallsItHoldsStillRun() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let rig = try Rig(database, capacity: 4)
        defer { rig.faults.releasePlayerLane(); rig.edge.stop() }
        rig.faults.holdPlayerLane()
        var answers: [Result<Int, DatabaseError>] = []
        // The first is taken by the lane's thread and held; four wait; the last two are shed.
        rig.edge.ask({ _ in 0 }) { answers.append($0) }
        rig.run { rig.edge.playerLaneWaiting == 0 }
        for number in 1...6 { rig.edge.ask({ _ in number }) { answers.append($0) } }
        rig.run { answers.count == 2 }
        #expect(answers.map { (try? $0.get()) == nil } == [true, true])
        #expect(answers.allSatisfy { if case .failure(let error) = $0 { error.code == .unavailable } else { false } })
        rig.faults.releasePlayerLane()
        rig.run { answers.count == 7 }
        #expect(answers.dropFirst(2).map { try? $0.get() } == [0, 1, 2, 3, 4])
    }

    @Test func aLapseOfTheLeaseIsLoggedOnceAndItsReturnOnce() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let rig = try Rig(database, capacity: 16)
        defer { rig.edge.stop() }
        rig.faults.renewalsHeld = true
        for _ in 0..<8 {
            rig.clock.advance(by: rig.edge.settings.renewEveryMs)
            rig.edge.renewIfDue(at: rig.clock.now(), changes: 0, listings: { [] })
        }
        let lapsed = rig.logLines.all.filter { $0.contains("lease lapsed") }
        #expect(lapsed.count == 1)
        rig.faults.renewalsHeld = false
        rig.clock.advance(by: rig.edge.settings.renewEveryMs)
        rig.edge.renewIfDue(at: rig.clock.now(), changes: 0, listings: { [] })
        rig.run { rig.logLines.all.contains { $0.contains("renewed its lease: serving its matches again") } }
        rig.edge.renewIfDue(at: rig.clock.now().adding(rig.edge.settings.renewEveryMs), changes: 0, listings: { [] })
        #expect(rig.logLines.all.filter { $0.contains("renewed its lease") }.count == 1)
        #expect(rig.logLines.all.filter { $0.contains("lease lapsed") }.count == 1)
    }
}
