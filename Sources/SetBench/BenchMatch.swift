/// One benchmarked match as the load generator sees it: when each event reached how many of its
/// recipients, so an action's latency is measured to the arrival at the last of them.
final class BenchMatch {
    let index: Int
    let name: String
    /// Players plus spectators: everyone who receives each event.
    let recipients: Int
    private var arrivals: [Int: (count: Int, lastNanoseconds: UInt64)] = [:]
    /// Actions acknowledged before their last event reached everyone: seq → send time.
    private var waiting: [Int: UInt64] = [:]
    var gamesCompleted = 0
    /// Which of the loaded servers it is played on: its place in the list, or where a redirect sent it.
    var server: Int

    /// `run` tells runs apart, so a server loaded twice gets fresh matches.
    init(index: Int, recipients: Int, run: String, server: Int = 0) {
        self.index = index
        self.server = server
        name = "bench-\(run)-\(index)"
        self.recipients = recipients
    }

    /// A recipient received event `seq`; returns a finished latency (µs), if this completes one.
    func arrived(_ seq: Int, at now: UInt64) -> UInt32? {
        var entry = arrivals[seq] ?? (0, 0)
        entry.count += 1
        entry.lastNanoseconds = max(entry.lastNanoseconds, now)
        arrivals[seq] = entry
        if arrivals.count > 512 { arrivals = arrivals.filter { $0.key > seq - 256 } }
        guard entry.count == recipients, let sent = waiting.removeValue(forKey: seq) else { return nil }
        return latency(from: sent, to: entry.lastNanoseconds)
    }

    /// An action sent at `sent` was acknowledged as ending at event `seq`.
    func acknowledged(_ seq: Int, sentAt sent: UInt64) -> UInt32? {
        if let entry = arrivals[seq], entry.count == recipients { return latency(from: sent, to: entry.lastNanoseconds) }
        waiting[seq] = sent
        return nil
    }

    private func latency(from sent: UInt64, to arrived: UInt64) -> UInt32 {
        UInt32(clamping: (arrived > sent ? arrived - sent : 0) / 1_000)
    }
}
