/// The kinds of exclusive window a duel seat can hold.
package enum WindowKind: String, CaseIterable, Sendable {
    /// Won by calling "Set!" first.
    case claim
    /// Given to the opponent after a claim fails or runs out.
    case secondChance = "second_chance"
    /// Given to the other player after a deal; a wrong trio in it costs nothing.
    case dealGrace = "deal_grace"
}

/// An exclusive window: while it is open only `holder` may select cards.
package struct Window: Hashable, Sendable {
    package var kind: WindowKind
    package var holder: Seat
    package var opened: Instant
    package var deadline: Instant

    package init(kind: WindowKind, holder: Seat, opened: Instant, deadline: Instant) {
        self.kind = kind
        self.holder = holder
        self.opened = opened
        self.deadline = deadline
    }
}

/// How a window came to close.
package enum WindowEnd: String, CaseIterable, Sendable {
    case expired
    case passed
    /// The holder picked three cards and the trio was judged.
    case decided
    /// The holder asked to deal, which ends a second chance or grace window.
    case dealt
    case matchEnded = "match_ended"
}
