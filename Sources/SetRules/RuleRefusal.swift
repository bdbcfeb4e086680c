/// Why the match refused an action. Each case has a stable code for programs and a message for
/// people; a refusal never changes the match.
package enum RuleRefusal: Error, Hashable, Sendable {
    case matchOver
    case matchNotOver
    case noSuchSeat(Seat)
    /// A duel seat tried to select without holding a window.
    case claimFirst
    /// Someone else holds the window.
    case notYourWindow(holder: Seat)
    /// A claim came second: `holder` was first by `leadMs` milliseconds.
    case claimTaken(holder: Seat, leadMs: Int64)
    case alreadyYourWindow
    case finishYourClaim
    case cardNotOnTable(Card)
    case deckEmpty
    case noWindowToPass
    case notInSolo(String)
    case hintsDisabled
    case noSetOnTable
    case rematchAlreadyAsked
    /// A duel claim sent before its sender could have seen the game's table: written behind the
    /// join or rematch that dealt it, or behind a join coming back to a table left meanwhile.
    case tableNotSeen

    /// A stable snake_case code that clients and tests match on.
    package var code: String {
        switch self {
        case .matchOver: "match_over"
        case .matchNotOver: "match_not_over"
        case .noSuchSeat: "no_such_seat"
        case .claimFirst: "claim_first"
        case .notYourWindow: "not_your_window"
        case .claimTaken: "claim_taken"
        case .alreadyYourWindow: "already_your_window"
        case .finishYourClaim: "finish_your_claim"
        case .cardNotOnTable: "card_not_on_table"
        case .deckEmpty: "deck_empty"
        case .noWindowToPass: "no_window_to_pass"
        case .notInSolo: "not_in_solo"
        case .hintsDisabled: "hints_disabled"
        case .noSetOnTable: "no_set_on_table"
        case .rematchAlreadyAsked: "rematch_already_asked"
        case .tableNotSeen: "table_not_seen"
        }
    }

    /// A sentence for a person, with seats called "Player 1" and "Player 2".
    package var message: String { message(naming: { "Player \($0.rawValue + 1)" }) }

    /// A sentence for a person, calling each seat what `name` says (hosts know the players' names).
    package func message(naming name: (Seat) -> String) -> String {
        switch self {
        case .matchOver: "The match is over."
        case .matchNotOver: "A rematch can be asked for only when the match is over."
        case .noSuchSeat(let seat): "This match has no seat \(seat.rawValue + 1)."
        case .claimFirst: "Call \"Set!\" first: only the holder of a window may select."
        case .notYourWindow(let holder): "\(name(holder)) holds the window."
        case .claimTaken(let holder, let lead): "\(name(holder)) called \"Set!\" first, by \(lead) ms."
        case .alreadyYourWindow: "You already hold the window."
        case .finishYourClaim: "You called \"Set!\": pick three cards or pass first."
        case .cardNotOnTable(let card): "The \(card.name) is not on the table."
        case .deckEmpty: "The deck is empty: no more cards to deal."
        case .noWindowToPass: "You hold no window to pass."
        case .notInSolo(let what): "\(what) is for duels; in solo just pick three cards."
        case .hintsDisabled: "Hints are off in this match."
        case .noSetOnTable: "There is no set on the table: deal three more."
        case .rematchAlreadyAsked: "You have already asked for a rematch."
        case .tableNotSeen: "That \"Set!\" was sent before the table reached you; call it again."
        }
    }
}
