/// The cards not yet dealt, in the order they will come off the top.
package struct Deck: Sendable, Equatable {
    /// Remaining cards; the top of the deck is the first element.
    package private(set) var cards: [Card]

    /// All 81 cards (or the given ones, in id order) shuffled by a Fisher–Yates pass driven by
    /// `SplitMix64(seed:)`.
    package init(seed: UInt64, of unshuffled: [Card] = Card.all) {
        var generator = SplitMix64(seed: seed)
        var cards = unshuffled
        for i in stride(from: cards.count - 1, to: 0, by: -1) {
            cards.swapAt(i, generator.uniform(below: i + 1))
        }
        self.cards = cards
    }

    /// A deck holding exactly these cards, top first; for tests and replays of a known order.
    package init(cards: [Card]) { self.cards = cards }

    package var count: Int { cards.count }
    package var isEmpty: Bool { cards.isEmpty }

    /// Takes up to `count` cards off the top.
    package mutating func draw(_ count: Int) -> [Card] {
        let taken = Array(cards.prefix(count))
        cards.removeFirst(taken.count)
        return taken
    }
}
