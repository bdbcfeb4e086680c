/// UltraSet's arithmetic. Two pairs make an ultra when the card completing one pair to a set is the
/// card completing the other. Pairs sharing a completing card never share a card (the completing
/// card and one card fix the other), and a four-card ultra splits into such pairs in only one way.
package enum UltraLogic {
    /// Whether four distinct cards split into two pairs with the same completing card.
    package static func isUltra(_ cards: [Card]) -> Bool {
        guard cards.count == 4 else { return false }
        let (a, b, c, d) = (cards[0], cards[1], cards[2], cards[3])
        guard Swift.Set(cards).count == 4 else { return false }
        return SetLogic.completing(a, b) == SetLogic.completing(c, d)
            || SetLogic.completing(a, c) == SetLogic.completing(b, d)
            || SetLogic.completing(a, d) == SetLogic.completing(b, c)
    }

    /// Every ultra among `table`, each once, cards in table order. O(n²) pairs grouped by the
    /// card that completes them; any two pairs of a group are an ultra.
    package static func allUltras(in table: [Card]) -> [[Card]] {
        var pairsByThird = [[(Int, Int)]](repeating: [], count: 81)
        for i in table.indices {
            for j in (i + 1)..<table.count {
                pairsByThird[SetLogic.completing(table[i], table[j]).id].append((i, j))
            }
        }
        var ultras: [[Int]] = []
        for pairs in pairsByThird where pairs.count > 1 {
            for p in pairs.indices {
                for q in (p + 1)..<pairs.count {
                    ultras.append([pairs[p].0, pairs[p].1, pairs[q].0, pairs[q].1].sorted())
                }
            }
        }
        return ultras.sorted { $0.lexicographicallyPrecedes($1) }.map { slots in slots.map { table[$0] } }
    }

    /// One ultra among `table` (the one whose second pair comes first in table order), or nil.
    package static func firstUltra(in table: [Card]) -> [Card]? {
        var firstPair = [(Int, Int)?](repeating: nil, count: 81)
        for i in table.indices {
            for j in (i + 1)..<table.count {
                let third = SetLogic.completing(table[i], table[j]).id
                if let (k, l) = firstPair[third] { return [table[k], table[l], table[i], table[j]] }
                firstPair[third] = (i, j)
            }
        }
        return nil
    }
}

/// Set-Chain's arithmetic: a set of one chain card and two table cards.
package enum ChainLogic {
    /// Every set made of one card of `chain` and two of `table`, chain card first.
    package static func allChainSets(table: [Card], chain: [Card]) -> [[Card]] {
        var position = [Int](repeating: -1, count: 81)
        for (index, card) in table.enumerated() { position[card.id] = index }
        var sets: [[Card]] = []
        for link in chain {
            for (i, card) in table.enumerated() where card != link {
                let j = position[SetLogic.completing(link, card).id]
                if j > i { sets.append([link, card, table[j]]) }
            }
        }
        return sets
    }
}
