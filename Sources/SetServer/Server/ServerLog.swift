import Glibc
import SetNet
import SetWire
import Synchronization

/// One line per notable event, each stamped with UTC wall-clock time, to a sink (stderr by default).
package final class ServerLog: Sendable {
    /// How each line is written.
    package enum Format: String, CaseIterable, Sendable {
        /// "2026-11-23T09:15:02.123Z message"
        case text
        /// {"message":"...","time":"2026-11-23T09:15:02.123Z"}, for log collectors.
        case json
    }

    private let sink: @Sendable (String) -> Void
    private let format: Format

    package init(format: Format = .text, sink: @escaping @Sendable (String) -> Void = ServerLog.standardError) {
        self.sink = sink
        self.format = format
    }

    /// A log that drops everything.
    package static let silent = ServerLog { _ in }

    package func callAsFunction(_ message: String) {
        sink(Self.line(message, at: Self.timestamp(), format: format))
    }

    /// A line `serve` prints beside the log (where it listens, why it could not start): as it is
    /// in text; in JSON a log line like the others, so a collector reading both streams (systemd's
    /// journal, a container's log) finds one object a line.
    package func standalone(_ message: String) -> String {
        format == .json ? Self.line(message, at: Self.timestamp(), format: .json) : message
    }

    /// One log line in `format`, without the newline.
    static func line(_ message: String, at time: String, format: Format) -> String {
        switch format {
        case .text: "\(time) \(message)"
        case .json: String(decoding: JSONWriter.bytes(.object(["time": .string(time), "message": .string(message)])), as: UTF8.self)
        }
    }

    package static let standardError: @Sendable (String) -> Void = { line in LineOutput.write([line], to: 2) }

    /// "2026-11-23T09:15:02.123Z".
    static func timestamp() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = spec.tv_nsec / 1_000_000
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}

/// A log that keeps its lines, for tests and for `setgame play`, which must not write over the screen.
package final class ServerLogLines: Sendable {
    private let lines = Mutex<[String]>([])
    private let heard: @Sendable (String) -> Void
    /// `heard` is told each line as it is kept, on the thread that logged it (a test's hook into
    /// a server's start, before the server can be reached any other way).
    package init(heard: @escaping @Sendable (String) -> Void = { _ in }) { self.heard = heard }
    package var all: [String] { lines.withLock { $0 } }
    package func append(_ line: String) {
        lines.withLock { $0.append(line) }
        heard(line)
    }
    package var log: ServerLog { ServerLog { [self] line in self.append(line) } }
}
