import Dispatch
import Glibc
import SetNet
import SetRules

/// A match's append-only journal file. Lines are written with `write(2)` on the loop thread
/// before the events they cause are sent, so a killed process loses nothing a player was told.
/// `fdatasync` never blocks the loop: it runs on one background queue, at once for what must
/// survive power loss (seat tokens, seeds, a game's end) and within a second for the rest.
final class MatchJournal: @unchecked Sendable {
    let path: String
    // Written only on the loop thread; synced and closed only on `syncQueue`, which owns its end.
    private let fd: Int32
    private var closed = false
    private(set) var needsSync = false
    private(set) var failure: String?
    private static let syncQueue = DispatchQueue(label: "setgame.journal-sync")

    /// Opens an existing journal to go on appending to it (after a restart).
    init(path: String) throws(SocketError) {
        self.path = path
        fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { throw SocketError("open \(path)") }
    }

    /// Creates a new journal, owner-only (it holds seat tokens); fails if the file exists.
    init(creating path: String) throws(SocketError) {
        self.path = path
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SocketError("create \(path)") }
    }

    deinit { close() }

    func append(_ record: JournalRecord, sync: Bool = false) {
        guard !closed, failure == nil else { return }
        let bytes = record.encoded()
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                failure = "writing \(path) failed: \(SocketError("write"))"
                return
            }
            offset += written
        }
        needsSync = true
        if sync { self.sync() }
    }

    /// Asks the background queue to put what was written on disk.
    func sync() {
        guard needsSync, !closed else { return }
        needsSync = false
        let fd = self.fd
        Self.syncQueue.async { fdatasync(fd) }
    }

    /// Syncs and closes, in that order, on the background queue.
    func close() {
        guard !closed else { return }
        closed = true
        let fd = self.fd
        Self.syncQueue.async {
            fdatasync(fd)
            Glibc.close(fd)
        }
    }

    /// Waits until every sync and close asked for so far is done; for shutdown and tests.
    static func drain() { syncQueue.sync {} }
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
