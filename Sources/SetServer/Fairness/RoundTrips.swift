import SetRules

/// One connection's round trips as the server measures them: the server's own pings, sent at
/// its own instants, and the pongs that echo them, timed on arrival. The client's clock is never
/// read, and a pong can only answer a ping the server really sent, so a client can make its round
/// trip look longer (by answering late) but never shorter.
struct RoundTrips: Equatable {
    /// Samples kept: with a ping every `interval`, about the last quarter of a minute.
    static let kept = 8
    /// Pings awaiting their pong; an older one is forgotten, and its late pong ignored.
    static let pendingLimit = 4
    /// How often a seated duel player is pinged while lag compensation is on.
    static let intervalMs: Int64 = 2_000

    /// The server instants (milliseconds) of pings not answered yet, oldest first.
    private(set) var pending: [Int64] = []
    /// The latest round trips, oldest first, in milliseconds.
    private(set) var samples: [Int64] = []
    /// An exponentially smoothed round trip for display (one eighth per sample, as TCP's SRTT).
    private(set) var smoothedMs: Int64?
    /// When the server last pinged for a sample.
    private(set) var lastPingAt: Instant?

    /// The server sends a ping stamped `now`.
    mutating func pinged(at now: Instant) {
        lastPingAt = now
        guard pending.last != now.milliseconds else { return }
        if pending.count == Self.pendingLimit { pending.removeFirst() }
        pending.append(now.milliseconds)
    }

    /// A pong echoing `time` arrived at `now`; false if it answers no ping of ours.
    @discardableResult
    mutating func answered(time: Int64, at now: Instant) -> Bool {
        guard let index = pending.firstIndex(of: time), now.milliseconds >= time else { return false }
        pending.removeSubrange(...index)
        let sample = now.milliseconds - time
        if samples.count == Self.kept { samples.removeFirst() }
        samples.append(sample)
        smoothedMs = smoothedMs.map { $0 + (sample - $0) / 8 } ?? sample
        return true
    }

    /// The least recent round trip; 0 before any sample.
    var lowMs: Int64 { samples.min() ?? 0 }

    /// The estimate compensation uses: the median of the recent round trips (the lower middle
    /// one of an even count); 0 before any sample. Delaying pongs raises it; nothing a client
    /// does lowers it below what the network allows, and one slow sample does not move it. The
    /// lowest sample was used before, but a jittery link's lowest is well under its usual round
    /// trip, and once credit became a quota (`RaceLedger`) that cost such a link its fair share
    /// (41 % and less at 80 ±20 ms each way, against 45.5 % on a steady 80 ms).
    var medianMs: Int64 {
        guard !samples.isEmpty else { return 0 }
        return samples.sorted()[(samples.count - 1) / 2]
    }

    /// Whether a ping for a fresh sample is due at `now`.
    func pingDue(at now: Instant) -> Bool {
        guard let lastPingAt else { return true }
        return now.milliseconds(since: lastPingAt) >= Self.intervalMs
    }
}
