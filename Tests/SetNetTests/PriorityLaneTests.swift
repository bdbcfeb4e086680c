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

    /// 100 ordinary sockets ready at once; the first handler makes the priority socket ready.
    /// It is served after the 8th handler (the lane is asked every 8), where the ordinary lane
    /// would have served it after the 100th, in the next batch. The socket was moved into the
    /// lane after it was registered, as a server's connection is when it leaves a match.
    @Test func aPrioritySocketReadyDuringALongBatchIsServedWithinIt() throws {
        let loop = try EventLoop()
        let sockets = Pairs()
        let ordinary = sockets.make(100, ready: true)
        let urgent = sockets.make(1, ready: false)[0]
        var handled = 0
        var handledWhenServed: Int?
        for pair in ordinary {
            try loop.register(pair.watched) { _ in
                Pairs.drain(pair.watched)
                handled += 1
                if handled == 1 { Pairs.poke(urgent.peer) }
            }
        }
        try loop.register(urgent.watched) { _ in
            Pairs.drain(urgent.watched)
            handledWhenServed = handledWhenServed ?? handled
        }
        #expect(!loop.isPrioritized(urgent.watched))
        loop.prioritize(urgent.watched, true, readable: true, writable: false)
        #expect(loop.isPrioritized(urgent.watched))
        runBatches(loop) { handledWhenServed != nil && handled == 100 }
        #expect(handledWhenServed == 8)
        #expect(handled == 100)
    }

    /// The same socket moved back out of the lane waits for the batch, as before: the move is
    /// what makes the difference, and it loses nothing that was waiting on the socket.
    @Test func aSocketMovedOutOfTheLaneWaitsForTheBatch() throws {
        let loop = try EventLoop()
        let sockets = Pairs()
        let ordinary = sockets.make(100, ready: true)
        let moved = sockets.make(1, ready: true)[0]
        var handled = 0
        var handledWhenServed: Int?
        for pair in ordinary {
            try loop.register(pair.watched) { _ in
                Pairs.drain(pair.watched)
                handled += 1
            }
        }
        try loop.register(moved.watched, priority: true) { _ in
            Pairs.drain(moved.watched)
            handledWhenServed = handledWhenServed ?? handled
        }
        loop.prioritize(moved.watched, false, readable: true, writable: false)
        #expect(!loop.isPrioritized(moved.watched))
        runBatches(loop) { handledWhenServed != nil && handled == 100 }
        // In the same batch as the 100, after them (it was ready when it joined their epoll,
        // after they did), not at the lane's first check, after the 8th: it left the lane.
        #expect(handledWhenServed == 100)
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
