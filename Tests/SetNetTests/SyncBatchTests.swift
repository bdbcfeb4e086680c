import SetNet
import Synchronization
import Testing

/// The journals' syncs go to the background queue in batches: one block per wake-up of its
/// thread, not one per file (a busy server asks a thousand a second), and no file's sync comes
/// after what its owner queued later (its close).
@Suite struct SyncBatchTests {
    /// A serial queue run by hand: blocks wait until the test runs them, in order, and what a
    /// block queues (a `close`, here) can be put between them.
    final class HandQueue: Sendable {
        private let blocks = Mutex<[@Sendable () -> Void]>([])
        private let done = Mutex<[String]>([])

        var waiting: Int { blocks.withLock { $0.count } }
        var log: [String] { done.withLock { $0 } }

        func schedule(_ block: @escaping @Sendable () -> Void) { blocks.withLock { $0.append(block) } }
        func note(_ line: String) { done.withLock { $0.append(line) } }

        /// Runs the first block waiting.
        func runNext() {
            let block = blocks.withLock { $0.removeFirst() }
            block()
        }

        func batch() -> SyncBatch {
            SyncBatch(schedule: { [self] in schedule($0) }, sync: { [self] fd in note("sync \(fd)") })
        }
    }

    @Test func manyFilesAskingBeforeTheQueueRunsAreSyncedByOneBlock() {
        let queue = HandQueue()
        let batch = queue.batch()
        for fd in Int32(10)..<Int32(1_010) { batch.ask(fd) }
        #expect(queue.waiting == 1)
        queue.runNext()
        #expect(queue.log == (10..<1_010).map { "sync \($0)" })
    }

    @Test func aFileAskingTwiceBeforeItsSyncIsSyncedOnce() {
        let queue = HandQueue()
        let batch = queue.batch()
        batch.ask(7)
        batch.ask(8)
        batch.ask(7)
        queue.runNext()
        #expect(queue.log == ["sync 7", "sync 8"])
        #expect(queue.waiting == 0)
    }

    /// A file that asks once the block took the files gets a block of its own, queued then, so
    /// before whatever its owner queues next.
    @Test func aFileAskingAfterTheBlockBeganIsSyncedByTheNextBlockBeforeItsClose() {
        let queue = HandQueue()
        let batch = queue.batch()
        batch.ask(7)
        queue.schedule { queue.note("close 7") }
        // The first block is taken; a file asks while it would be running.
        queue.runNext()
        batch.ask(8)
        queue.schedule { queue.note("close 8") }
        queue.runNext()  // 7's close
        queue.runNext()  // the second block
        queue.runNext()  // the second close
        #expect(queue.log == ["sync 7", "close 7", "sync 8", "close 8"])
        #expect(queue.waiting == 0)
    }

    /// A file asking while a block is queued and not yet begun joins that block, which is before
    /// anything queued after the ask.
    @Test func aFileAskingWhileABlockWaitsJoinsItAheadOfItsClose() {
        let queue = HandQueue()
        let batch = queue.batch()
        batch.ask(7)
        batch.ask(8)
        queue.schedule { queue.note("close 8") }
        queue.runNext()
        queue.runNext()
        #expect(queue.log == ["sync 7", "sync 8", "close 8"])
    }
}
