import Glibc

// Reading a log back: one line at a time, a chunk of the file in memory, never the whole file.
extension DurableLog {
    /// Longer than any line a server writes; a longer line is damage, not a record.
    package static let maxLineBytes = 64 * 1024

    /// Why a line is not a record, in words for the log.
    package struct BadLine: Error, Sendable {
        package var reason: String
        package init(reason: String) { self.reason = reason }
    }

    /// Why a log could not be read past some point.
    package enum ReadProblem: Error, CustomStringConvertible, Sendable {
        /// The file cannot be opened or read.
        case unreadable(String)
        /// Record `line` (1-based) is damaged, and it is not the last line.
        case corrupt(line: Int, reason: String)

        package var description: String {
            switch self {
            case .unreadable(let reason): reason
            case .corrupt(let line, let reason): "record \(line): \(reason)"
            }
        }
    }

    /// What a whole pass found.
    package struct ReadSummary: Sendable {
        /// The number of the last line taken (or passed over).
        package var records = 0
        /// Bytes of the lines read, up to and including the last good newline.
        package var goodBytes = 0
        /// Bytes of a torn last line, left out.
        package var droppedTail = 0
    }

    /// Reads the log at `path` line by line: `decode` reads a line or says why not, `check` says
    /// what is wrong with a record in its place (nil: nothing), `body` takes each good record with
    /// its number. The last line may be torn, as a crash mid-append leaves it (no newline, or a
    /// line that does not decode): it is left out and, with `cutTornTail`, cut from the file. Any
    /// other bad line stops the pass with its number, unless `skip` is given: then it is handed
    /// to `skip` (its number and why) and the pass goes on past it, its bytes counted as read.
    /// `offset` (a line boundary) starts the pass later: numbers and counts start from it.
    package static func read<Record>(path: String, from offset: Int = 0, cutTornTail: Bool = false,
                                     decode: ([UInt8]) -> Result<Record, BadLine>, check: (Record) -> String?,
                                     skip: ((Int, String) -> Void)? = nil,
                                     _ body: (Int, Record) throws(ReadProblem) -> Void) throws(ReadProblem) -> ReadSummary {
        func unreadable(_ code: Int32) -> ReadProblem { .unreadable("cannot read \(path): \(String(cString: strerror(code)))") }
        guard case .done(let opened) = SystemCall.run({ Int(open(path, O_RDONLY | O_CLOEXEC)) }) else { throw unreadable(errno) }
        let fd = Int32(opened)
        defer { Glibc.close(fd) }
        // A pass from the start does not seek: a log given through a pipe cannot.
        guard offset == 0 || lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else { throw unreadable(errno) }
        var summary = ReadSummary()
        var line: [UInt8] = []
        var lineTooLong = false
        /// The bytes of a line too long to keep, counted so a pass that skips it stays in step.
        var tooLongBytes = 0
        // A line is judged once the next one starts: only the very last may be forgiven as torn.
        var pending: (number: Int, result: Result<Record, BadLine>, bytes: Int)?
        func settle(last: Bool) throws(ReadProblem) {
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
            case .failure(let bad):
                guard !last else {
                    summary.droppedTail += held.bytes
                    return
                }
                problem = bad.reason
            }
            try passOver(held.number, problem, bytes: held.bytes)
        }
        func passOver(_ number: Int, _ problem: String, bytes: Int) throws(ReadProblem) {
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
            let count: Int
            switch FileCalls.readSome(into: UnsafeMutableRawBufferPointer(chunk), from: fd) {
            case .success(let got): count = got
            case .failure(let error): throw unreadable(error.code)
            }
            if count == 0 { break }
            var start = 0
            // memchr, not a loop over the bytes: a million-game accounts log is 800 MiB.
            while let newline = memchr(base + start, 0x0A, count - start) {
                let index = UnsafeRawPointer(base).distance(to: newline)
                if !lineTooLong { line.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<index])) }
                number += 1
                try settle(last: false)
                if lineTooLong {
                    try passOver(number, "longer than \(maxLineBytes) bytes", bytes: tooLongBytes + index - start + 1)
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
            if line.count > maxLineBytes {
                lineTooLong = true
                tooLongBytes = line.count
                line.removeAll()
            }
        }
        try settle(last: line.isEmpty && !lineTooLong)
        // What is left has no newline: torn by a crash mid-write.
        if lineTooLong || !line.isEmpty {
            guard !lineTooLong else { throw .corrupt(line: number + 1, reason: "longer than \(maxLineBytes) bytes") }
            summary.droppedTail += line.count
        }
        if cutTornTail && summary.droppedTail > 0 {
            _ = SystemCall.run { Int(truncate(path, off_t(offset + summary.goodBytes))) }
        }
        return summary
    }
}
