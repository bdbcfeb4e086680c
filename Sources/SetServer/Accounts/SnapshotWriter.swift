import Dispatch
import Synchronization

/// Writes snapshots of the accounts book one at a time, on a queue of their own: a running
/// server's are written from a copy of the book while the loop goes on (the copy shares the
/// book's storage until the loop next changes it: `GameStore` keeps its games in chunks so
/// that change copies one chunk, not a million games), so a start after a crash parses at most
/// the records since the last one.
final class SnapshotWriter: Sendable {
    let path: String
    private let log: ServerLog
    private let queue = DispatchQueue(label: "setgame.accounts-snapshot")
    private let writing = Atomic<Bool>(false)

    init(path: String, log: ServerLog) {
        self.path = path
        self.log = log
    }

    /// Starts writing `book`, derived from the log at `logPath` up to `offset`, unless a write is
    /// still going (the next record tries again); says whether it started.
    func startWriting(_ book: AccountSnapshot.Contents, offset: Int, logPath: String) -> Bool {
        guard writing.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return false }
        queue.async { [self] in
            if !AccountSnapshot.write(book, offset: offset, logPath: logPath, to: path) {
                log("cannot write \(path): the next start reads the log after the last snapshot")
            }
            writing.store(false, ordering: .releasing)
        }
        return true
    }

    /// Writes `book` now, after any write still going (a start's, a clean stop's).
    func write(_ book: AccountBook, offset: Int, logPath: String) -> Bool {
        queue.sync { AccountSnapshot.write(book, offset: offset, logPath: logPath, to: path) }
    }

    /// Returns once no write is going.
    func finish() { queue.sync {} }
}
