import Foundation
import Glibc
import SetNet

/// The accounts log file, `accounts/accounts.jsonl` in the data folder: a `DurableLog`, each record
/// synced (`fdatasync`) before anyone is told of it, read back line by line and checked like a
/// journal. Used only on the loop thread.
final class AccountLog {
    static let fileName = "accounts.jsonl"

    private let log: DurableLog
    /// Why the last append failed, for the log.
    private(set) var failure: String?

    var path: String { log.path }
    /// The length up to the last whole record.
    var length: off_t { log.length }

    /// Opens (creating, owner-only) the log to append to it.
    init(path: String, faults: JournalFaults?) throws(SystemCallError) {
        do throws(DurableLog.Failure) { log = try DurableLog(path: path, opening: .existingOrNew, faults: faults) } catch {
            throw error.systemCallError
        }
    }

    /// Appends `record` and puts it on disk; says whether it is there. A partial write or a
    /// failed sync is cut back, so the file never holds half a record that later lines would bury.
    func append(_ record: AccountRecord) -> Bool { append(encoded: record.encoded()) }

    /// Appends a record already encoded (its line, newline included).
    func append(encoded bytes: [UInt8]) -> Bool {
        if let failed = log.append(bytes, durability: .now) {
            failure = "\(failed)"
            return false
        }
        failure = nil
        return true
    }

    /// What a start read: the book, the damage that stopped the read, the bytes of a torn last
    /// line cut off, where the log ends, and how many records were parsed (not taken from a snapshot).
    struct Read {
        var book: AccountBook
        var problem: JournalFile.Problem?
        var droppedTail = 0
        var end = 0
        var parsed = 0
        var fromSnapshot = false
        /// Lines that were not records the book could take (line number and why), passed over:
        /// one bad line costs itself, never the records after it.
        var skipped: [(line: Int, reason: String)] = []
    }

    /// Reads the log at `path` into a book, every record decoded and checked in order, starting
    /// from the snapshot at `snapshot` when it is sound and fits the log (only the records after
    /// it are parsed). A torn last line (a crash mid-append) is dropped and cut off; any other
    /// damage stops the read at the damaged record, returning the book up to it and the problem,
    /// always from a read of the whole log so the damage is found where the log says.
    static func read(_ path: String, snapshot: String? = nil) -> Read {
        guard access(path, F_OK) == 0 else { return Read(book: AccountBook()) }
        if let snapshot, let start = AccountSnapshot.read(snapshot, logPath: path) {
            // Lines passed over are numbered from the snapshot's end: the whole log is read
            // again so that the log written anew without them drops the right ones.
            let read = read(path, from: start.offset, into: start.book)
            if read.problem == nil && read.skipped.isEmpty {
                return Read(book: read.book, droppedTail: read.droppedTail, end: read.end, parsed: read.parsed, fromSnapshot: true)
            }
        }
        return read(path, from: 0, into: AccountBook())
    }

    private static func read(_ path: String, from offset: Int, into start: AccountBook) -> Read {
        var book = start
        var skipped: [(line: Int, reason: String)] = []
        do throws(JournalFile.Problem) {
            let summary = try DurableLog.read(path: path, from: offset, cutTornTail: true, decode: { line in
                do throws(AccountRecord.Unreadable) { return .success(try AccountRecord.decode(line)) } catch {
                    return .failure(DurableLog.BadLine(reason: error.reason))
                }
            }, check: { book.problem(with: $0) }, skip: { skipped.append(($0, $1)) }, { _, record in
                book.apply(record)
            })
            let end = offset + summary.goodBytes
            return Read(book: book, droppedTail: summary.droppedTail, end: end, parsed: summary.records, skipped: skipped)
        } catch {
            return Read(book: book, problem: error, skipped: skipped)
        }
    }

    /// Writes the first `count` lines of the damaged log set aside at `aside` as the new log at
    /// `path`, byte for byte: the records before the damage, which the book was read from.
    static func keep(lines count: Int, of aside: String, at path: String) -> Bool {
        guard count > 0 else { return true }
        return keep(of: aside, at: path) { number in number <= count ? .keep : .stop }
    }

    /// Writes the damaged log set aside at `aside` as the new log at `path` without the lines
    /// numbered in `dropped` (1-based), every other line byte for byte.
    static func keep(droppingLines dropped: Swift.Set<Int>, of aside: String, at path: String) -> Bool {
        keep(of: aside, at: path) { number in dropped.contains(number) ? .drop : .keep }
    }

    private enum LineFate { case keep, drop, stop }

    private static func keep(of aside: String, at path: String, fate: (Int) -> LineFate) -> Bool {
        guard let bytes = FileManager.default.contents(atPath: aside) else { return false }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var start = 0, number = 0
        scan: for (index, byte) in bytes.enumerated() where byte == 0x0A {
            number += 1
            switch fate(number) {
            case .keep: kept += bytes[start...index]
            case .drop: break
            case .stop: break scan
            }
            start = index + 1
        }
        guard let log = try? DurableLog(path: path, opening: .new) else { return false }
        defer { log.close() }
        return log.append(kept, durability: .now) == nil
    }
}
