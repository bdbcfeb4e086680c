import SetNet
import SetRules

/// The server's log as every part writes it: a line at once, or a line about a condition that
/// may recur (a refusal, a departure), said at most once a second per condition. One throttle
/// for all parts, so a flood that touches several of them still writes one line a second each.
final class ThrottledLog {
    let log: ServerLog
    private let clock: TimeSource
    private var throttle = LogThrottle()

    init(_ log: ServerLog, clock: TimeSource) {
        self.log = log
        self.clock = clock
    }

    func callAsFunction(_ line: String) { log(line) }

    /// Logs `message` unless the same condition was logged less than a second ago.
    func quietly(_ condition: String, _ message: String) {
        if let line = throttle.admit(condition, message, at: clock.now()) { log(line) }
    }

    /// Says what was kept quiet for a whole interval (the sweep calls it).
    func sayOverdue(at now: Instant) {
        for line in throttle.overdue(at: now) { log(line) }
    }
}
