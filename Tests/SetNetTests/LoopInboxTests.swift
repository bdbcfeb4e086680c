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
        // No timeout and nothing registered: only a post wakes the loop.
        loop.run(timeout: { loopThread = pthread_self(); return -1 }, tick: {})
        #expect(received == Array(0..<100))
        #expect(allOnTheLoop)
    }
}
