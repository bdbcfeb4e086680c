import SetRules

/// A token bucket: `burst` messages at once, refilled at `perSecond`. Pure: time is passed in.
struct RateLimiter {
    private let capacity: Int64
    private let perSecond: Int64
    /// Thousandths of a message, so refills need no floating point.
    private var milliTokens: Int64
    private var last: Instant

    init(perSecond: Int, burst: Int, at start: Instant) {
        capacity = Int64(max(1, burst)) * 1_000
        self.perSecond = Int64(max(1, perSecond))
        milliTokens = capacity
        last = start
    }

    /// Whether one more message may pass at `now`; spends `cost` tokens if so (a dear request,
    /// such as `list`, costs several).
    mutating func allow(at now: Instant, cost: Int = 1) -> Bool {
        let elapsed = max(0, now.milliseconds(since: last))
        last = max(last, now)
        milliTokens = min(capacity, milliTokens + elapsed * perSecond)
        let price = Int64(max(1, cost)) * 1_000
        guard milliTokens >= price else { return false }
        milliTokens -= price
        return true
    }

    /// When the bucket holds half its burst again, from `now`: a connection over its limit is
    /// read again then, so it may send a burst's worth before it is stopped again.
    func halfFull(after now: Instant) -> Instant {
        let elapsed = max(0, now.milliseconds(since: last))
        let tokens = min(capacity, milliTokens + elapsed * perSecond)
        let missing = max(0, capacity / 2 - tokens)
        return now.adding((missing + perSecond - 1) / perSecond)
    }

    /// Gives back one message `allow` spent for something that turned out to be another's to pay.
    mutating func refund() {
        milliTokens = min(capacity, milliTokens + 1_000)
    }
}
