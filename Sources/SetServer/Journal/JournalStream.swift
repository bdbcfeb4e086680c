import Glibc

/// A journal read a chunk at a time, never whole: each line is decoded and checked
/// (`JournalValidation`) as it arrives, so memory stays at one chunk and one line whatever the
/// file's size. A torn last line (no newline, or not a record, as a crash mid-write leaves it) is
/// left out; any other bad line stops the read with its record number.
struct JournalStream {
    /// Longer than any record a server writes; a longer line is damage, not a record.
    static let maxLineBytes = 64 * 1024

    let path: String

    /// What a whole pass found.
    struct Summary {
        var records = 0
        /// Bytes of the records read, up to and including the last good newline.
        var goodBytes = 0
        /// Bytes of a torn last line, left out.
        var droppedTail = 0
    }

    /// Calls `body` with each checked record and its number, in order.
    func forEach(_ body: (Int, JournalRecord) throws(JournalFile.Problem) -> Void) throws(JournalFile.Problem) -> Summary {
        var validation = JournalValidation()
        let summary = try Self.read(path: path, decode: { line in
            do throws(JournalRecord.Unreadable) { return .success(try JournalRecord.decode(line)) } catch { return .failure(error) }
        }, check: { record in
            do throws(JournalRecord.Unreadable) { try validation.check(record) } catch { return error.reason }
            return nil
        }, body)
        guard summary.records > 0 else { throw .corrupt(line: 1, reason: "no match header") }
        return summary
    }

    /// Any append-only log of JSON lines read the same way (the journals, the accounts log):
    /// `decode` reads a line or says why not, `check` says what is wrong with a record in its
    /// place (nil: nothing). Only a torn last line is forgiven, unless `skip` is given: then any
    /// bad line is handed to it (its number and why) and the pass goes on past it, its bytes
    /// counted as read. `offset` (a record boundary) starts the pass later: line numbers and
    /// byte counts are then counted from it.
    static func read<Record>(path: String, from offset: Int = 0, decode: ([UInt8]) -> Result<Record, JournalRecord.Unreadable>,
                             check: (Record) -> String?, skip: ((Int, String) -> Void)? = nil,
                             _ body: (Int, Record) throws(JournalFile.Problem) -> Void) throws(JournalFile.Problem) -> Summary {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else { throw .unreadable("cannot read \(path): \(String(cString: strerror(errno)))") }
        var summary = Summary()
        var line: [UInt8] = []
        var lineTooLong = false
        /// The bytes of a line too long to keep, counted so a pass that skips it stays in step.
        var tooLongBytes = 0
        // A line is judged once the next one starts: only the very last may be forgiven as torn.
        var pending: (number: Int, result: Result<Record, JournalRecord.Unreadable>, bytes: Int)?
        func settle(last: Bool) throws(JournalFile.Problem) {
            guard let held = pending else { return }
            pending = nil
            let problem: String
            switch held.result {
            case .success(let record):
                guard let found = check(record) else {
                    try body(held.number, record)
                    summary.records = held.number
                    summary.goodBytes += held.bytes
                    return
                }
                problem = found
            case .failure(let unreadable):
                guard !last else {
                    summary.droppedTail += held.bytes
                    return
                }
                problem = unreadable.reason
            }
            try passOver(held.number, problem, bytes: held.bytes)
        }
        func passOver(_ number: Int, _ problem: String, bytes: Int) throws(JournalFile.Problem) {
            guard let skip else { throw .corrupt(line: number, reason: problem) }
            skip(number, problem)
            summary.records = number
            summary.goodBytes += bytes
        }
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 65_536)
        defer { chunk.deallocate() }
        let base = chunk.baseAddress!
        var number = 0
        while true {
            let count = Glibc.read(fd, base, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable("cannot read \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            var start = 0
            // memchr, not a loop over the bytes: a million-game accounts log is 800 MiB.
            while let newline = memchr(base + start, 0x0A, count - start) {
                let index = UnsafeRawPointer(base).distance(to: newline)
                if !lineTooLong { line.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<index])) }
                number += 1
                try settle(last: false)
                if lineTooLong {
                    try passOver(number, "longer than \(Self.maxLineBytes) bytes", bytes: tooLongBytes + index - start + 1)
                    (lineTooLong, tooLongBytes) = (false, 0)
                    start = index + 1
                    continue
                }
                let bytes = line.count + 1
                pending = (number, decode(line), bytes)
                line.removeAll(keepingCapacity: true)
                start = index + 1
            }
            if lineTooLong {
                tooLongBytes += count - start
            } else {
                line.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<count]))
            }
            if line.count > Self.maxLineBytes {
                lineTooLong = true
                tooLongBytes = line.count
                line.removeAll()
            }
        }
        try settle(last: line.isEmpty && !lineTooLong)
        // What is left has no newline: torn by a crash mid-write.
        if lineTooLong || !line.isEmpty {
            guard !lineTooLong else { throw .corrupt(line: number + 1, reason: "longer than \(Self.maxLineBytes) bytes") }
            summary.droppedTail += line.count
        }
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
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                buffered += chunk[0..<count]
            }
            finished = true
            return nil
        }
    }
}
