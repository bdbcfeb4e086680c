/// A moment on the server's monotonic clock, in milliseconds. The rules never read a clock:
/// every instant is passed in, so a match replays exactly from its journal.
package struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    package var milliseconds: Int64

    package init(milliseconds: Int64) { self.milliseconds = milliseconds }

    package static let zero = Instant(milliseconds: 0)

    /// This instant moved by a number of milliseconds; it stops at the ends of time rather than trap.
    package func adding(_ milliseconds: Int64) -> Instant {
        Instant(milliseconds: self.milliseconds.saturatingAdding(milliseconds))
    }

    /// Milliseconds from `earlier` to this instant (negative if `earlier` is later), held within
    /// `Int64` rather than trap.
    package func milliseconds(since earlier: Instant) -> Int64 { milliseconds.saturatingSubtracting(earlier.milliseconds) }

    package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.milliseconds < rhs.milliseconds }

    package init(from decoder: any Decoder) throws {
        milliseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }

    package var description: String { "t=\(milliseconds)ms" }
}
