import SetRules

/// Each client address's share of the server as it is used, in one place: how many connections it holds open
/// (counted as they open, move when the door says where its player is, and close) and its
/// allowance of new connections (a bucket refilled at the connect rate). Admission asks it
/// before letting a connection in; the connection table counts in it. Pure: time is passed in.
struct AddressLedger {
    /// Open connections per address; an address holding none is not kept.
    private var open: [String: Int] = [:]
    /// Each address's allowance of new connections, and when it last connected.
    private var allowances: [String: (bucket: RateLimiter, last: Instant)] = [:]

    /// How many connections `address` holds now.
    func held(by address: String) -> Int { open[address] ?? 0 }

    /// One more connection counts under `address`.
    mutating func opened(_ address: String) { open[address, default: 0] += 1 }

    /// One connection under `address` went (closed, or moved to another address).
    mutating func closed(_ address: String) {
        guard let count = open[address] else { return }
        open[address] = count > 1 ? count - 1 : nil
    }

    /// Spends one of `address`'s new-connection allowance (`perSecond`, bursts of twice as many),
    /// if it has one left at `now`.
    mutating func mayConnect(from address: String, perSecond: Int, at now: Instant) -> Bool {
        var entry = allowances[address]
            ?? (RateLimiter(perSecond: perSecond, burst: perSecond.multipliedReportingOverflow(by: 2).partialValue, at: now), now)
        let allowed = entry.bucket.allow(at: now)
        entry.last = now
        allowances[address] = entry
        return allowed
    }

    /// Gives `address` back the new connection it was charged for one that turned out to be
    /// another address's (a door player seated by a handoff ticket, who pays at their own).
    mutating func refundConnect(to address: String) {
        allowances[address]?.bucket.refund()
    }

    /// Drops the allowances of addresses quiet long enough to have refilled them, once there are
    /// many: a crowd of one-time visitors must not grow the table for ever.
    mutating func forgetQuietAllowances(at now: Instant) {
        guard allowances.count > 1_024 else { return }
        allowances = allowances.filter { now.milliseconds(since: $0.value.last) < 10_000 }
    }
}
