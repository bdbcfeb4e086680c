import Foundation
import Glibc
import SetNet
import Testing

/// Another thread hands values to the loop without waiting for it: the loop, asleep in its wait
/// with no timeout, wakes and takes them on its own thread, in the order they were posted.
@Suite struct LoopInboxTests {
    @Test func valuesPostedFromAnotherThreadReachTheLoopThreadInOrder() throws {
        let loop = try EventLoop()
        var received: [Int] = []
        var allOnTheLoop = true
        var loopThread: pthread_t?
        let inbox = loop.inbox { (values: [Int]) in
            allOnTheLoop = allOnTheLoop && loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
            received += values
            if received.count == 100 { loop.stop() }
        }
        Thread.detachNewThread {
            for value in 0..<100 { inbox.post(value) }
        }
        // Nothing registered and a long timeout: only a post wakes the loop. A loop that never
        // takes them gives up after 10 s (a bound for a broken build, not a wait for a fast one).
        let giveUp = ContinuousClock.now + .seconds(10)
        var gaveUp = false
        loop.run(timeout: { loopThread = pthread_self(); return 1_000 }, tick: {
            if received.count < 100, ContinuousClock.now > giveUp {
                gaveUp = true
                loop.stop()
            }
        })
        #expect(!gaveUp && received == Array(0..<100))
        #expect(allOnTheLoop)
    }

    /// A worker's answer posted while the loop works through a long batch is taken right after
    /// the handler during which it came, and a `midBatch` follows (the server's flush, which
    /// sends it), not after the batch and the eventfd's turn in the next one: 100 sockets ready
    /// at once, an answer posted as the first is handled, and it arrives before the second.
    @Test func aValuePostedDuringABatchIsTakenWithinIt() throws {
        let loop = try EventLoop()
        var handled = 0
        var handledWhenReceived: Int?
        var handledAtMidBatch: [Int] = []
        let inbox = loop.inbox { (_: [Int]) in handledWhenReceived = handledWhenReceived ?? handled }
        var pairs: [(Int32, Int32)] = []
        for _ in 0..<100 {
            var fds: [Int32] = [0, 0]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
            pairs.append((fds[0], fds[1]))
            var byte: UInt8 = 1
            #expect(Glibc.write(fds[1], &byte, 1) == 1)
        }
        defer { for (a, b) in pairs { Glibc.close(a); Glibc.close(b) } }
        for (fd, _) in pairs {
            try loop.register(fd) { _ in
                var byte: UInt8 = 0
                _ = read(fd, &byte, 1)
                handled += 1
                if handled == 1 { inbox.post(7) }
            }
        }
        var batches = 0
        loop.run(timeout: { 1_000 }, tick: {
            batches += 1
            if handledWhenReceived != nil || batches > 3 { loop.stop() }
        }, midBatch: { handledAtMidBatch.append(handled) }, midBatchInterval: 32)
        #expect(handledWhenReceived == 1)
        #expect(handledAtMidBatch.prefix(2) == [1, 32], "a flush after the answer, then every 32 handlers as before")
    }

    /// Answers posted faster than the loop takes them cost one wake-up, not one each: the posts
    /// after the first find it still waiting, whose wake-up takes them too.
    @Test func aBurstOfPostsWakesTheLoopOnce() throws {
        let loop = try EventLoop()
        var received: [Int] = []
        let inbox = loop.inbox { (values: [Int]) in
            received += values
            loop.stop()
        }
        let before = loop.wakeUps
        for value in 0..<3 { inbox.post(value) }
        #expect(loop.wakeUps - before == 1)
        loop.run(timeout: { 1_000 }, tick: {})
        #expect(received == [0, 1, 2])
        // Once taken, the next post wakes the loop again.
        let taken = loop.wakeUps
        inbox.post(3)
        #expect(loop.wakeUps - taken == 1)
    }
}
