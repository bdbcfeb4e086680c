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
    private var fd: Int32
    private var closed = false
    /// Lines held in memory until `commit()`: a match creates its file only once it holds
    /// something worth keeping, so abandoned matches leave no litter. Nil once the file exists.
    private var deferred: [[UInt8]]?
    private var prepare: (() -> Void)?
    /// A deferred journal that grows this long is committed anyway: memory stays bounded.
    static let maxDeferredLines = 64
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

    /// A journal whose file is created by `commit()`, after `prepare` (which clears the path).
    init(deferred path: String, prepare: @escaping () -> Void) {
        self.path = path
        fd = -1
        deferred = []
        self.prepare = prepare
    }

    deinit { close() }

    /// Whether the file exists (always, except for a deferred journal not yet committed).
    var isOnDisk: Bool { deferred == nil }

    /// Creates the file of a deferred journal and writes what was held back, then syncs it.
    func commit() {
        guard let held = deferred, !closed else { return }
        deferred = nil
        prepare?()
        prepare = nil
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            failure = "creating \(path) failed: \(SocketError("open"))"
            return
        }
        for bytes in held { writeLine(bytes) }
        sync()
    }

    func append(_ record: JournalRecord, sync: Bool = false) {
        guard !closed, failure == nil else { return }
        if deferred != nil {
            deferred!.append(record.encoded())
            if deferred!.count >= Self.maxDeferredLines { commit() }
            return
        }
        writeLine(record.encoded())
        if sync { self.sync() }
    }

    private func writeLine(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                failure = "writing \(path) failed: \(SocketError("write"))"
                return
            }
            offset += written
        }
        needsSync = true
    }

    /// Asks the background queue to put what was written on disk.
    func sync() {
        guard needsSync, !closed, fd >= 0 else { return }
        needsSync = false
        let fd = self.fd
        Self.syncQueue.async { fdatasync(fd) }
    }

    /// Syncs and closes, in that order, on the background queue.
    func close() {
        guard !closed else { return }
        closed = true
        let fd = self.fd
        guard fd >= 0 else { return }
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
            case .corrupt(let line, let reason): "line \(line): \(reason)"
            }
        }
    }

    /// Reads a journal. The last line may be torn (no newline, or not a record): it is dropped and
    /// cut from the file. Any other bad line makes the whole journal corrupt.
    static func read(_ path: String, repair: Bool = true) throws(Problem) -> Contents {
        guard let bytes = readAll(path) else { throw .unreadable("cannot read \(path)") }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        var keptBytes = bytes.count
        if lines.last?.isEmpty == true { lines.removeLast() } else if let torn = lines.popLast() {
            keptBytes -= torn.count
        }
        var records: [JournalRecord] = []
        for (index, line) in lines.enumerated() {
            do {
                records.append(try JournalRecord.decode(line))
            } catch {
                guard index == lines.count - 1 else { throw .corrupt(line: index + 1, reason: error.reason) }
                keptBytes -= line.count + 1
            }
        }
        guard case .header = records.first else { throw .corrupt(line: 1, reason: "no match header") }
        let dropped = bytes.count - keptBytes
        if dropped > 0 && repair { truncate(path, off_t(keptBytes)) }
        return Contents(records: records, droppedTail: dropped)
    }

    private static func readAll(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes += chunk[0..<count]
        }
    }
}
