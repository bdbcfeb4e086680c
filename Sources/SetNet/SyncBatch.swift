import Synchronization

/// The files waiting to be put on disk by the background queue, synced together: one block on the
/// queue for however many files asked since the last one began, and one `syncfs` for the files of
/// one filesystem (`FileCalls.syncTogether`). A busy server asks for a thousand journals' syncs a
/// second (the sweep's, and every game's end and seed): one block and one `fdatasync` per file
/// woke the queue's thread a thousand times a second, each wake-up took the loop's core from it
/// (the bench pins the whole server to one core), and each sync was a commit of the filesystem's
/// journal and a flush of the disk's cache of its own.
///
/// Order stays what the queue gave before: a file's sync is done by a block queued when it asked,
/// so before anything its owner queues after asking (its `close`). A block takes every file asked
/// so far when it starts; a file asking after that start is left for a block queued then.
package final class SyncBatch: Sendable {
    private struct Waiting {
        var files: [Int32] = []
        var asked: Set<Int32> = []
        /// A block is queued that has not yet taken the files.
        var queued = false
    }

    private let waiting = Mutex(Waiting())
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let sync: @Sendable ([Int32]) -> Void

    /// `schedule` runs a block later on a serial queue; `sync` puts the data of the files it is
    /// given on disk.
    package init(schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void, sync: @escaping @Sendable ([Int32]) -> Void) {
        self.schedule = schedule
        self.sync = sync
    }

    /// Asks for `fd` to be synced by a block on the queue; the caller does not wait. A file
    /// already waiting is not asked twice.
    package func ask(_ fd: Int32) { ask(CollectionOfOne(fd)) }

    /// Asks for all of `fds` at once: one lock, and at most one block queued. Asking one by one,
    /// the first ask woke the queue's thread, which then took the asking loop's core (the bench
    /// pins the whole server to one) while the rest were still asking.
    package func ask<Files: Collection<Int32>>(_ fds: Files) {
        guard !fds.isEmpty else { return }
        let queueBlock = waiting.withLock { waiting -> Bool in
            for fd in fds where waiting.asked.insert(fd).inserted { waiting.files.append(fd) }
            defer { waiting.queued = true }
            return !waiting.queued
        }
        if queueBlock { schedule { [self] in syncWaiting() } }
    }

    /// Syncs every file asked so far, together.
    private func syncWaiting() {
        let files = waiting.withLock { waiting -> [Int32] in
            defer { waiting = Waiting() }
            return waiting.files
        }
        sync(files)
    }
}
