import SetRules

/// Says a repeated condition at most once per interval, with how often it was kept quiet; what
/// was kept quiet is said once its interval is over (`overdue`), the last line of it with the
/// count, so no kind of line is lost because nothing like it came after. Conditions may be per
/// address, so the ones not said for an interval are forgotten once there are many: a stranger
/// cycling through addresses cannot grow it without bound.
struct LogThrottle {
    let intervalMs: Int64
    private var lastSaid: [String: Instant] = [:]
    /// Per condition kept quiet: how often, and its latest line.
    private var quieted: [String: (count: Int, last: String)] = [:]
    /// How many conditions may be remembered before the stale ones are forgotten; doubles with
    /// the live ones, so forgetting costs O(1) per call over time.
    private var forgetAt: Int
    static let minimumKept = 1_024

    init(intervalMs: Int64 = 1_000) {
        self.intervalMs = intervalMs
        forgetAt = Self.minimumKept
    }

    /// How many conditions it remembers.
    var count: Int { lastSaid.count }

    /// The line to log for condition `key` now, with how many were kept quiet since it was last
    /// said; nil while it is kept quiet.
    mutating func admit(_ key: String, _ line: String, at now: Instant) -> String? {
        if let last = lastSaid[key], now.milliseconds(since: last) < intervalMs, now >= last {
            quieted[key, default: (0, line)].count += 1
            quieted[key]?.last = line
            return nil
        }
        lastSaid[key] = now
        let count = quieted.removeValue(forKey: key)?.count ?? 0
        if lastSaid.count >= forgetAt { forgetStale(at: now) }
        return Self.line(line, more: count)
    }

    /// What was kept quiet for a whole interval since its condition was last said: the latest
    /// line of each, with how many more like it. Saying it counts as saying the condition.
    mutating func overdue(at now: Instant) -> [String] {
        var lines: [String] = []
        for (key, quiet) in quieted {
            guard let last = lastSaid[key], now.milliseconds(since: last) >= intervalMs || now < last else { continue }
            lines.append(Self.line(quiet.last, more: quiet.count - 1))
            lastSaid[key] = now
            quieted[key] = nil
        }
        return lines
    }

    private static func line(_ line: String, more: Int) -> String {
        more > 0 ? "\(line) (and \(more) more like it)" : line
    }

    /// Forgets the conditions not said within the interval and what they kept quiet: `overdue`
    /// runs often enough (every sweep) that only a flood of new conditions loses anything.
    private mutating func forgetStale(at now: Instant) {
        lastSaid = lastSaid.filter { now.milliseconds(since: $0.value) < intervalMs }
        quieted = quieted.filter { lastSaid[$0.key] != nil }
        forgetAt = max(Self.minimumKept, lastSaid.count * 2)
    }
}
