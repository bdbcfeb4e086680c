/// Something a seat asks of the match. The match decides whether it is allowed.
package enum Action: Hashable, Sendable {
    /// Touch a card: select it, or deselect it when already selected.
    case select(Card)
    /// Call "Set!" to win the claim window (duel only).
    case claim
    /// Deal three more cards.
    case deal
    /// Show a set on the table, for a cost.
    case hint
    /// End one's own window early.
    case pass
    /// Give up the match.
    case resign
    /// Ask for a new game once this one is over (solo: at once).
    case rematch
}
