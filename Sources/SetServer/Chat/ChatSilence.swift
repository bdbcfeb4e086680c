import Foundation
import SetRules

/// Who the operator silenced (`SilenceList`), from a plain file that is read again whenever it
/// changes, so silencing takes effect without a restart and survives one. A missing file
/// silences nobody. The loop only looks at the file's time and size; a changed file is read and
/// parsed by a `SilenceReader` off the loop (300,000 entries take about half a second), and the
/// list in force stays until the new one is in.
struct ChatSilence {
    let path: String?
    /// How often the file's modification time and size are looked at, at most.
    static let checkEveryMs: Int64 = 1_000
    private(set) var list = SilenceList()
    /// Whether a reading of the file is under way: lines said meanwhile wait for its list.
    private(set) var isReading = false
    private var stamp: (modified: Int, size: Int)?
    private var checkedAt: Instant?

    init(path: String?) { self.path = path }

    /// Looks at the file (at most once a second, never during a reading); returns the path to
    /// read when it changed. A file that is gone silences nobody from now on.
    mutating func changed(at now: Instant, log: (String) -> Void) -> String? {
        guard let path, !isReading else { return nil }
        if let checkedAt, now.milliseconds(since: checkedAt) < Self.checkEveryMs { return nil }
        checkedAt = now
        var info = stat()
        guard stat(path, &info) == 0 else {
            if stamp != nil { log("chat: \(path) is gone: nobody is silenced") }
            (stamp, list) = (nil, SilenceList())
            return nil
        }
        let current = (modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec, size: Int(info.st_size))
        guard stamp.map({ $0 != current }) ?? true else { return nil }
        stamp = current
        isReading = true
        return path
    }

    /// A reading ended: its list is in force from now on; nil (the file was not UTF-8 text, or
    /// could not be read) keeps the previous one.
    mutating func finishReading(_ read: SilenceList?) {
        isReading = false
        if let read { list = read }
    }
}
