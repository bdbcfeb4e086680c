import Glibc
import SetNet

/// A journal read a chunk at a time, never whole (`DurableLog.read`): each line is decoded and
/// checked (`JournalValidation`) as it arrives, so memory stays at one chunk and one line whatever
/// the file's size. A torn last line (no newline, or not a record, as a crash mid-write leaves it)
/// is left out; any other bad line stops the read with its record number.
struct JournalStream {
    /// Longer than any record a server writes; a longer line is damage, not a record.
    static let maxLineBytes = DurableLog.maxLineBytes

    typealias Summary = DurableLog.ReadSummary

    let path: String

    /// Calls `body` with each checked record and its number, in order; with `cutTornTail`, a torn
    /// last line is cut from the file too.
    func forEach(cutTornTail: Bool = false, _ body: (Int, JournalRecord) throws(JournalFile.Problem) -> Void) throws(JournalFile.Problem) -> Summary {
        var validation = JournalValidation()
        let summary = try DurableLog.read(path: path, cutTornTail: cutTornTail, decode: { line in
            do throws(JournalRecord.Unreadable) { return .success(try JournalRecord.decode(line)) } catch {
                return .failure(DurableLog.BadLine(reason: error.reason))
            }
        }, check: { record in
            do throws(JournalRecord.Unreadable) { try validation.check(record) } catch { return error.reason }
            return nil
        }, body)
        guard summary.records > 0 else { throw .corrupt(line: 1, reason: "no match header") }
        return summary
    }
}

/// The records of a journal as a sequence that reads the file again on every pass, a chunk at a
/// time. Use it only after a `JournalStream` pass has checked the file: a pass stops quietly at
/// the first line it cannot read.
struct JournalRecords: Sequence {
    let path: String

    func makeIterator() -> Iterator { Iterator(path: path) }

    final class Iterator: IteratorProtocol {
        private let fd: Int32
        private var buffered: [UInt8] = []
        private var offset = 0
        private var finished = false

        init(path: String) { fd = open(path, O_RDONLY | O_CLOEXEC) }

        deinit { if fd >= 0 { close(fd) } }

        func next() -> JournalRecord? {
            guard fd >= 0 else { return nil }
            while !finished {
                if let newline = buffered[offset...].firstIndex(of: 0x0A) {
                    let line = Array(buffered[offset..<newline])
                    offset = newline + 1
                    guard let record = try? JournalRecord.decode(line) else {
                        finished = true
                        return nil
                    }
                    return record
                }
                guard buffered.count - offset <= JournalStream.maxLineBytes else { break }
                buffered.removeFirst(offset)
                offset = 0
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let read = chunk.withUnsafeMutableBytes { FileCalls.readSome(into: $0, from: fd) }
                guard case .success(let count) = read, count > 0 else { break }
                buffered += chunk[0..<count]
            }
            finished = true
            return nil
        }
    }
}
