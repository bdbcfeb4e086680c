import Testing
@testable import SetRules

/// The variants inside a match: picks, refills, the chain, hints, penalties, windows and the end.
@Suite struct VariantMatchTests {
    /// Takes `picks` in a claim window by `seat` and returns the events.
    func claimAndPick(_ match: inout Match, _ picks: [Card], by seat: Seat = .first, at time: Int64) -> [MatchEvent] {
        var events = accepted(&match, .claim, by: seat, at: time)
        for card in picks { events += accepted(&match, .select(card), by: seat, at: time) }
        return events
    }

    @Test func juniorRefillsToNineAndEndsWhenTheDeckIsOutAndNoSetIsLeft() {
        var match = Match(mode: .duel, variant: .junior, seed: 3, at: .zero)
        var now: Int64 = 0
        var seen = Swift.Set(match.table)
        while !match.isOver {
            now += 1_000
            if let set = match.setsOnTable.first {
                let deckBefore = match.deck.count
                _ = claimAndPick(&match, set, at: now)
                #expect(match.table.count >= 9 || deckBefore < 3, "refilled to nine while the deck lasts")
            } else {
                _ = accepted(&match, .deal, at: now)
                _ = match.advance(to: at(now + 10_000))
                now += 10_000
            }
            seen.formUnion(match.table)
            #expect(match.table.allSatisfy { $0.shading == .solid })
        }
        #expect(seen.count == 27)
        #expect(match.result?.reason == .noSetsLeft)
        #expect(match.deck.isEmpty && match.setsOnTable.isEmpty)
    }

    @Test func ultraNeedsFourPicksRefillsFourAndScoresByTime() {
        var match = Match(mode: .duel, variant: .ultra, seed: 11, at: .zero)
        let ultra = try! #require(match.setsOnTable.first)
        var events = accepted(&match, .claim, at: 2_500)
        for card in ultra.prefix(3) { events += accepted(&match, .select(card), at: 2_500) }
        #expect(match.selection == Array(ultra.prefix(3)), "three cards are not judged yet")
        #expect(match.window?.kind == .claim)
        events = accepted(&match, .select(ultra[3]), at: 2_500)
        #expect(events.contains(.setTaken(seat: .first, cards: ultra, points: 28, score: 28)))
        guard case .tableChanged(let removed, let added, let table, let deckCount) = events.last(where: {
            if case .tableChanged = $0 { true } else { false }
        }) else { Issue.record("no table change"); return }
        #expect(removed == ultra)
        #expect(added.count == 4)
        #expect(table.count == 12)
        #expect(deckCount == 65)
    }

    /// A refill only brings the table back to 12 (Protocol.md, Variants): an ultra taken from 15
    /// cards is refilled with one card, and one taken from 18 with none.
    @Test func ultraTakenPastTwelveCardsRefillsOnlyBackToTwelve() {
        var match = Match(mode: .duel, variant: .ultra, seed: 11, at: .zero)
        var now: Int64 = 1_000
        for (dealt, refill) in [(15, 1), (18, 0)] {
            while match.table.count < dealt {
                _ = accepted(&match, .deal, by: .second, at: now)
                now += 10_000
                _ = match.advance(to: at(now))  // the deal grace runs out
            }
            let ultra = try! #require(match.setsOnTable.first)
            let events = claimAndPick(&match, ultra, at: now)
            guard case .tableChanged(let removed, let added, let table, _) = events.last(where: {
                if case .tableChanged = $0 { true } else { false }
            }) else { Issue.record("no table change from \(dealt)"); return }
            #expect(removed == ultra)
            #expect(added.count == refill, "from \(dealt) cards")
            #expect(table.count == max(12, dealt - 4))
            now += 1_000
        }
    }

    @Test func aWrongQuadrupleCostsAndHandsOverASecondChanceAsInTheClassicGame() {
        var match = Match(mode: .duel, variant: .ultra, seed: 11, at: .zero)
        let wrong = try! #require(Oracle.subsets(match.table, 4).first { !Oracle.isUltra($0) })
        let events = claimAndPick(&match, wrong, at: 1_000)
        #expect(events.contains(.notASet(seat: .first, cards: wrong, penalty: 10, score: -10)))
        #expect(match.window?.kind == .secondChance)
        #expect(match.window?.holder == .second)
        #expect(match.window?.deadline == at(11_000))
    }

