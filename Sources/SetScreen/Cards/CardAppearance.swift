/// How a card on the table should stand out.
enum CardAppearance: CaseIterable, Hashable, Sendable {
    case normal
    /// Chosen by this player for the next claim.
    case selected
    /// Chosen by another player, as far as the server tells us.
    case opponentSelected
    /// Part of a set just accepted.
    case matched
    /// Part of a claim just refused.
    case mismatched
    /// Shown by a hint.
    case hinted
    /// Not yet revealed: only the back is drawn.
    case faceDown
}
