import SetRules

/// A card by its readable name; traps on a typo, which is a broken test, not a result.
func card(_ name: String) -> Card {
    guard let card = Card(name: name) else { preconditionFailure("no card named \(name)") }
    return card
}

/// 20 cards with no set among them: a maximal cap of the 4-dimensional space over three values.
let setFreeTwenty: [Card] = [0, 1, 3, 4, 9, 10, 12, 13, 27, 28, 32, 35, 38, 47, 59, 65, 66, 67, 71, 77]
    .map { Card(id: $0)! }

/// A deck that deals `table` first, then `next`, then every other card in id order, so a test
/// knows exactly what each deal and refill brings.
func deck(table: [Card], next: [Card] = []) -> Deck {
    let used = table + next
    return Deck(cards: used + Card.all.filter { !used.contains($0) })
}

/// 12 cards holding exactly one set, `oneSet`, at slots 0, 1 and 2.
let oneSet = [card("1 solid red diamond"), card("2 solid red diamond"), card("3 solid red diamond")]
let tableWithOneSet: [Card] = {
    var table = oneSet
    for candidate in setFreeTwenty where table.count < 12 && !table.contains(candidate) {
        if SetLogic.allSets(in: table + [candidate]).count == 1 { table.append(candidate) }
    }
    return table
}()

/// Twelve set-free cards, for deals that must not be penalised.
let tableWithoutSet = Array(setFreeTwenty.prefix(12))

func at(_ ms: Int64) -> Instant { Instant(milliseconds: ms) }

/// Applies an action that must be accepted and returns its events.
func accepted(_ match: inout Match, _ action: Action, by seat: Seat = .first, at time: Int64,
              sourceLocation: SourceLocation = #_sourceLocation) -> [MatchEvent] {
    let outcome = match.apply(action, by: seat, at: at(time))
    #expect(outcome.refusal == nil, "refused: \(String(describing: outcome.refusal))", sourceLocation: sourceLocation)
    return outcome.events
}

/// Applies an action that must be refused, checks the match did not change, and returns why.
func refused(_ match: inout Match, _ action: Action, by seat: Seat = .first, at time: Int64,
             sourceLocation: SourceLocation = #_sourceLocation) -> RuleRefusal? {
    let before = MatchSummary(match)
    let outcome = match.apply(action, by: seat, at: at(time))
    #expect(outcome.events.isEmpty, sourceLocation: sourceLocation)
    #expect(MatchSummary(match) == before, "a refusal changed the match", sourceLocation: sourceLocation)
    return outcome.refusal
}

/// The visible state of a match, comparable in one step.
struct MatchSummary: Equatable {
    var table: [Card], deck: [Card], scores: [Int], selection: [Card], window: Window?
    var shownTrio: Match.ShownTrio?, result: MatchResult?, rematchAsked: [Seat], tableChangedAt: Instant

    init(_ match: Match) {
        table = match.table
        deck = match.deck.cards
        scores = match.scores
        selection = match.selection
        window = match.window
        shownTrio = match.shownTrio
        result = match.result
        rematchAsked = match.rematchAsked
        tableChangedAt = match.tableChangedAt
    }
}

import Testing

/// A set none of whose cards is in `tableWithoutSet`.
let setApartFromTableWithoutSet: [Card] = SetLogic.allSets(in: Card.all.filter { !tableWithoutSet.contains($0) })[0]
