import Glibc
import SetRules

/// When the import says how far it is, and what it says (issue 43): a line once the first games
/// are written, then at least every `interval` while it runs, with the games done, of how many,
/// the rate and the time left; and while the totals are written at the end, accounts done of
/// how many. Pure: the caller passes the clock's time.
struct ImportProgress {
    /// A line this often while statements are short: under the watch's quiet (`ImportWatch`), which
    /// then speaks only while one long statement runs.
    static let interval: Int64 = 4_000
    /// The games the log holds (`ImportProgress.games(in:)`), nil when it could not be counted.
    let total: Int?
    let started: Instant
    private var lastLine: Instant?

    init(total: Int?, at started: Instant) {
        (self.total, self.started) = (total, started)
    }

    /// The line to log at `now`, with `done` games written, or nil when the last was recent.
    mutating func games(_ done: Int, at now: Instant) -> String? {
        guard done > 0, isDue(at: now) else { return nil }
        let seconds = Double(now.milliseconds - started.milliseconds) / 1_000
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = "accounts import: \(Self.grouped(done))"
        if let total, total >= done {
            line += " of \(Self.grouped(total)) games (\(done * 100 / max(total, 1)) %), \(Self.grouped(Int(rate))) games/s"
            if rate > 0 { line += ", about \(Int((Double(total - done) / rate).rounded(.up))) s left" }
        } else {
            line += " games, \(Self.grouped(Int(rate))) games/s"
        }
        return line
    }

    /// The line to log at `now` while the accounts' totals are written, or nil when the last was recent.
    mutating func totals(_ done: Int, of count: Int, at now: Instant) -> String? {
        guard isDue(at: now) else { return nil }
        return "accounts import: every game is written; writing the accounts' totals, \(Self.grouped(done)) of \(Self.grouped(count)) accounts"
    }

    private mutating func isDue(at now: Instant) -> Bool {
        if let lastLine, now.milliseconds - lastLine.milliseconds < Self.interval { return false }
        lastLine = now
        return true
    }

    /// 1234567 as "1,234,567".
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        let groups = stride(from: digits.count, to: 0, by: -3).reversed().map { String(digits[max(0, $0 - 3)..<$0]) }
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// The game records in the log at `path` (lines with `"type":"game"`, as every writer of it
    /// spelled it), counted in one pass over its bytes; nil when it is not a regular file (it
    /// cannot be read twice) or cannot be read.
    static func games(in path: String) -> Int? {
        // Looked at before it is opened: opening a pipe waits for its writer.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let needle = Array(#""type":"game""#.utf8)
        let size = 1 << 20
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size + needle.count)
        defer { buffer.deallocate() }
        var count = 0
        var kept = 0
        while true {
            let got = read(fd, buffer + kept, size)
            guard got >= 0 else { return nil }
            let filled = kept + got
            var at = 0
            // memchr to each quote, memcmp there (Glibc does not export memmem).
            while filled - at >= needle.count, let quote = memchr(buffer + at, Int32(needle[0]), filled - at - needle.count + 1) {
                at = UnsafeRawPointer(buffer).distance(to: quote)
                if memcmp(quote, needle, needle.count) == 0 {
                    count += 1
                    at += needle.count
                } else {
                    at += 1
                }
            }
            if got == 0 { return count }
            // The chunk's tail may hold the start of a needle the next chunk ends.
            kept = min(needle.count - 1, filled - at)
            memmove(buffer, buffer + filled - kept, kept)
        }
    }
}
