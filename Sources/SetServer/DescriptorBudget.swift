import SetRules

/// How many connections and matches fit in the file descriptors the process may open: each
/// connection holds one, each match's journal one, and the server itself a few.
struct DescriptorBudget: Equatable {
    var maxConnections: Int
    var maxMatches: Int

    /// Descriptors kept for the listener, epoll, its wake-up, the spare, stdio, and the odd file.
    static let reserve = 64

    /// The limits that fit in `descriptors`; unchanged when the configured ones already fit.
    static func fit(maxConnections: Int, maxMatches: Int, journals: Bool, descriptors: Int) -> DescriptorBudget {
        let available = max(2, descriptors - reserve)
        let needed = maxConnections + (journals ? maxMatches : 0)
        guard needed > available else { return DescriptorBudget(maxConnections: maxConnections, maxMatches: maxMatches) }
        guard journals else { return DescriptorBudget(maxConnections: available, maxMatches: maxMatches) }
        // A match needs a connection before it has a journal: give connections two thirds.
        let matches = max(1, min(maxMatches, available / 3))
        return DescriptorBudget(maxConnections: max(1, min(maxConnections, available - matches)), maxMatches: matches)
    }
}

/// Says a repeated condition at most once per interval, with how often it was kept quiet.
struct LogThrottle {
    let intervalMs: Int64
    private var lastSaid: [String: Instant] = [:]
    private var quieted: [String: Int] = [:]

    init(intervalMs: Int64 = 1_000) { self.intervalMs = intervalMs }

    /// Whether to log the condition `key` now; if so, how many times it was kept quiet since.
    mutating func admit(_ key: String, at now: Instant) -> Int? {
        if let last = lastSaid[key], now.milliseconds(since: last) < intervalMs, now >= last {
            quieted[key, default: 0] += 1
            return nil
        }
        lastSaid[key] = now
        return quieted.removeValue(forKey: key) ?? 0
    }
}
