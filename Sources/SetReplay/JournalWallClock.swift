import Glibc

/// Wall-clock seconds for a journal's times. A journal counts time on the server's own clock
/// (milliseconds it has run), so a cast's header once said its match began in January 1970; the
/// file's modification time is when its last record was written, which ties the two together.
package struct JournalWallClock: Sendable, Equatable {
    /// Unix seconds at the journal time `ms`.
    let unixSeconds: Int64
    let ms: Int64

    /// The clock of the journal at `path` whose last record is at `lastMs`; nil when the file
    /// cannot be read or holds no timed record.
    package init?(path: String, lastMs: Int64?) {
        var info = stat()
        guard let lastMs, stat(path, &info) == 0 else { return nil }
        self.init(unixSeconds: Int64(info.st_mtim.tv_sec), at: lastMs)
    }

    /// A clock that read `unixSeconds` at journal time `ms`.
    package init(unixSeconds: Int64, at ms: Int64) {
        self.unixSeconds = unixSeconds
        self.ms = ms
    }

    /// The Unix seconds of journal time `time`.
    package func seconds(at time: Int64) -> Int64 {
        unixSeconds - (ms - time) / 1_000
    }
}