    /// The most cards a greedy pick finds without an ultra among them: nine. Twelve cards held an
    /// ultra in every game played here, so in UltraSet a free deal is rare; the end is not.
    static let cardsWithoutUltra: [Card] = {
        var cards: [Card] = []
        for candidate in Card.all where !Oracle.subsets(cards, 3).contains(where: { Oracle.isUltra($0 + [candidate]) }) {
            cards.append(candidate)
        }
        return cards
    }()

    @Test func dealingWithAnUltraOnTheTableCostsAndHandsOverTheGrace() {
        var match = Match(mode: .duel, variant: .ultra, seed: 11, at: .zero)
        let events = accepted(&match, .deal, by: .second, at: 100)
        #expect(events.first == .penalised(seat: .second, reason: .dealtWithSetOnTable, points: 15, score: -15))
        #expect(match.table.count == 15)
        #expect(match.window?.kind == .dealGrace && match.window?.holder == .first)
    }

    @Test func aTableWithoutUltraAndAnEmptyDeckEndsTheGame() {
        #expect(Self.cardsWithoutUltra.count == 9)
        #expect(Variant.ultra.combinations(table: Self.cardsWithoutUltra).isEmpty)
        let match = Match(mode: .duel, variant: .ultra, deck: Deck(cards: Self.cardsWithoutUltra), at: at(0))
        #expect(match.result?.reason == .noSetsLeft)
        var solo = Match(mode: .solo, variant: .ultra, deck: Deck(cards: Self.cardsWithoutUltra), at: at(0))
        #expect(refused(&solo, .hint, at: 10) == .matchOver)
    }

    @Test(arguments: Variant.allCases)
    func aHintShowsAValidPickOfTheVariant(variant: Variant) {
        var match = Match(mode: .solo, variant: variant, seed: 5, at: .zero)
        let events = accepted(&match, .hint, at: 100)
        guard case .hintShown(_, let cards, let cost, let score) = events.first else { Issue.record("no hint"); return }
        #expect(cards.count == variant.pickCount)
        #expect(variant.isValid(cards, chain: match.chain))
        #expect(cost == 15 && score == -15)
    }

    @Test func theFirstChainSetStartsTheChainAndTheNextMustUseExactlyOneOfItsCards() {
        var match = Match(mode: .duel, variant: .chain, seed: 21, at: .zero)
        let first = try! #require(match.setsOnTable.first)
        var events = claimAndPick(&match, first, at: 1_000)
        #expect(match.chain == first)
        #expect(events.contains { if case .tableChanged(first, _, _, _) = $0 { true } else { false } })
        #expect(match.table.count == 12 && first.allSatisfy { !match.table.contains($0) })

        // A set all from the table is not a chain set: a wrong pick, with its penalty.
        if let plain = SetLogic.allSets(in: match.table).first {
            events = claimAndPick(&match, plain, by: .second, at: 2_000)
            #expect(events.contains(.notASet(seat: .second, cards: plain, penalty: 10, score: -10)))
            _ = accepted(&match, .pass, by: .first, at: 2_000)
        }
        guard let link = match.setsOnTable.first else {
            #expect(match.deck.count > 0)
            return
        }
        let carried = link.filter(first.contains)
        #expect(carried.count == 1)
        let before = match.table
        events = claimAndPick(&match, link, at: 3_000)
        guard case .tableChanged(let removed, let added, _, _) = events.last(where: { if case .tableChanged = $0 { true } else { false } })
        else { Issue.record("no table change"); return }
        #expect(removed == link.filter(before.contains), "the carried card was never on the table")
        #expect(removed.count == 2 && added.count == 2)
        #expect(match.chain == link)
        #expect(!match.table.contains(carried[0]))
    }

    @Test func aCardOfTheChainCanBeTouchedButNotOneFromElsewhere() {
        var match = Match(mode: .solo, variant: .chain, seed: 21, at: .zero)
        let first = try! #require(match.setsOnTable.first)
        for card in first { _ = accepted(&match, .select(card), at: 100) }
        let outside = try! #require(Card.all.first { !match.table.contains($0) && !match.chain.contains($0) })
        #expect(refused(&match, .select(outside), at: 200) == .cardNotOnTable(outside))
        _ = accepted(&match, .deal, at: 300)  // takes the shown set off the table
        #expect(match.chain == first)
        _ = accepted(&match, .select(first[1]), at: 400)
        #expect(match.selection == [first[1]])
    }

