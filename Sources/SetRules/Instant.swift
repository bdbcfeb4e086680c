/// A moment on the server's monotonic clock, in milliseconds. The rules never read a clock:
/// every instant is passed in, so a match replays exactly from its journal.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static let zero = Instant(milliseconds: 0)

    /// This instant moved by a number of milliseconds; it stops at the ends of time rather than trap.
    public func adding(_ milliseconds: Int64) -> Instant {
        Instant(milliseconds: self.milliseconds.saturatingAdding(milliseconds))
    }

    /// Milliseconds from `earlier` to this instant (negative if `earlier` is later), held within
    /// `Int64` rather than trap.
    public func milliseconds(since earlier: Instant) -> Int64 { milliseconds.saturatingSubtracting(earlier.milliseconds) }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public init(from decoder: any Decoder) throws {
        milliseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }

    public var description: String { "t=\(milliseconds)ms" }
}
