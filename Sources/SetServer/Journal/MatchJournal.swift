import Glibc
import SetNet
import SetRules

/// Where a match room writes its journal: a file (`MatchJournal`), or memory in tests. Used only
/// on the loop thread.
protocol JournalWriter: AnyObject {
    /// Appends `records` and says whether all of them are written: nothing unwritten is acted on.
    /// `sync`: they must reach the disk at once.
    func write(_ records: [JournalRecord], sync: Bool) -> Bool
    /// From the next write on, the match is worth keeping: what was held in memory goes to disk.
    func keep()
    /// Puts what was written on disk soon, asked with the other journals' in `together`.
    func sync(with together: inout SyncTogether)
    /// Syncs and closes; the journal stays, for a restart or `finished/`.
    func close()
    /// Closes and deletes the journal: its match left nothing worth keeping.
    func discard()
    /// Why the last write failed, for the log.
    var failure: String? { get }
}

/// A match's append-only journal file (a `DurableLog`). Lines are written with `write(2)` on the
/// loop thread before the events they cause are sent, so a killed process loses nothing a player
/// was told. `fdatasync` never blocks the loop: it runs on the log's background queue, at once for
/// what must survive power loss (seat tokens, seeds, a game's end) and within a second for the rest.
///
/// It is not `Sendable` and need not be: it stays on the loop thread.
final class MatchJournal: JournalWriter {
    let path: String
    /// The file; nil for a deferred journal not yet kept (or whose first write failed).
    private var log: DurableLog?
    private let faults: JournalFaults?
    /// Lines held in memory while the match holds nothing worth keeping: the file is created only
    /// once it does (`keep()`), so abandoned matches leave no litter. Nil once the file exists.
    private var held: [UInt8]?
    private var wantsFile = false
    private var prepare: (() -> Void)?
    /// A held journal that grows past this is written out anyway: memory stays bounded.
    static let maxHeldBytes = 16_384
    private var closed = false
    /// Why the last write failed, for the log.
    private(set) var failure: String?

    /// Opens an existing journal to go on appending to it (after a restart).
    init(path: String, faults: JournalFaults? = nil) throws(SystemCallError) {
        self.path = path
        self.faults = faults
        do throws(DurableLog.Failure) { log = try DurableLog(path: path, opening: .existing, faults: faults) } catch {
            throw error.systemCallError
        }
    }

    /// Creates a new journal, owner-only (it holds seat tokens); fails if the file exists.
    init(creating path: String, faults: JournalFaults? = nil) throws(SystemCallError) {
        self.path = path
        self.faults = faults
        do throws(DurableLog.Failure) { log = try DurableLog(path: path, opening: .new, faults: faults) } catch {
            throw error.systemCallError
        }
    }

    /// A journal whose file is created at the first write after `keep()`, once `prepare` (which
    /// clears the path) has run.
    init(deferred path: String, faults: JournalFaults? = nil, prepare: @escaping () -> Void) {
        self.path = path
        self.faults = faults
        held = []
        self.prepare = prepare
    }

    deinit { close() }

    /// Whether the file exists (always, except for a deferred journal not yet kept).
    private var isOnDisk: Bool { held == nil }

    /// Whether something written is not yet asked to be synced.
    var needsSync: Bool { log?.needsSync ?? false }

    /// From the next write on, the journal is on disk, with everything held back first.
    func keep() { wantsFile = true }

    private func createFile() -> DurableLog? {
        if let log { return log }
        prepare?()
        prepare = nil
        do throws(DurableLog.Failure) { log = try DurableLog(path: path, opening: .new, faults: faults) } catch {
            failure = "\(error)"
        }
        return log
    }

    /// Appends `records` in one write and says whether all of them are in the file. A write that
    /// fails part way (a full disk) is cut back (`DurableLog.append`), so the file never holds half
    /// a record that later lines would bury: the journal stays readable, and the caller must not
    /// act on what failed.
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
            bytes = held + bytes
        }
        guard let log = createFile() else { return false }
        if let failed = log.append(bytes, durability: sync ? .soon : .later) {
            failure = "\(failed)"
            if creating { removeCreatedFile() }
            return false
        }
        held = nil
        failure = nil
        return true
    }

    /// The first write into a new file failed: the file goes again, so a server stopped before
    /// the disk has room leaves no empty or torn journal that its next start would call damaged.
    /// What was held stays held, and the next write creates the file anew.
    private func removeCreatedFile() {
        log?.delete()
        log = nil
    }

    /// Asks the background queue to put what was written on disk.
    func sync(with together: inout SyncTogether) {
        guard !closed else { return }
        log?.syncSoon(with: &together)
    }

    /// Syncs and closes, in that order, on the background queue.
    func close() {
        guard !closed else { return }
        closed = true
        log?.close()
    }

    func discard() {
        close()
        if isOnDisk { unlink(path) }
    }

    /// Waits until every sync and close asked for so far is done; for shutdown and tests.
    static func drain() { DurableLog.drain() }
}

/// A switch that makes every journal write fail as a full disk would; tests inject it to check
/// that nothing unjournaled is acknowledged, and that matches continue once writes work again.
package typealias JournalFaults = DurableLog.Faults

/// Reading a journal back: records, a torn last line dropped, a damaged one reported.
enum JournalFile {
    struct Contents {
        var records: [JournalRecord]
        /// Bytes of a torn last line that were dropped (and cut from the file).
        var droppedTail: Int
    }

    typealias Problem = DurableLog.ReadProblem

    /// Reads a journal, a chunk at a time (`JournalStream`), every record checked. The last line
    /// may be torn (no newline, or not a record): it is dropped and, with `repair`, cut from the
    /// file. Any other bad line makes the whole journal corrupt.
    static func read(_ path: String, repair: Bool = true) throws(Problem) -> Contents {
        var records: [JournalRecord] = []
        let summary = try JournalStream(path: path).forEach(cutTornTail: repair) { _, record in records.append(record) }
        return Contents(records: records, droppedTail: summary.droppedTail)
    }
}
