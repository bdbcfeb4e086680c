import Testing
@testable import SetRules

@Suite struct DeckTests {
    @Test func splitMix64MatchesTheReferenceSequence() {
        var generator = SplitMix64(seed: 1_234_567)
        let values = (0..<5).map { _ in generator.next() }
        #expect(values == [6457827717110365317, 3203168211198807973, 9817491932198370423,
                           4593380528125082431, 16408922859458223821])
    }

    @Test func uniformStaysInRangeAndReachesEveryValue() {
        var generator = SplitMix64(seed: 3)
        var seen = Swift.Set<Int>()
        for _ in 0..<2_000 {
            let value = generator.uniform(below: 7)
            #expect((0..<7).contains(value))
            seen.insert(value)
        }
        #expect(seen.count == 7)
        for _ in 0..<1_000 {
            let unit = generator.unitInterval()
            #expect(unit >= 0 && unit < 1)
        }
    }

    @Test func aDeckHoldsEveryCardOnce() {
        for seed: UInt64 in [0, 1, 42, .max] {
            #expect(Deck(seed: seed).cards.sorted() == Card.all)
        }
    }

    @Test func theSameSeedDealsTheSameDeckAndOthersDiffer() {
        #expect(Deck(seed: 99) == Deck(seed: 99))
        #expect(Deck(seed: 99) != Deck(seed: 100))
    }

    /// Pins the shuffle: if this changes, every saved match and published seed replays differently.
    @Test func seedsDealWhatTheIndependentPortDeals() {
        for deal in oracleDeals {
            #expect(Array(Deck(seed: deal.seed).cards.prefix(deal.ids.count).map(\.id)) == deal.ids, "seed \(deal.seed)")
        }
    }

    @Test func drawTakesFromTheTopAndStopsAtEmpty() {
        var deck = Deck(cards: Array(Card.all.prefix(5)))
        #expect(deck.draw(3) == Array(Card.all.prefix(3)))
        #expect(deck.draw(3) == Array(Card.all[3..<5]))
        #expect(deck.isEmpty)
        #expect(deck.draw(3).isEmpty)
    }
}

/// Deals printed by the independent port `Tests/Oracles/deck_oracle.py SEED COUNT`;
/// `.ci/e2e/deck-oracle.sh` runs it for each line below and compares.
let oracleDeals: [(seed: UInt64, ids: [Int])] = [
    (42, [9, 40, 16, 30, 47, 20, 0, 14, 75, 45, 77, 19]),
    (0, [52, 2, 37, 57, 12, 41, 43, 79, 61, 27, 66, 42]),
    (18446744073709551615, [79, 30, 77, 20, 7, 55, 15, 75, 56, 16, 22, 41]),
    (7, [34, 78, 46, 17, 79, 9, 15, 30, 4, 23, 74, 42, 24, 5, 56, 68, 28, 69, 13, 32, 12, 2, 31, 63, 77, 39, 51, 50, 3, 48, 47, 67, 71, 16, 27, 61, 58, 54, 10, 25, 35, 64, 43, 59, 38, 11, 26, 18, 55, 62, 66, 1, 14, 33, 65, 72, 53, 37, 0, 29, 19, 22, 20, 7, 70, 6, 76, 8, 45, 36, 80, 41, 49, 52, 73, 57, 40, 21, 60, 44, 75]),
]
