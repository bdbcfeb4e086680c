/// Something that happened in a match, in the order it happened. Values are absolute (scores,
/// table, deck count), so a client that applies events in order never has to add anything up.
package enum MatchEvent: Hashable, Sendable {
    /// The cards a seat has selected now.
    case selectionChanged(seat: Seat, selection: [Card])
    case windowOpened(Window)
    case windowClosed(Window, WindowEnd)
    /// Three cards that form a set were taken (in solo: found; they leave on the next touch).
    case setTaken(seat: Seat, cards: [Card], points: Int, score: Int)
    /// Three cards that are not a set were picked.
    case notASet(seat: Seat, cards: [Card], penalty: Int, score: Int)
    /// A penalty for something other than a wrong trio.
    case penalised(seat: Seat, reason: PenaltyReason, points: Int, score: Int)
    /// Cards left or joined the table; `table` is the whole table after the change.
    case tableChanged(removed: [Card], added: [Card], table: [Card], deckCount: Int)
    case hintShown(seat: Seat, cards: [Card], cost: Int, score: Int)
    case matchEnded(MatchResult)
    case rematchRequested(seat: Seat)
    /// Every seat asked for a rematch: the host starts a new game with a fresh seed.
    case rematchAgreed
}

/// Why a seat lost points outside a trio.
package enum PenaltyReason: String, CaseIterable, Sendable {
    case dealtWithSetOnTable = "dealt_with_set_on_table"
    case claimRanOut = "claim_ran_out"
    case claimPassed = "claim_passed"
}

/// How and with what scores a match ended.
package struct MatchResult: Hashable, Sendable {
    package enum Reason: String, Sendable, CaseIterable {
        /// The deck is empty and no set is left on the table.
        case noSetsLeft = "no_sets_left"
        case resigned
        /// A seat stayed away longer than the host allows.
        case forfeited
    }

    package var reason: Reason
    /// The seat that resigned or forfeited, when that is the reason.
    package var by: Seat?
    package var scores: [Int]
    /// Nil for a tie, and in solo.
    package var winner: Seat?

    package init(reason: Reason, by: Seat?, scores: [Int], winner: Seat?) {
        self.reason = reason
        self.by = by
        self.scores = scores
        self.winner = winner
    }
}
