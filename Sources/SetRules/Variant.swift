/// Which game of Set a match plays. Everything that differs between them lives here (with the
/// arithmetic in `UltraLogic` and `ChainLogic`): the deck, the table, how many cards a pick takes
/// and which picks count.
/// The duel's windows, the scoring and the penalties are the same for all of them.
package enum Variant: String, CaseIterable, Sendable {
    /// 81 cards, 12 dealt, three cards make a set.
    case classic
    /// Only the 27 solid cards (three features vary), 9 dealt.
    case junior
    /// Set-Chain: after the first set, every set reuses exactly one card of the set taken before.
    case chain
    /// UltraSet: four cards that split into two pairs completed by the same third card.
    case ultra

    /// The cards of this variant's deck, in id order, before the shuffle.
    package var cards: [Card] {
        switch self {
        case .junior: Card.all.filter { $0.shading == .solid }
        case .classic, .chain, .ultra: Card.all
        }
    }

    /// Cards dealt at the start, and the size a taken pick refills the table to.
    package var tableSize: Int {
        switch self {
        case .junior: 9
        case .classic, .chain, .ultra: 12
        }
    }

    /// How many cards one pick takes: the count at which a selection is judged.
    package var pickCount: Int {
        switch self {
        case .ultra: 4
        case .classic, .junior, .chain: 3
        }
    }

    /// The word for one valid pick, for people.
    package var pickWord: String {
        switch self {
        case .ultra: "ultra"
        case .classic, .junior, .chain: "set"
        }
    }

    /// One valid pick with its article, for people: "a set", "an ultra".
    package var aPick: String {
        switch self {
        case .ultra: "an ultra"
        case .classic, .junior, .chain: "a set"
        }
    }

    /// How many cards a pick takes, in words: "three", "four".
    package var pickCountWord: String {
        switch self {
        case .ultra: "four"
        case .classic, .junior, .chain: "three"
        }
    }

    /// The name people see, e.g. in listings and help.
    package var title: String {
        switch self {
        case .classic: "Classic"
        case .junior: "Junior"
        case .chain: "Set-Chain"
        case .ultra: "UltraSet"
        }
    }

    /// The variant in one short paragraph, for the rules, the help and the legend.
    package var summary: String {
        switch self {
        case .classic:
            "Classic: 81 cards, 12 dealt; three cards whose every feature is all the same or all different are a set."
        case .junior:
            "Junior: only the 27 solid cards, so three features vary; 9 are dealt. Sets work as in the classic game."
        case .chain:
            "Set-Chain: after the first set, every set must use exactly one card of the set taken just before, which lies apart from the table (the chain) until the next set is taken; the other two cards come from the table."
        case .ultra:
            "UltraSet: pick four cards that split into two pairs whose third cards (the card completing each pair to a set) are the same card; that card need not be on the table. 12 dealt; deal 3 when you see none."
        }
    }

    /// The rule of a valid pick in one line, for a newcomer's first look (the start box).
    package var rule: String {
        switch self {
        case .classic:
            "A set is 3 cards where number, shape, shading and colour are each all alike or all different."
        case .junior:
            "A set is 3 cards where number, shape and colour are each all alike or all different (every card is solid)."
        case .chain:
            "A set is 3 cards, each feature all alike or all different; after the first, each set uses exactly one chain card."
        case .ultra:
            "An ultra is 4 cards that split into two pairs needing the same third card to be a set."
        }
    }

    /// Whether `picks` (cards on the table, plus chain cards in Set-Chain) are a valid pick,
    /// given the cards of the set taken just before (`chain`, empty outside Set-Chain or before
    /// the first set).
    package func isValid(_ picks: [Card], chain: [Card] = []) -> Bool {
        guard picks.count == pickCount, Swift.Set(picks).count == pickCount else { return false }
        switch self {
        case .classic, .junior: return SetLogic.isSet(picks)
        case .chain:
            // Two cards of the chain fix the third as the chain's own: so "at least one" and
            // "exactly one" differ only by the chain itself, which is never on the table.
            return SetLogic.isSet(picks) && (chain.isEmpty || picks.filter(chain.contains).count == 1)
        case .ultra: return UltraLogic.isUltra(picks)
        }
    }

    /// Every valid pick among `table` (and, in Set-Chain, `chain`), each once.
    package func combinations(table: [Card], chain: [Card] = []) -> [[Card]] {
        switch self {
        case .classic, .junior: return SetLogic.allSets(in: table)
        case .chain: return chain.isEmpty ? SetLogic.allSets(in: table) : ChainLogic.allChainSets(table: table, chain: chain)
        case .ultra: return UltraLogic.allUltras(in: table)
        }
    }

    /// The first valid pick, or nil when there is none.
    package func firstCombination(table: [Card], chain: [Card] = []) -> [Card]? {
        switch self {
        case .classic, .junior: return SetLogic.firstSet(in: table)
        case .chain: return chain.isEmpty ? SetLogic.firstSet(in: table) : ChainLogic.allChainSets(table: table, chain: chain).first
        case .ultra: return UltraLogic.firstUltra(in: table)
        }
    }

    /// Whether any valid pick is there.
    package func hasCombination(table: [Card], chain: [Card] = []) -> Bool {
        firstCombination(table: table, chain: chain) != nil
    }
}
