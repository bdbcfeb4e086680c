// A player who leaves: time away must never stretch a window they hold.
extension Match {
    /// `seat`'s player left the match. A window they hold ends at once, exactly as if they had
    /// passed it (a claim costs its penalty and opens the opponent's second chance); anything
    /// else is left as it is.
    package mutating func holderLeft(_ seat: Seat, at now: Instant) -> [MatchEvent] {
        guard !isOver, let window, window.holder == seat else { return [] }
        return (try? pass(by: seat, at: now)) ?? []
    }
}