    /// Whole games of every variant, solo and duel, by a player who always takes the first valid
    /// pick: every card is dealt once, scores add up, and the game ends only with the deck out and
    /// no valid pick left.
    @Test(arguments: Variant.allCases)
    func perfectPlayEndsWithTheDeckOutAndNothingLeftToPick(variant: Variant) {
        for mode in Mode.allCases {
            for seed: UInt64 in 0..<6 {
                var match = Match(mode: mode, variant: variant, seed: seed, at: .zero)
                var now: Int64 = 0
                var seen = Swift.Set(match.table)
                var steps = 0
                while !match.isOver && steps < 500 {
                    steps += 1
                    now += 700
                    if let pick = match.setsOnTable.first {
                        #expect(Oracle.combinations(variant, table: match.table, chain: match.chain).contains(Swift.Set(pick)))
                        if mode == .duel { _ = accepted(&match, .claim, at: now) }
                        for card in pick { _ = accepted(&match, .select(card), at: now) }
                        if mode == .solo && !match.isOver { _ = accepted(&match, .deal, at: now) }
                    } else {
                        #expect(Oracle.combinations(variant, table: match.table, chain: match.chain).isEmpty)
                        _ = accepted(&match, .deal, at: now)
                        now += 10_000
                        _ = match.advance(to: at(now))
                    }
                    seen.formUnion(match.table)
                }
                #expect(match.result?.reason == .noSetsLeft, "\(variant) \(mode) seed \(seed)")
                #expect(match.deck.isEmpty)
                #expect(Oracle.combinations(variant, table: match.table, chain: match.chain).isEmpty)
                #expect(seen.count == variant.cards.count)
            }
        }
    }

    @Test func inUltraSetTheSecondChanceAndTheGraceTakeFourPicksToo() {
        var match = Match(mode: .duel, variant: .ultra, seed: 11, at: .zero)
        let wrong = try! #require(Oracle.subsets(match.table, 4).first { !Oracle.isUltra($0) })
        _ = claimAndPick(&match, wrong, at: 1_000)
        let ultra = try! #require(match.setsOnTable.first)
        // The second chance holder picks without calling "Set!"; three cards wait for the fourth.
        for card in ultra.prefix(3) { _ = accepted(&match, .select(card), by: .second, at: 3_000) }
        #expect(match.window?.kind == .secondChance)
        let events = accepted(&match, .select(ultra[3]), by: .second, at: 3_000)
        #expect(events.contains(.setTaken(seat: .second, cards: ultra, points: 27, score: 27)))

        // After a deal the other player's grace: a wrong quadruple in it is free.
        _ = accepted(&match, .deal, by: .second, at: 4_000)
        #expect(match.window?.kind == .dealGrace && match.window?.holder == .first)
        let miss = try! #require(Oracle.subsets(match.table, 4).first { !Oracle.isUltra($0) })
        var graceEvents: [MatchEvent] = []
        for card in miss { graceEvents += accepted(&match, .select(card), at: 4_500) }
        #expect(graceEvents.contains(.notASet(seat: .first, cards: miss, penalty: 0, score: -10)))
        #expect(match.window == nil)
    }

    @Test func inSetChainTheDealPenaltyAndTheEndCountOnlyChainSets() {
        var match = Match(mode: .duel, variant: .chain, seed: 21, at: .zero)
        let first = try! #require(match.setsOnTable.first)
        _ = claimAndPick(&match, first, at: 1_000)
        // Deal with a plain set on the table but no chain set: free; with a chain set: penalised.
        let chainSets = match.setsOnTable
        let events = accepted(&match, .deal, by: .second, at: 2_000)
        let penalised = events.contains { if case .penalised(_, .dealtWithSetOnTable, _, _) = $0 { true } else { false } }
        #expect(penalised == !chainSets.isEmpty)
        #expect(Oracle.combinations(.chain, table: match.table, chain: match.chain).count == match.setsOnTable.count)
    }
}
