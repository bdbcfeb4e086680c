import SetRules

/// A brute-force referee written from the rules' words, sharing no code with SetRules' logic:
/// features are read from the id digit by digit, "all same or all different" is checked as said,
/// and combinations are found by trying every subset.
enum Oracle {
    static func features(_ card: Card) -> [Int] {
        let id = card.id
        return [id / 27, id / 9 % 3, id / 3 % 3, id % 3]
    }

    static func isSet(_ cards: [Card]) -> Bool {
        guard cards.count == 3 else { return false }
        let (a, b, c) = (features(cards[0]), features(cards[1]), features(cards[2]))
        guard a != b, b != c, a != c else { return false }
        for f in 0..<4 {
            let allSame = a[f] == b[f] && b[f] == c[f]
            let allDifferent = a[f] != b[f] && b[f] != c[f] && a[f] != c[f]
            if !allSame && !allDifferent { return false }
        }
        return true
    }

    /// The features of the card that completes a pair: equal values stay, different ones call
    /// for the value neither has.
    static func third(_ x: Card, _ y: Card) -> [Int] {
        let (a, b) = (features(x), features(y))
        return (0..<4).map { f in a[f] == b[f] ? a[f] : [0, 1, 2].first { $0 != a[f] && $0 != b[f] }! }
    }

    static func isUltra(_ cards: [Card]) -> Bool {
        guard cards.count == 4, Swift.Set(cards).count == 4 else { return false }
        let splits = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
        return splits.contains { p, q in third(cards[p.0], cards[p.1]) == third(cards[q.0], cards[q.1]) }
    }

    static func isChainSet(_ cards: [Card], chain: [Card]) -> Bool {
        isSet(cards) && (chain.isEmpty || cards.filter { chain.contains($0) }.count == 1)
    }

    /// Every k-subset of `cards`, in index order.
    static func subsets(_ cards: [Card], _ k: Int) -> [[Card]] {
        guard k > 0 else { return [[]] }
        guard cards.count >= k else { return [] }
        var result: [[Card]] = []
        for (index, card) in cards.enumerated() {
            for rest in subsets(Array(cards[(index + 1)...]), k - 1) { result.append([card] + rest) }
        }
        return result
    }

    /// Every valid pick of `variant`, as sets of cards so that order does not matter.
    static func combinations(_ variant: Variant, table: [Card], chain: [Card]) -> Swift.Set<Swift.Set<Card>> {
        switch variant {
        case .classic, .junior: return Swift.Set(subsets(table, 3).filter(isSet).map { Swift.Set($0) })
        case .ultra: return Swift.Set(subsets(table, 4).filter(isUltra).map { Swift.Set($0) })
        case .chain:
            let candidates = chain.isEmpty ? subsets(table, 3) : chain.flatMap { link in subsets(table, 2).map { [link] + $0 } }
            return Swift.Set(candidates.filter { isChainSet($0, chain: chain) }.map { Swift.Set($0) })
        }
    }
}
