import SetRules

/// Says a repeated condition at most once per interval, with how often it was kept quiet.
/// Conditions may be per address, so the ones not said for an interval are forgotten once there
/// are many: a stranger cycling through addresses cannot grow it without bound.
struct LogThrottle {
    let intervalMs: Int64
    private var lastSaid: [String: Instant] = [:]
    private var quieted: [String: Int] = [:]
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

    /// Whether to log the condition `key` now; if so, how many times it was kept quiet since.
    mutating func admit(_ key: String, at now: Instant) -> Int? {
        if let last = lastSaid[key], now.milliseconds(since: last) < intervalMs, now >= last {
            quieted[key, default: 0] += 1
            return nil
        }
        lastSaid[key] = now
        let count = quieted.removeValue(forKey: key) ?? 0
        if lastSaid.count >= forgetAt { forgetStale(at: now) }
        return count
    }

    /// Forgets the conditions not said within the interval: what they kept quiet goes unsaid,
    /// as it would if they never came back.
    private mutating func forgetStale(at now: Instant) {
        lastSaid = lastSaid.filter { now.milliseconds(since: $0.value) < intervalMs }
        quieted = quieted.filter { lastSaid[$0.key] != nil }
        forgetAt = max(Self.minimumKept, lastSaid.count * 2)
    }
}
