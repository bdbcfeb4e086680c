import Foundation
import Glibc
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
            SyncBatch(schedule: { [self] in schedule($0) }, sync: { [self] files in note("sync " + files.map(String.init).joined(separator: ",")) })
        }
    }

    @Test func manyFilesAskingBeforeTheQueueRunsAreSyncedByOneBlock() {
        let queue = HandQueue()
        let batch = queue.batch()
        for fd in Int32(10)..<Int32(1_010) { batch.ask(fd) }
        #expect(queue.waiting == 1)
        queue.runNext()
        #expect(queue.log == ["sync " + (10..<1_010).map(String.init).joined(separator: ",")])
    }

    /// A queue whose thread runs each block the moment it is queued, as one that takes the asking
    /// loop's core at once: files asked one by one are each synced alone, files asked together
    /// by one block.
    @Test func filesAskedTogetherAreSyncedByOneBlockThoughTheQueueRunsAtOnce() {
        let queue = HandQueue()
        let batch = SyncBatch(schedule: { $0() }, sync: { files in queue.note("sync " + files.map(String.init).joined(separator: ",")) })
        for fd in Int32(10)..<Int32(13) { batch.ask(fd) }
        #expect(queue.log == ["sync 10", "sync 11", "sync 12"])
        batch.ask([20, 21, 20, 22])
        batch.ask([Int32]())
        #expect(queue.log == ["sync 10", "sync 11", "sync 12", "sync 20,21,22"])
    }

    @Test func aFileAskingTwiceBeforeItsSyncIsSyncedOnce() {
        let queue = HandQueue()
        let batch = queue.batch()
        batch.ask(7)
        batch.ask(8)
        batch.ask(7)
        queue.runNext()
        #expect(queue.log == ["sync 7,8"])
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
        #expect(queue.log == ["sync 7,8", "close 8"])
    }

    /// Files of one filesystem are one group (one `syncfs` for all), another filesystem's are
    /// another; every file is synced and the kernel says so.
    @Test func filesAreSyncedTogetherByFilesystem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-batch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = (0..<3).map { open(folder + "/f\($0)", O_WRONLY | O_CREAT | O_APPEND, 0o600) }
        let elsewhere = open("/proc/self/stat", O_RDONLY)
        defer { (files + [elsewhere]).forEach { _ = close($0) } }
        #expect(files.allSatisfy { $0 >= 0 } && elsewhere >= 0)
        for fd in files { #expect(FileCalls.append(Array("a line\n".utf8), to: fd) == nil) }
        #expect(FileCalls.byFilesystem([files[0], elsewhere, files[1], files[2]]) == [[files[0], files[1], files[2]], [elsewhere]])
        #expect(FileCalls.syncTogether(files))
        #expect(FileCalls.syncTogether([files[0]]))
        #expect(!FileCalls.syncTogether([files[0], -1]), "a file that cannot be synced is said")
    }
}
