import SetRules

/// Which label slot each touchable card holds. A card keeps its label while it stays on the table
/// (a set taken from 15 cards or a resize relabels nobody), so a key typed a moment ago still
/// means the card it was typed for; new cards take the lowest free slots, in table order.
struct LabelBook: Hashable, Sendable {
    private(set) var slots: [Card: Int] = [:]

    /// The keys for the slots in use: the highest slot held decides, so a card that stays never
    /// sees its key change because others left.
    var keys: CardLabels { CardLabels(count: (slots.values.max() ?? -1) + 1) }

    /// Keeps the slots of the cards still here, frees the others and gives new cards free ones.
    mutating func update(_ cards: [Card]) {
        let here = Swift.Set(cards)
        slots = slots.filter { here.contains($0.key) }
        var taken = Swift.Set(slots.values)
        var next = 0
        for card in cards where slots[card] == nil {
            while taken.contains(next) { next += 1 }
            slots[card] = next
            taken.insert(next)
        }
    }

    /// The labels cards hold now, in key order ("4 5 6 …" once a set took 1, 2 and 3 away).
    var labelsInUse: [String] {
        let keys = self.keys
        return slots.values.sorted().compactMap(keys.label(for:))
    }

    /// The label a card shows, or nil when it holds none.
    func label(of card: Card) -> String? {
        slots[card].flatMap(keys.label(for:))
    }

    /// What keys typed so far mean: the card that holds the label, more keys to come, or nothing.
    func match(_ typed: String) -> LabelMatch {
        switch keys.match(typed) {
        case .card(let slot): slots.first { $0.value == slot }.map { .card($0.key) } ?? .none
        case .partial: .partial
        case .none: .none
        }
    }

    /// What a typed label means, as a card.
    enum LabelMatch: Hashable, Sendable {
        case card(Card)
        case partial
        case none
    }
}
