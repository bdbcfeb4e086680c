/// A lease on wall-clock milliseconds, the way every node reads one in the store: alive while
/// `until` is later than now. Pure: the time is always handed in.
struct NodeLease: Equatable, Sendable {
    /// Wall-clock milliseconds at which the lease ends.
    var until: Int64
    /// An operator drains the node (`setgame nodes drain`): it keeps its matches and takes no new
    /// ones. Read back from the node's row at each renewal.
    var draining = false

    func isAlive(at now: Int64) -> Bool { until > now }

    /// The lease a renewal made at `now` gives, for `leaseMs`.
    static func renewed(at now: Int64, for leaseMs: Int64) -> NodeLease { NodeLease(until: now + leaseMs) }

    /// How long a client is told to wait before trying a match on this lease's node again: until
    /// the lease ends (a node that renews by then is back), and at least a second.
    func retryAfterMs(at now: Int64) -> Int64 { max(1_000, until - now) }
}

/// Whether this node may serve its matches: only while its own lease, as last renewed in the
/// store, has not ended. A node that cannot renew (the store unreachable, a network split) stops
/// at the end of its lease, before any other node could take its place, so a match never runs
/// on two nodes at once.
enum OwnLease: Equatable, Sendable {
    /// Renewed; serving until then.
    case held(NodeLease)
    /// Not renewed in time: the node refuses joins and actions for its matches until it renews.
    case lapsed(NodeLease)

    /// The state at wall time `now`, from the last lease written.
    static func state(of lease: NodeLease, at now: Int64) -> OwnLease {
        lease.isAlive(at: now) ? .held(lease) : .lapsed(lease)
    }
}
