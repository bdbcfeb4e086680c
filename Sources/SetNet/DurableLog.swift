import Dispatch
import Glibc

/// An append-only file of lines that a crash or a full disk never leaves half-written: the match
/// journals are each one (and the accounts log an earlier version kept, read to import it). An
/// append is whole or not there (a write that stops part way is cut back to the last whole
/// line), a torn last line a crash left is cut off when the log is opened, and `fdatasync` runs
/// at once, on the sync thread, or later. The lines are read back by `DurableLog.read`; a
/// file beyond repair goes to `DamagedFiles`.
///
/// Used on one thread (the loop's); only the descriptor's number crosses to the sync thread,
/// which syncs it and, once `close` gave it up, closes it.
package final class DurableLog {
    /// How a log is opened.
    package enum Opening: Sendable {
        /// A log that must exist, to go on appending to it (after a restart).
        case existing
        /// A new log, owner-only (journals hold seat tokens); fails if the file exists.
        case new
        /// The log if it exists, else a new one, owner-only.
        case existingOrNew
    }

    /// When an append must be on disk.
    package enum Durability: Sendable {
        /// By the next `syncSoon()` or `close()`: the caller batches syncs.
        case later
        /// As soon as the sync thread gets to it; the append returns before.
        case soon
        /// Before the append returns: a failed sync undoes the append.
        case now
    }

    package let path: String
    private let fd: Int32
    private let faults: Faults?
    /// The length up to the last whole line: a failed append is cut back to it.
    package private(set) var length: off_t
    /// Whether bytes of a failed append may stand past `length`: its cut back failed.
    private var tailLeft = false
    /// Bytes of a torn last line (no newline) cut off when the log was opened; 0 if none.
    package let droppedTail: Int
    private var closed = false
    /// Whether something appended is not yet asked to be synced.
    package private(set) var needsSync = false
    /// The thread every log's syncs and closes run on, in the order asked. It runs in the
    /// background (nice 19): it woke once a second to sync a thousand journals and took the
    /// loop's core for 1-1.5 ms each time (the bench pins the server to one core, as a host with
    /// one may), while nobody waits for a sync but a power cut.
    private static let syncWorker: SerialWorker<Void> = {
        let worker = SerialWorker((), threadName: "journal-sync", urgency: .background)
        worker.start()
        return worker
    }()
    /// Syncs asked for by every log, a batch per wake-up of the sync thread.
    static let syncs = SyncBatch(schedule: { block in syncWorker.submit { block() } }, sync: { FileCalls.syncTogether($0) })

    /// Opens the log at `path`. An existing file whose last line has no newline (a crash
    /// mid-append) has that line cut off: `droppedTail` says how many bytes went.
    package init(path: String, opening: Opening, faults: Faults? = nil) throws(Failure) {
        self.path = path
        self.faults = faults
        let flags: Int32 = switch opening {
        case .existing: O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW
        case .new: O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        case .existingOrNew: O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW
        }
        let step: Failure.Step = opening == .existing ? .open : .create
        guard case .done(let opened) = SystemCall.run({ Int(open(path, flags, 0o600)) }) else {
            throw Failure(step, path, SystemCallError("open"))
        }
        let fd = Int32(opened)
        let end = lseek(fd, 0, SEEK_END)
        guard end >= 0 else {
            let error = SystemCallError("lseek")
            Glibc.close(fd)
            throw Failure(step, path, error)
        }
        // A second descriptor reads: this one is write-only.
        let whole = Self.endOfLastLine(path, length: end)
        if whole < end {
            guard case .done = SystemCall.run({ Int(ftruncate(fd, whole)) }) else {
                let error = SystemCallError("ftruncate")
                Glibc.close(fd)
                throw Failure(.cutBack, path, error)
            }
        }
        self.fd = fd
        length = whole
        droppedTail = Int(end - whole)
    }

    deinit { close() }

    /// Appends `bytes` (whole lines) and says why not, or nil when all of them are in the file
    /// and as durable as asked. On failure nothing of them stays: a write that stopped part way
    /// (a full disk) or a failed `.now` sync is cut back, so the file never holds half a line that
    /// later lines would bury, and the caller must not act on what failed.
    package func append(_ bytes: [UInt8], durability: Durability = .later) -> Failure? {
        guard !closed else { return Failure(.write, path, SystemCallError("write", code: EBADF)) }
        // An earlier failed append could not be cut back: try again before adding to it. Known
        // from that failure, not asked of the file: an `lseek` on every append was a fifth of the
        // server's system calls at saturation.
        if tailLeft {
            guard cutBack() else { return Failure(.cutBack, path, SystemCallError("ftruncate")) }
        }
        if let failed = write(bytes) {
            if failed.written > 0 { cutBack() }
            return Failure(.write, path, failed.error)
        }
        if durability == .now {
            guard FileCalls.syncData(fd) else {
                let error = SystemCallError("fdatasync")
                cutBack()
                return Failure(.sync, path, error)
            }
        }
        length += off_t(bytes.count)
        needsSync = durability == .later
        if durability == .soon {
            needsSync = true
            syncSoon()
        }
        return nil
    }

    /// Puts what was appended on disk, on the sync thread; the caller does not wait.
    package func syncSoon() {
        guard needsSync, !closed else { return }
        needsSync = false
        Self.syncs.ask(fd)
    }

    /// Adds this log to `together` when something appended is not yet asked to be synced: its
    /// sync is asked with the others' by `together.ask()`.
    package func syncSoon(with together: inout SyncTogether) {
        guard needsSync, !closed else { return }
        needsSync = false
        together.add(fd)
    }

    /// Syncs and closes, in that order, on the sync thread. The file stays.
    package func close() {
        guard !closed else { return }
        closed = true
        let fd = self.fd
        Self.syncWorker.submit { _ in
            FileCalls.syncData(fd)
            Glibc.close(fd)
        }
    }

    /// Deletes the file and closes it, unsynced: nothing in it is worth keeping.
    package func delete() {
        unlink(path)
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// Waits until every sync and close asked for so far is done; for shutdown and tests.
    package static func drain() {
        let done = DispatchSemaphore(value: 0)
        syncWorker.submit { _ in done.signal() }
        done.wait()
    }

    /// Writes `bytes` at the end, or as much of them as injected faults leave room for.
    private func write(_ bytes: [UInt8]) -> AppendFailure? {
        let allowed = faults?.allow(bytes.count) ?? bytes.count
        if allowed == 0 && !bytes.isEmpty { return AppendFailure(written: 0, error: SystemCallError("write", code: ENOSPC)) }
        guard allowed < bytes.count else { return FileCalls.append(bytes, to: fd) }
        if let failed = FileCalls.append(Array(bytes[..<allowed]), to: fd) { return failed }
        return AppendFailure(written: allowed, error: SystemCallError("write", code: ENOSPC))
    }

    /// Cuts the file back to `length`; false (and `tailLeft` set) when it could not be.
    @discardableResult
    private func cutBack() -> Bool {
        let cut = faults?.cutBackFailing != true && SystemCall.run({ Int(ftruncate(fd, length)) }) == .done(0)
        tailLeft = !cut
        return cut
    }

    /// Where the last whole line of the file at `path` ends: `length` when it ends in a newline
    /// (or is empty), else just after the last newline before it (0 if there is none).
    private static func endOfLastLine(_ path: String, length: off_t) -> off_t {
        guard length > 0, case .done(let opened) = SystemCall.run({ Int(open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) }) else {
            return length
        }
        let fd = Int32(opened)
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var end = length
        while end > 0 {
            let start = max(0, end - off_t(buffer.count))
            let count = Int(end - start)
            let read = buffer.withUnsafeMutableBytes { chunk in
                FileCalls.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<count]), from: fd, at: start)
            }
            // An unreadable tail is left as it is: the reader of the lines judges it.
            guard read else { return length }
            if let newline = buffer[0..<count].lastIndex(of: 0x0A) { return start + off_t(newline) + 1 }
            end = start
        }
        return 0
    }
}
