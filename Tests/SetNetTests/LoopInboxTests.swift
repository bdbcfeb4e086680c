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
}
