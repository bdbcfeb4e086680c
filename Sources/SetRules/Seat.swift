/// A seat at a match. A solo match uses only `.first`.
package enum Seat: Int, CaseIterable, Sendable, Comparable {
    case first = 0
    case second = 1

    /// The opponent's seat in a duel.
    package var other: Seat { self == .first ? .second : .first }

    package static func < (lhs: Seat, rhs: Seat) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Whether a match is played alone or by two.
package enum Mode: String, CaseIterable, Sendable {
    case solo
    case duel

    /// The seats this mode plays with.
    package var seats: [Seat] { self == .solo ? [.first] : [.first, .second] }
}
