/// The arithmetic of sets. Each feature is a digit 0–2; three digits are all equal or all different
/// exactly when their sum is divisible by 3, which makes every check a few additions.
package enum SetLogic {
    /// Whether three cards form a set: every feature all the same or all different.
    package static func isSet(_ a: Card, _ b: Card, _ c: Card) -> Bool {
        guard a != b, b != c, a != c else { return false }
        return (a.number.rawValue + b.number.rawValue + c.number.rawValue) % 3 == 0
            && (a.shape.rawValue + b.shape.rawValue + c.shape.rawValue) % 3 == 0
            && (a.shading.rawValue + b.shading.rawValue + c.shading.rawValue) % 3 == 0
            && (a.colour.rawValue + b.colour.rawValue + c.colour.rawValue) % 3 == 0
    }

    /// Whether the given cards are exactly three cards forming a set.
    package static func isSet(_ cards: [Card]) -> Bool {
        cards.count == 3 && isSet(cards[0], cards[1], cards[2])
    }

    /// The one card that completes a set with `a` and `b` (for a != b it differs from both).
    package static func completing(_ a: Card, _ b: Card) -> Card {
        func third(_ x: Int, _ y: Int) -> Int { (6 - x - y) % 3 }
        return Card(
            Number(rawValue: third(a.number.rawValue, b.number.rawValue))!,
            Shading(rawValue: third(a.shading.rawValue, b.shading.rawValue))!,
            Colour(rawValue: third(a.colour.rawValue, b.colour.rawValue))!,
            Shape(rawValue: third(a.shape.rawValue, b.shape.rawValue))!)
    }

    /// Every set among `table`, each once, as cards in table order. O(n²): each pair looks up the
    /// card that would complete it.
    package static func allSets(in table: [Card]) -> [[Card]] {
        var position = [Int](repeating: -1, count: 81)
        for (index, card) in table.enumerated() { position[card.id] = index }
        var sets: [[Card]] = []
        for i in table.indices {
            for j in (i + 1)..<table.count {
                let k = position[completing(table[i], table[j]).id]
                if k > j { sets.append([table[i], table[j], table[k]]) }
            }
        }
        return sets
    }

    /// The first set in table order, or nil when the table holds none.
    package static func firstSet(in table: [Card]) -> [Card]? {
        var present = [Bool](repeating: false, count: 81)
        for card in table { present[card.id] = true }
        for i in table.indices {
            for j in (i + 1)..<table.count where present[completing(table[i], table[j]).id] {
                return [table[i], table[j], completing(table[i], table[j])]
            }
        }
        return nil
    }

    /// Whether the table holds at least one set.
    package static func anySet(in table: [Card]) -> Bool { firstSet(in: table) != nil }
}
