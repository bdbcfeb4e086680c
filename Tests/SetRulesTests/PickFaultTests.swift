import Testing
@testable import SetRules

/// Issue 23 item 2: every refused pick says why, and the reason is true of the cards.
@Suite struct PickFaultTests {
    /// Checks that a two-and-one fault is true of `cards`: in its feature, exactly two cards have
    /// `pair` and one has `odd`, and no earlier feature (in `Feature` order) is already broken.
    func isTrue(_ fault: PickFault, of cards: [Card]) -> Bool {
        guard case .twoAndOne(let feature, let pair, let odd) = fault, pair != odd else { return false }
        let values = cards.map(feature.value(of:))
        let earlierAreFine = Feature.allCases.prefix(while: { $0 != feature }).allSatisfy { earlier in
            Swift.Set(cards.map(earlier.value(of:))).count != 2
        }
        return values.filter { $0 == pair }.count == 2 && values.filter { $0 == odd }.count == 1 && earlierAreFine
    }

    @Test func forAll85320TriplesTheReasonIsNilExactlyForASetAndNamesATwoAndOneFeature() {
        let cards = Card.all
        var faults = 0
        for i in 0..<81 {
            for j in (i + 1)..<81 {
                for k in (j + 1)..<81 {
                    let trio = [cards[i], cards[j], cards[k]]
                    let fault = SetLogic.whyNot(trio)
                    #expect((fault == nil) == SetLogic.isSet(trio))
                    if let fault {
                        faults += 1
                        #expect(isTrue(fault, of: trio), "\(trio): \(fault)")
                        #expect(Variant.classic.whyNot(trio) == fault)
                    }
                }
            }
        }
        #expect(faults == 85_320 - 1_080)
    }

    @Test func theReasonReadsAsAPlayerWouldSayIt() {
        let colour = [card("1 solid red oval"), card("2 solid red oval"), card("3 solid green oval")]
        #expect(SetLogic.whyNot(colour)?.text == "colour: two red, one green")
        let shape = [card("1 solid red oval"), card("2 solid red diamond"), card("3 solid red oval")]
        #expect(SetLogic.whyNot(shape)?.text == "shape: two ovals, one diamond")
        let shading = [card("1 open red oval"), card("2 striped red oval"), card("3 open red oval")]
        #expect(SetLogic.whyNot(shading)?.text == "shading: two open, one striped")
        let number = [card("1 solid red oval"), card("1 striped red oval"), card("3 open red oval")]
        #expect(SetLogic.whyNot(number)?.text == "number: two with 1, one with 3")
        #expect(SetLogic.whyNot(Array(colour.prefix(2))) == .count(expected: 3))
        #expect(SetLogic.whyNot([colour[0], colour[0], colour[1]]) == .count(expected: 3))
    }

    @Test func setChainSaysARealSetWithoutItsChainCardIsRefusedForThat() {
        let chain = [card("1 solid red oval"), card("2 solid red oval"), card("3 solid red oval")]
        let apart = [card("1 open green diamond"), card("2 open green diamond"), card("3 open green diamond")]
        #expect(SetLogic.isSet(apart))
        #expect(Variant.chain.whyNot(apart, chain: chain) == .chainCards(used: 0))
        #expect(Variant.chain.whyNot(apart, chain: chain)?.text == "a set here uses exactly one chain card")
        #expect(Variant.chain.whyNot(chain, chain: chain) == .chainCards(used: 3))
        #expect(Variant.chain.whyNot(apart) == nil, "before the first set any set counts")
        let linked = [chain[0], SetLogic.completing(chain[0], apart[0]), apart[0]]
        #expect(Variant.chain.whyNot(linked, chain: chain) == nil)
        let broken = [chain[0], apart[0], apart[1]]
        #expect(Variant.chain.whyNot(broken, chain: chain) == SetLogic.whyNot(broken))
    }

    /// Set-Chain's reason agrees with its judge for every trio drawn from a small table and chain.
    @Test func setChainsReasonIsNilExactlyWhenTheJudgeAcceptsThePick() {
        var random = SplitMix64(seed: 23)
        for _ in 0..<200 {
            var deck = Card.all
            for index in deck.indices.reversed() { deck.swapAt(index, random.uniform(below: index + 1)) }
            let chain = SetLogic.firstSet(in: deck) ?? []
            let cards = Array(deck.filter { !chain.contains($0) }.prefix(9)) + chain
            for i in 0..<cards.count {
                for j in (i + 1)..<cards.count {
                    for k in (j + 1)..<cards.count {
                        let trio = [cards[i], cards[j], cards[k]]
                        #expect((Variant.chain.whyNot(trio, chain: chain) == nil) == Variant.chain.isValid(trio, chain: chain))
                    }
                }
            }
        }
    }

    /// UltraSet: nil exactly for an ultra; otherwise the named third cards really are the thirds of
    /// one split and really differ in the named feature. Every four of the 27 solid cards, then a
    /// seeded sample of fours from the whole deck.
    @Test func ultraSetsReasonIsNilExactlyForAnUltraAndNamesTheThirdCardsDifference() {
        func check(_ four: [Card]) {
            let fault = UltraLogic.whyNot(four)
            #expect((fault == nil) == UltraLogic.isUltra(four))
            guard let fault else { return }
            guard case .thirdsDiffer(let feature, let first, let second) = fault else {
                Issue.record("\(four): \(fault)")
                return
            }
            let splits = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
            let matches = splits.contains { p, q in
                feature.value(of: SetLogic.completing(four[p.0], four[p.1])) == first
                    && feature.value(of: SetLogic.completing(four[q.0], four[q.1])) == second
            }
            #expect(first != second && matches, "\(four): \(fault)")
            #expect(Variant.ultra.whyNot(four) == fault)
        }
        let solid = Variant.junior.cards
        for a in 0..<27 {
            for b in (a + 1)..<27 {
                for c in (b + 1)..<27 {
                    for d in (c + 1)..<27 { check([solid[a], solid[b], solid[c], solid[d]]) }
                }
            }
        }
        var random = SplitMix64(seed: 4)
        for _ in 0..<20_000 {
            var four: [Card] = []
            while four.count < 4 {
                let next = Card.all[random.uniform(below: 81)]
                if !four.contains(next) { four.append(next) }
            }
            check(four)
        }
        #expect(UltraLogic.whyNot(Array(Card.all.prefix(3))) == .count(expected: 4))
    }

    @Test func eachVariantHasItsOwnOneLineRule() {
        #expect(Variant.classic.rule.contains("shading"))
        #expect(!Variant.junior.rule.contains("shading and"), "junior's cards are all solid")
        #expect(Variant.chain.rule.contains("chain card"))
        #expect(Variant.ultra.rule.hasPrefix("An ultra is 4 cards"))
        #expect(Swift.Set(Variant.allCases.map(\.rule)).count == Variant.allCases.count)
    }
}
