/// One of a card's four features, as a closed set for explanations.
package enum Feature: Int, CaseIterable, Sendable {
    /// In the order a person checks them at a glance: ink and outline before fill and count.
    case colour, shape, shading, number

    /// The feature's name for people.
    package var word: String {
        switch self {
        case .colour: "colour"
        case .shape: "shape"
        case .shading: "shading"
        case .number: "number"
        }
    }

    /// The card's value of this feature, as its digit 0–2.
    package func value(of card: Card) -> Int {
        switch self {
        case .colour: card.colour.rawValue
        case .shape: card.shape.rawValue
        case .shading: card.shading.rawValue
        case .number: card.number.rawValue
        }
    }

    /// A value of this feature in words, as counted: `count` is 1 or more ("two ovals", "one red").
    package func words(_ value: Int, count: Int) -> String {
        switch self {
        case .colour: Colour(rawValue: value)?.word ?? "?"
        case .shading: Shading(rawValue: value)?.word ?? "?"
        case .shape: Shape(rawValue: value).map { count == 1 ? $0.singular : $0.plural } ?? "?"
        // "two with 1, one with 3": the cards are counted, the symbols named by their number.
        case .number: "with \(value + 1)"
        }
    }
}

/// Why a pick is not a valid one, in terms a player can check on the cards: a −10 becomes a lesson.
package enum PickFault: Hashable, Sendable {
    /// Three cards that in `feature` are two of one value (`pair`) and one of another (`odd`):
    /// neither all the same nor all different.
    case twoAndOne(feature: Feature, pair: Int, odd: Int)
    /// Set-Chain: a real set, but it uses `used` chain cards where exactly one is required.
    case chainCards(used: Int)
    /// UltraSet: no split into two pairs shares a third card; of the closest split, the two
    /// third cards differ first in `feature` (`first` for one pair, `second` for the other).
    case thirdsDiffer(feature: Feature, first: Int, second: Int)
    /// Not the variant's number of distinct cards.
    case count(expected: Int)

    /// The reason in a few words: "colour: two red, one green".
    package var text: String {
        switch self {
        case .twoAndOne(let feature, let pair, let odd):
            "\(feature.word): two \(feature.words(pair, count: 2)), one \(feature.words(odd, count: 1))"
        case .chainCards:
            "a set here uses exactly one chain card"
        case .thirdsDiffer(let feature, let first, let second):
            "pairs' third cards differ: \(feature.word) \(feature.words(first, count: 1)) vs \(feature.words(second, count: 1))"
        case .count(let expected):
            "a pick is \(expected) different cards"
        }
    }
}

extension SetLogic {
    /// Why three cards are not a set, naming the first feature (in `Feature` order) that is two of
    /// one value and one of another; nil exactly when they are a set.
    package static func whyNot(_ cards: [Card]) -> PickFault? {
        guard cards.count == 3, Swift.Set(cards).count == 3 else { return .count(expected: 3) }
        for feature in Feature.allCases {
            let values = cards.map(feature.value(of:))
            let (a, b, c) = (values[0], values[1], values[2])
            if a == b && b != c { return .twoAndOne(feature: feature, pair: a, odd: c) }
            if a == c && b != c { return .twoAndOne(feature: feature, pair: a, odd: b) }
            if b == c && a != b { return .twoAndOne(feature: feature, pair: b, odd: a) }
        }
        return nil
    }
}

extension UltraLogic {
    /// Why four cards are not an ultra: of the three ways to split them into pairs, the one whose
    /// third cards differ in the fewest features, and the first feature they differ in; nil
    /// exactly when they are an ultra.
    package static func whyNot(_ cards: [Card]) -> PickFault? {
        guard cards.count == 4, Swift.Set(cards).count == 4 else { return .count(expected: 4) }
        let splits = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
        var best: (differing: [Feature], first: Card, second: Card)?
        for (p, q) in splits {
            let first = SetLogic.completing(cards[p.0], cards[p.1]), second = SetLogic.completing(cards[q.0], cards[q.1])
            let differing = Feature.allCases.filter { $0.value(of: first) != $0.value(of: second) }
            if differing.isEmpty { return nil }
            if differing.count < best?.differing.count ?? Int.max { best = (differing, first, second) }
        }
        guard let best, let feature = best.differing.first else { return nil }
        return .thirdsDiffer(feature: feature, first: feature.value(of: best.first), second: feature.value(of: best.second))
    }
}

extension Variant {
    /// Why `picks` are not a valid pick of this variant (see `isValid`); nil exactly when they are.
    package func whyNot(_ picks: [Card], chain: [Card] = []) -> PickFault? {
        guard picks.count == pickCount, Swift.Set(picks).count == pickCount else { return .count(expected: pickCount) }
        switch self {
        case .classic, .junior: return SetLogic.whyNot(picks)
        case .chain:
            if let fault = SetLogic.whyNot(picks) { return fault }
            let used = picks.filter(chain.contains).count
            return chain.isEmpty || used == 1 ? nil : .chainCards(used: used)
        case .ultra: return UltraLogic.whyNot(picks)
        }
    }
}
