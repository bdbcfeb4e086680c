import Testing
@testable import SetRules

/// Each variant's definition of a valid pick, checked against the brute-force oracle: every pick
/// of the whole deck where that is small enough, random tables for the rest.
@Suite struct VariantDefinitionTests {
    @Test func juniorHasTheTwentySevenSolidCardsAndDealsNine() {
        let cards = Variant.junior.cards
        #expect(cards.count == 27)
        #expect(Swift.Set(cards).count == 27)
        #expect(cards.allSatisfy { $0.shading == .solid })
        let deck = Deck(seed: 7, of: cards)
        #expect(deck.cards.sorted() == cards)
        #expect(deck.cards != cards)
        let match = Match(mode: .solo, variant: .junior, seed: 7, at: .zero)
        #expect(match.table.count == 9)
        #expect(match.deck.count == 18)
        #expect(match.table + match.deck.cards == deck.cards)
    }

    @Test func everyOtherVariantDealsTwelveOfEightyOne() {
        for variant in [Variant.classic, .chain, .ultra] {
            let match = Match(mode: .duel, variant: variant, seed: 42, at: .zero)
            #expect(match.table.count == 12)
            #expect(match.deck.count == 69)
            #expect(match.table + match.deck.cards == Deck(seed: 42).cards, "the classic deal, byte for byte")
        }
    }

    @Test func everyTrioOfTheJuniorDeckIsJudgedAsTheOracleSaysAnd117AreSets() {
        let trios = Oracle.subsets(Variant.junior.cards, 3)
        #expect(trios.count == 2_925)
        var sets = 0
        for trio in trios {
            let valid = Variant.junior.isValid(trio)
            #expect(valid == Oracle.isSet(trio), "\(trio)")
            if valid { sets += 1 }
        }
        #expect(sets == 117)
        #expect(Variant.junior.combinations(table: Variant.junior.cards).count == 117)
    }

    @Test func everyTrioOfTheFullDeckIsJudgedAsTheOracleSaysAnd1080AreSets() {
        var sets = 0
        for trio in Oracle.subsets(Card.all, 3) {
            let valid = Variant.classic.isValid(trio)
            if valid != Oracle.isSet(trio) { Issue.record("classic disagrees on \(trio)") }
            if valid { sets += 1 }
        }
        #expect(sets == 1_080)
        #expect(Variant.classic.combinations(table: Card.all).count == 1_080)
    }

    /// Every quadruple holding card 0, against the oracle: every card is alike (adding a card's
    /// features to each of four cards, mod 3, keeps an ultra an ultra), so these 82,160 stand for
    /// all 1.66 million. Each card completes 40 pairs and any two of them are an ultra, so the deck
    /// holds 81 × C(40, 2) = 63,180 ultras, 63,180 × 4 / 81 = 3,120 of them through any one card.
    @Test func everyQuadrupleThroughACardIsJudgedAsTheOracleSaysAnd63180UltrasInAll() {
        let all = Card.all
        var ultras = 0
        for b in 1..<81 {
            for c in (b + 1)..<81 {
                for d in (c + 1)..<81 {
                    let four = [all[0], all[b], all[c], all[d]]
                    let valid = Variant.ultra.isValid(four)
                    if valid != Oracle.isUltra(four) { Issue.record("ultra disagrees on \(four)") }
                    if valid { ultras += 1 }
                }
            }
        }
        #expect(ultras == 3_120)
        #expect(Variant.ultra.combinations(table: Card.all).count == 63_180)
        #expect(Variant.ultra.isValid(Array(all.prefix(3))) == false, "an ultra takes four cards")
    }

    @Test func everyQuadrupleOfTheJuniorDeckIsJudgedAsTheOracleSays() {
        for four in Oracle.subsets(Variant.junior.cards, 4) {
            #expect(UltraLogic.isUltra(four) == Oracle.isUltra(four), "\(four)")
        }
    }

