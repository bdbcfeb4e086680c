import Testing
@testable import SetRules

/// Junior's deal, pinned: `.ci/e2e/deck-oracle.sh` checks each line below against an independent
/// Python port of the shuffle run over the 27 solid cards (`deck_oracle.py --junior`).
@Suite struct JuniorDeckTests {
    static let pinned: [(UInt64, [Int])] = [
    (42, [10, 9, 37, 64, 19, 27, 65, 63, 18]),
    (0, [27, 37, 64, 55, 45, 56, 46, 54, 38]),
    (18446744073709551615, [55, 11, 0, 27, 63, 20, 65, 72, 64]),
    (7, [45, 27, 46, 10, 65, 47, 20, 29, 54, 37, 1, 38, 72, 28, 0, 36, 18, 11, 56, 2, 55, 73, 19, 9, 74, 64, 63]),
    ]

    @Test func theSeedDealsTheJuniorDeckAsPinned() {
        for (seed, ids) in Self.pinned {
            let dealt = Deck(seed: seed, of: Variant.junior.cards).cards.prefix(ids.count).map(\.id)
            #expect(Array(dealt) == ids, "seed \(seed)")
            let match = Match(mode: .duel, variant: .junior, seed: seed, at: .zero)
            #expect(match.table.map(\.id) == Array(ids.prefix(9)), "the first nine are the table")
        }
    }
}
