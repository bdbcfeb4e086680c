import Dispatch
import Glibc
import SetNet
import SetRules
import Synchronization

/// Where a match room writes its journal: a file (`MatchJournal`), or memory in tests. Used only
/// on the loop thread.
protocol JournalWriter: AnyObject {
    /// Appends `records` and says whether all of them are written: nothing unwritten is acted on.
    /// `sync`: they must reach the disk at once.
    func write(_ records: [JournalRecord], sync: Bool) -> Bool
    /// From the next write on, the match is worth keeping: what was held in memory goes to disk.
    func keep()
    /// Puts what was written on disk, soon.
    func sync()
    /// Syncs and closes; the journal stays, for a restart or `finished/`.
    func close()
    /// Closes and deletes the journal: its match left nothing worth keeping.
    func discard()
    /// Why the last write failed, for the log.
    var failure: String? { get }
}

/// A match's append-only journal file. Lines are written with `write(2)` on the loop thread
/// before the events they cause are sent, so a killed process loses nothing a player was told.
/// `fdatasync` never blocks the loop: it runs on one background queue, at once for what must
/// survive power loss (seat tokens, seeds, a game's end) and within a second for the rest.
///
/// It is not `Sendable` and need not be: it stays on the loop thread, and the background queue
/// is handed only the descriptor's number, which it syncs and (once `close` gave it up) closes.
final class MatchJournal: JournalWriter {
    let path: String
    private var fd: Int32
    private let faults: JournalFaults?
    /// Lines held in memory while the match holds nothing worth keeping: the file is created only
    /// once it does (`keep()`), so abandoned matches leave no litter. Nil once the file exists.
    private var held: [UInt8]?
    private var wantsFile = false
    private var prepare: (() -> Void)?
    /// A held journal that grows past this is written out anyway: memory stays bounded.
    static let maxHeldBytes = 16_384
    /// The length of the file up to its last whole record: a failed write is cut back to it.
    private var length: off_t
    private var closed = false
    private(set) var needsSync = false
    /// Why the last write failed, for the log.
    private(set) var failure: String?
    private static let syncQueue = DispatchQueue(label: "setgame.journal-sync")

    /// Opens an existing journal to go on appending to it (after a restart).
    init(path: String, faults: JournalFaults? = nil) throws(SocketError) {
        self.path = path
        self.faults = faults
        fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw SocketError("open \(path)") }
        length = lseek(fd, 0, SEEK_END)
    }

    /// Creates a new journal, owner-only (it holds seat tokens); fails if the file exists.
    init(creating path: String, faults: JournalFaults? = nil) throws(SocketError) {
        self.path = path
        self.faults = faults
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SocketError("create \(path)") }
        length = 0
    }

    /// A journal whose file is created at the first write after `keep()`, once `prepare` (which
    /// clears the path) has run.
    init(deferred path: String, faults: JournalFaults? = nil, prepare: @escaping () -> Void) {
        self.path = path
        self.faults = faults
        fd = -1
        length = 0
        held = []
        self.prepare = prepare
    }

    deinit { close() }

    /// Whether the file exists (always, except for a deferred journal not yet kept).
    private var isOnDisk: Bool { held == nil }

    /// From the next write on, the journal is on disk, with everything held back first.
    func keep() { wantsFile = true }

    private func createFile() -> Bool {
        if fd >= 0 { return true }
        prepare?()
        prepare = nil
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            failure = "creating \(path) failed: \(SocketError("open"))"
            return false
        }
        return true
    }

    /// Appends `records` in one write and says whether all of them are in the file. A write that
    /// fails part way (a full disk) is cut back, so the file never holds half a record that later
    /// lines would bury: the journal stays readable, and the caller must not act on what failed.
    @discardableResult
    func write(_ records: [JournalRecord], sync: Bool = false) -> Bool {
        guard !closed else { return false }
        var bytes: [UInt8] = []
        for record in records { bytes += record.encoded() }
        let creating = held != nil
        if let held {
            if !wantsFile && held.count + bytes.count <= Self.maxHeldBytes {
                self.held = held + bytes
                return true
            }
            guard createFile() else { return false }
            bytes = held + bytes
        }
        if faults?.failing == true {
            failure = "writing \(path) failed: \(SocketError("write", code: ENOSPC))"
            if creating { removeCreatedFile() }
            return false
        }
        if length >= 0 && lseek(fd, 0, SEEK_END) != length {
            // An earlier failed write could not be cut back: try again before adding to it.
            guard ftruncate(fd, length) == 0 else {
                failure = "cutting \(path) back failed: \(SocketError("ftruncate"))"
                return false
            }
        }
        if let failed = FileCalls.append(bytes, to: fd) {
            failure = "writing \(path) failed: \(failed.error)"
            if creating { removeCreatedFile() } else if failed.written > 0 { _ = ftruncate(fd, length) }
            return false
        }
        length += off_t(bytes.count)
        held = nil
        failure = nil
        needsSync = true
        if sync { self.sync() }
        return true
    }

    /// The first write into a new file failed: the file goes again, so a server stopped before
    /// the disk has room leaves no empty or torn journal that its next start would call damaged.
    /// What was held stays held, and the next write creates the file anew.
    private func removeCreatedFile() {
        unlink(path)
        Glibc.close(fd)
        fd = -1
    }

    /// Asks the background queue to put what was written on disk.
    func sync() {
        guard needsSync, !closed, fd >= 0 else { return }
        needsSync = false
        let fd = self.fd
        Self.syncQueue.async { FileCalls.syncData(fd) }
    }

    /// Syncs and closes, in that order, on the background queue.
    func close() {
        guard !closed else { return }
        closed = true
        let fd = self.fd
        guard fd >= 0 else { return }
        Self.syncQueue.async {
            FileCalls.syncData(fd)
            Glibc.close(fd)
        }
    }

    func discard() {
        close()
        if isOnDisk { unlink(path) }
    }

    /// Waits until every sync and close asked for so far is done; for shutdown and tests.
    static func drain() { syncQueue.sync {} }
}

/// A switch that makes every journal write fail as a full disk would; tests inject it to check
/// that nothing unjournaled is acknowledged, and that matches continue once writes work again.
package final class JournalFaults: Sendable, Equatable {
    private let state = Mutex(false)
    package init() {}

    /// The same switch: a copy of a config shares its switch with the original, another does not.
    package static func == (lhs: JournalFaults, rhs: JournalFaults) -> Bool { lhs === rhs }

    /// Whether journal writes fail now.
    package var failing: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

/// Reading a journal back: records, a torn last line dropped, a damaged one reported.
enum JournalFile {
    struct Contents {
        var records: [JournalRecord]
        /// Bytes of a torn last line that were dropped (and cut from the file).
        var droppedTail: Int
    }

    enum Problem: Error, CustomStringConvertible {
        case unreadable(String)
        case corrupt(line: Int, reason: String)

        var description: String {
            switch self {
            case .unreadable(let reason): reason
            case .corrupt(let line, let reason): "record \(line): \(reason)"
            }
        }
    }

    /// Reads a journal, a chunk at a time (`JournalStream`), every record checked. The last line
    /// may be torn (no newline, or not a record): it is dropped and, with `repair`, cut from the
    /// file. Any other bad line makes the whole journal corrupt.
    static func read(_ path: String, repair: Bool = true) throws(Problem) -> Contents {
        var records: [JournalRecord] = []
        let summary = try JournalStream(path: path).forEach { _, record in records.append(record) }
        if summary.droppedTail > 0 && repair { truncate(path, off_t(summary.goodBytes)) }
        return Contents(records: records, droppedTail: summary.droppedTail)
    }
}