    /// A chain set is a set with exactly one card of the chain: for every set of the deck taken
    /// as the chain, and every trio of a random sample, the variant agrees with the oracle.
    @Test func chainSetsUseExactlyOneCardOfTheSetTakenBefore() {
        var generator = SplitMix64(seed: 15)
        let sets = SetLogic.allSets(in: Card.all)
        for _ in 0..<200 {
            let chain = sets[generator.uniform(below: sets.count)]
            for _ in 0..<200 {
                let one = chain[generator.uniform(below: 3)]
                let others = Card.all.filter { !chain.contains($0) }
                let trio = [one, others[generator.uniform(below: others.count)], others[generator.uniform(below: others.count)]]
                #expect(Variant.chain.isValid(trio, chain: chain) == Oracle.isChainSet(trio, chain: chain))
            }
            #expect(!Variant.chain.isValid(chain, chain: chain), "the chain itself is not a new set")
            let completing = SetLogic.completing(chain[0], Card.all.first { !chain.contains($0) }!)
            let link = [chain[0], Card.all.first { !chain.contains($0) }!, completing]
            #expect(Variant.chain.isValid(link, chain: chain) == !chain.contains(completing))
        }
        // Before the first set, any set is a chain set.
        #expect(Variant.chain.isValid(sets[0], chain: []))
    }

    /// Every variant's list of combinations equals the oracle's on random tables of every size
    /// the game reaches, with a random chain in Set-Chain.
    @Test(arguments: Variant.allCases)
    func combinationsOnATableAreExactlyTheOraclesAndFirstIsOneOfThem(variant: Variant) {
        var generator = SplitMix64(seed: 1_515 + UInt64(variant.pickCount))
        let sets = SetLogic.allSets(in: Card.all)
        for round in 0..<150 {
            let deck = Deck(seed: UInt64(round) &* 7_919, of: variant.cards).cards
            let size = min(deck.count, [6, 9, 12, 15, 18, 21][round % 6])
            var chain: [Card] = []
            if variant == .chain && round % 3 != 0 {
                chain = sets.filter { set in set.allSatisfy { !deck.prefix(size).contains($0) } }[generator.uniform(below: 50)]
            }
            let table = Array(deck.prefix(size))
            let found = variant.combinations(table: table, chain: chain)
            let expected = Oracle.combinations(variant, table: table, chain: chain)
            #expect(Swift.Set(found.map { Swift.Set($0) }) == expected, "round \(round)")
            #expect(found.count == expected.count, "each combination once")
            #expect(found.allSatisfy { variant.isValid($0, chain: chain) })
            let first = variant.firstCombination(table: table, chain: chain)
            #expect(first.map { expected.contains(Swift.Set($0)) } ?? expected.isEmpty)
        }
    }

    @Test func anUltraIsFoundWhenItsCompletingCardIsNotOnTheTable() {
        // 1 red solid diamond + 3 red solid diamonds complete to 2 red solid diamonds, as do
        // 2 green solid diamonds + 2 purple solid diamonds.
        let four = [card("1 solid red diamond"), card("3 solid red diamond"), card("2 solid green diamond"), card("2 solid purple diamond")]
        #expect(Variant.ultra.isValid(four))
        #expect(Variant.ultra.combinations(table: four) == [four])
        #expect(!Variant.ultra.isValid([four[0], four[1], four[2], card("2 open purple diamond")]))
    }

    @Test func theRulesTextExplainsEachVariantAndLeavesClassicAsItWas() {
        #expect(RulesText.render(.standard, variant: .classic) == RulesText.render(.standard))
        for variant in Variant.allCases where variant != .classic {
            let text = RulesText.render(.standard, variant: variant)
            // The classic rules from SCORING on, then the variant's own section.
            let classic = RulesText.render(.standard)
            #expect(text.contains("SCORING" + classic.split(separator: "SCORING", omittingEmptySubsequences: false)[1]))
            #expect(text.contains("VARIANT: \(variant.title.uppercased())"))
            #expect(text.contains("\(variant.pickCountWord) cards a pick"))
            #expect(text.contains("\(variant.tableSize) cards dealt and refilled to"))
        }
    }

    /// `rules --mode junior` opened with the classic "81 cards … 12 are dealt" and ran to 97
    /// columns: each variant opens with its own deck and deal, every line within 80 columns.
    @Test(arguments: Variant.allCases)
    func theRulesTextOpensWithTheVariantsDeckAndFits80Columns(variant: Variant) {
        let text = RulesText.render(.standard, variant: variant)
        let opening = String(text.split(separator: "SCORING")[0])
        #expect(opening.contains("The deck has \(variant.cards.count) cards"), "\(variant)")
        #expect(opening.contains("\(variant.tableSize) cards are dealt"), "\(variant)")
        for line in text.split(separator: "\n") {
            #expect(line.count <= RulesText.width, "\(variant): \(line.count) columns: \(line)")
        }
        if variant == .junior {
            #expect(opening.contains("three features that vary") && opening.contains("solid (every card)"), "\(opening)")
            #expect(!opening.contains("81"))
        }
    }
}
