import Foundation
import SetNet
import SetRules

/// A lone server's wall clock in milliseconds since 1970, for the store's times that the wire gives
/// on the server's own clock (an arena's start and end): read once at start, then counted on by the
/// server's clock, so every answer moves them by the same offset. Read afresh for each answer, to
/// the second, it moved an arena's start by up to a second either way from one answer to the next.
/// Nodes count on from the database's clock instead (`NodeEdge.wallNow`).
struct LocalWallClock {
    private let baseMs: Int64

    init(clock: TimeSource, wallMs: Int64 = Int64((Date().timeIntervalSince1970 * 1_000).rounded())) {
        baseMs = wallMs - clock.now().milliseconds
    }

    /// The wall time at `instant` of the server's clock.
    func milliseconds(at instant: Instant) -> Int64 { baseMs + instant.milliseconds }
}

extension Server {
    /// The wall time now, in milliseconds: the nodes' shared clock, or this server's own.
    var wallNow: Int64 { nodes?.wallNow ?? accounts.wall.milliseconds(at: clock.now()) }
}
