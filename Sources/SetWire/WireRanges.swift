import SetRules

/// The ranges every number a client receives must lie in (Protocol.md, "Ranges"). A message with a
/// value outside them is refused as it is decoded, so nothing downstream does arithmetic on a
/// value no honest server sends: 2^53 leaves room for any sum or difference of two of them.
package enum WireRange {
    /// Server times (`time`, `opened`, `deadline`, `tableChangedAt`, `forfeitAt`), in milliseconds.
    package static let serverTime: ClosedRange<Int64> = 0...(1 << 53)
    /// Event numbers, game numbers, watcher counts, points and costs.
    package static let count: ClosedRange<Int64> = 0...(1 << 53)
    /// Scores, which may go below zero.
    package static let score: ClosedRange<Int64> = -(1 << 53)...(1 << 53)
    /// How long a window may last: the longest duration the rule settings allow.
    package static let windowMs: ClosedRange<Int64> = 0...RuleSettings.longestDurationMs
    /// Cards in play at most: the whole deck.
    package static let cardsInPlay = Card.all.count
    /// Cards a selection, a judged pick or a hint holds at most: three, or four in UltraSet.
    package static let pick = Variant.allCases.map(\.pickCount).max()!
    /// Valid picks a table of 81 distinct cards can hold at most, in any variant: 1,080 sets, or
    /// 63,180 ultras in UltraSet.
    package static let setsOnTable: ClosedRange<Int64> = 0...63_180
}

extension FieldReader {
    func serverTime(_ key: String) throws(WireError) -> Int64? {
        try int(key, in: WireRange.serverTime, "a server time, 0 to 2^53 milliseconds")
    }

    func serverTimeRequired(_ key: String) throws(WireError) -> Int64 {
        try required(key, "a server time") { k throws(WireError) in try serverTime(k) }
    }

    /// A non-negative count up to `limit`.
    func countRequired(_ key: String, upTo limit: Int64 = WireRange.count.upperBound) throws(WireError) -> Int {
        Int(try required(key, "a count") { k throws(WireError) in try int(k, in: 0...limit, "a count from 0 to \(limit)") })
    }

    func scoreRequired(_ key: String) throws(WireError) -> Int {
        Int(try required(key, "a score") { k throws(WireError) in try int(k, in: WireRange.score, "a score within ±2^53") })
    }

    /// A table, with the deck count beside it: what the rules can produce, at most 81 distinct cards in all.
    func tableAndDeck(table tableKey: String, deck deckKey: String) throws(WireError) -> (table: [Card], deck: Int) {
        let table = try cards(tableKey, upTo: WireRange.cardsInPlay)
        let deck = try countRequired(deckKey, upTo: Int64(WireRange.cardsInPlay))
        guard table.count + deck <= WireRange.cardsInPlay else { throw bad(deckKey, "at most \(WireRange.cardsInPlay) cards with the table") }
        return (table, deck)
    }
}
