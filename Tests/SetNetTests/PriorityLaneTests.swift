import Glibc
import SetNet
import Testing

/// The loop's priority lane: a descriptor in it that becomes ready while the loop works through
/// a long batch is served a few handlers later, not after the batch; the lane takes at most its
/// share of a busy batch; and a descriptor moves between the lanes without losing what waits on it.
@Suite struct PriorityLaneTests {
    /// Connected pairs of sockets; the first of each is watched, the second written to.
    private final class Pairs {
        var pairs: [(watched: Int32, peer: Int32)] = []

        func make(_ count: Int, ready: Bool) -> [(watched: Int32, peer: Int32)] {
            let made = (0..<count).map { _ in
                var fds: [Int32] = [0, 0]
                precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
                return (watched: fds[0], peer: fds[1])
            }
            if ready { made.forEach { Self.poke($0.peer) } }
            pairs += made
            return made
        }

        static func poke(_ fd: Int32) {
            var byte: UInt8 = 1
            precondition(Glibc.write(fd, &byte, 1) == 1)
        }

        static func drain(_ fd: Int32) {
            var byte: UInt8 = 0
            _ = read(fd, &byte, 1)
        }

        deinit { for (a, b) in pairs { Glibc.close(a); Glibc.close(b) } }
    }

    /// Runs the loop until `done` or three batches, whichever comes first.
    private func runBatches(_ loop: EventLoop, until done: () -> Bool) {
        var batches = 0
        loop.run(timeout: { 1_000 }, tick: {
            batches += 1
            if done() || batches >= 3 { loop.stop() }
        })
        loop.clearStop()
    }

    /// 100 ordinary sockets ready at once and one more, registered in the lane or not and then
    /// moved into `lane` or out of it, ready from the start or made ready by the first ordinary
    /// handler: how many ordinary handlers had run when it was served.
    private func servedAfter(registeredInLane: Bool, movedTo lane: Bool, readyFromStart: Bool) throws -> Int? {
        let loop = try EventLoop()
        let sockets = Pairs()
        let ordinary = sockets.make(100, ready: true)
        let other = sockets.make(1, ready: readyFromStart)[0]
        var handled = 0
        var handledWhenServed: Int?
        for pair in ordinary {
            try loop.register(pair.watched) { _ in
                Pairs.drain(pair.watched)
                handled += 1
                if handled == 1, !readyFromStart { Pairs.poke(other.peer) }
            }
        }
        try loop.register(other.watched, priority: registeredInLane) { _ in
            Pairs.drain(other.watched)
            handledWhenServed = handledWhenServed ?? handled
        }
        #expect(loop.isPrioritized(other.watched) == registeredInLane)
        loop.prioritize(other.watched, lane, readable: true, writable: false)
        #expect(loop.isPrioritized(other.watched) == lane)
        runBatches(loop) { handledWhenServed != nil && handled == 100 }
        #expect(handled == 100)
        return handledWhenServed
    }

    /// Made ready by the first of 100 handlers, a socket moved into the lane (as a server's
    /// connection is when it leaves a match) is served after the 8th (the lane is asked every
    /// 8); left in the ordinary lane, the same socket is served after the 100th, in the next batch.
    @Test func aPrioritySocketReadyDuringALongBatchIsServedWithinIt() throws {
        #expect(try servedAfter(registeredInLane: false, movedTo: true, readyFromStart: false) == 8)
        #expect(try servedAfter(registeredInLane: false, movedTo: false, readyFromStart: false) == 100)
    }

    /// A socket moved out of the lane waits for the batch, and loses nothing that was waiting on
    /// it: ready from the start, it is served after the 100 (it was ready when it joined their
    /// epoll, after they did), not at the lane's first check.
    @Test func aSocketMovedOutOfTheLaneWaitsForTheBatch() throws {
        #expect(try servedAfter(registeredInLane: true, movedTo: false, readyFromStart: true) == 100)
    }

    /// 40 priority sockets and 100 ordinary ones all ready: however the batch falls, at most 4
    /// priority handlers run for each 8 ordinary ones (and 4 more where the lane's own readiness
    /// comes in the batch), so a crowd in the lane cannot hold the matches' sockets up.
    @Test func theLaneTakesAtMostItsShareOfABusyBatch() throws {
        let loop = try EventLoop()
        let sockets = Pairs()
        var ordinaryHandled = 0, priorityHandled = 0
        var worstExcess = Int.min
        for pair in sockets.make(100, ready: true) {
            try loop.register(pair.watched) { _ in
                Pairs.drain(pair.watched)
                ordinaryHandled += 1
            }
        }
        for pair in sockets.make(40, ready: true) {
            try loop.register(pair.watched, priority: true) { _ in
                Pairs.drain(pair.watched)
                priorityHandled += 1
                if ordinaryHandled < 100 {
                    worstExcess = max(worstExcess, priorityHandled - (ordinaryHandled / 8 + 2) * 4)
                }
            }
        }
        runBatches(loop) { ordinaryHandled == 100 && priorityHandled == 40 }
        #expect(ordinaryHandled == 100 && priorityHandled == 40)
        #expect(worstExcess <= 0, "the lane ran ahead of its share by \(worstExcess)")
    }

    /// A socket in the lane that is unregistered is not served again, and its descriptor may be
    /// registered anew in the ordinary lane.
    @Test func anUnregisteredSocketLeavesTheLane() throws {
        let loop = try EventLoop()
        let sockets = Pairs()
        let pair = sockets.make(1, ready: true)[0]
        try loop.register(pair.watched, priority: true) { _ in Pairs.drain(pair.watched) }
        loop.unregister(pair.watched)
        #expect(!loop.isPrioritized(pair.watched))
        var served = 0
        try loop.register(pair.watched) { _ in
            Pairs.drain(pair.watched)
            served += 1
        }
        runBatches(loop) { served == 1 }
        #expect(served == 1)
    }
}
