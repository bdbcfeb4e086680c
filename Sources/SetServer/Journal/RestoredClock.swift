import SetNet
import SetRules

/// Where a restarted server's clock starts. Clients see its times, so it never runs backwards
/// across a restart (it starts above the lease, which is above every time handed out, and above
/// every restored journal's time), and it never starts near the end of the range clients accept.
enum RestoredClock {
    /// No restored clock starts past 2^50 ms. A server's clock counts the time it has run, plus
    /// at most a lease per restart: 2^50 ms is 35,000 years of that, and the 2^53 ms every client
    /// accepts (Protocol.md) lies 250,000 years further, whatever deadline a match sets. A lease
    /// or journal time past it was not written by a server's clock: it is set aside, since a
    /// clock started there would soon hand out times clients rightly drop.
    static let ceilingMs: Int64 = 1 << 50

    /// The first instant a restarted clock hands out: above the lease, which is above every time
    /// handed out before (and above when the last server stopped, see `ServerState.leaseMs`), and
    /// above every restored journal's time. Both were checked against `ceilingMs` when read.
    static func start(lease: Int64, journals: [Instant]) -> Int64 {
        max(lease, journals.map { $0.milliseconds + 1 }.max() ?? 0)
    }

    /// The server's clock: `base` moved up to `start` if it is below it, and leasing its future
    /// from `state` when there is a data folder.
    static func clock(base: any TimeSource, state: ServerState?, journals: [Instant]) -> any TimeSource {
        let shift = max(0, start(lease: state?.current.clockLease ?? 0, journals: journals) - base.now().milliseconds)
        let shifted: any TimeSource = shift > 0 ? ShiftedTime(base, by: shift) : base
        return state.map { LeasedTime(base: shifted, state: $0) } ?? shifted
    }
}
