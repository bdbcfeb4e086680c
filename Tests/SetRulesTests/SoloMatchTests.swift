import Testing
@testable import SetRules

@Suite struct SoloMatchTests {
    let a = oneSet[0], b = oneSet[1], c = oneSet[2]
    var others: [Card] { Array(tableWithOneSet.dropFirst(3)) }

    func newMatch(_ table: [Card] = tableWithOneSet, deck fullDeck: Deck? = nil) -> Match {
        Match(mode: .solo, deck: fullDeck ?? deck(table: table), at: at(0))
    }

    @Test func theFixtureTableHoldsExactlyOneSet() {
        #expect(SetLogic.allSets(in: tableWithOneSet).map { Swift.Set($0) } == [Swift.Set(oneSet)])
        #expect(tableWithOneSet.count == 12)
    }

    @Test func aNewGameDeals12AndHasNoTimers() {
        let match = newMatch()
        #expect(match.table == tableWithOneSet)
        #expect(match.deck.count == 69)
        #expect(match.scores == [0])
        #expect(match.nextDeadline == nil)
    }

    @Test func touchingSelectsAndTouchingAgainDeselects() {
        var match = newMatch()
        #expect(accepted(&match, .select(a), at: 10) == [.selectionChanged(seat: .first, selection: [a])])
        #expect(accepted(&match, .select(b), at: 20) == [.selectionChanged(seat: .first, selection: [a, b])])
        #expect(accepted(&match, .select(a), at: 30) == [.selectionChanged(seat: .first, selection: [b])])
    }

    @Test func aThirdCardThatMakesASetScoresByTimeAndStaysOnShow() {
        var match = newMatch()
        _ = accepted(&match, .select(a), at: 1_000)
        _ = accepted(&match, .select(b), at: 2_000)
        let events = accepted(&match, .select(c), at: 3_500)
        #expect(events == [
            .selectionChanged(seat: .first, selection: [a, b, c]),
            .setTaken(seat: .first, cards: [a, b, c], points: 27, score: 27),
        ])
        #expect(match.shownTrio == .init(cards: [a, b, c], isSet: true))
        #expect(match.table == tableWithOneSet)
    }

    @Test func theNextTouchAfterAMatchReplacesTheTrioAndSelectsTheTouchedCard() {
        var match = newMatch()
        for card in oneSet { _ = accepted(&match, .select(card), at: 0) }
        let refill = Array(match.deck.cards.prefix(3))
        let touched = others[0]
        var table = tableWithOneSet
        table.replaceSubrange(0..<3, with: refill)
        #expect(accepted(&match, .select(touched), at: 4_000) == [
            .selectionChanged(seat: .first, selection: []),
            .tableChanged(removed: oneSet, added: refill, table: table, deckCount: 66),
            .selectionChanged(seat: .first, selection: [touched]),
        ])
        #expect(match.tableChangedAt == at(4_000))
        #expect(match.shownTrio == nil)
    }

    @Test func touchingACardOfTheMatchedTrioReplacesItWithoutSelecting() {
        var match = newMatch()
        for card in oneSet { _ = accepted(&match, .select(card), at: 0) }
        let events = accepted(&match, .select(b), at: 100)
        #expect(events.count == 2)
        #expect(events.last.map { if case .tableChanged = $0 { true } else { false } } == true)
        #expect(match.selection.isEmpty)
    }

    @Test func aMismatchCostsPointsAndTheNextTouchStartsAFreshSelection() {
        var match = newMatch()
        let trio = [a, b, others[0]]
        for card in trio.dropLast() { _ = accepted(&match, .select(card), at: 0) }
        #expect(accepted(&match, .select(trio[2]), at: 0) == [
            .selectionChanged(seat: .first, selection: trio),
            .notASet(seat: .first, cards: trio, penalty: 10, score: -10),
        ])
        #expect(match.shownTrio == .init(cards: trio, isSet: false))
        #expect(accepted(&match, .select(a), at: 10) == [.selectionChanged(seat: .first, selection: [a])])
        #expect(match.table == tableWithOneSet)
    }

    @Test func dealingWithAMatchedTrioOnShowReplacesIt() {
        var match = newMatch()
        for card in oneSet { _ = accepted(&match, .select(card), at: 0) }
        let events = accepted(&match, .deal, at: 50)
        #expect(events.first == .selectionChanged(seat: .first, selection: []))
        #expect(match.table.count == 12)
        #expect(match.scores == [30])
        #expect(match.deck.count == 66)
    }

    @Test func dealingWhileASetIsOnTheTableIsPenalisedAndKeepsTheSelection() {
        var match = newMatch()
        _ = accepted(&match, .select(others[0]), at: 0)
        let added = Array(match.deck.cards.prefix(3))
        #expect(accepted(&match, .deal, at: 10) == [
            .penalised(seat: .first, reason: .dealtWithSetOnTable, points: 15, score: -15),
            .tableChanged(removed: [], added: added, table: tableWithOneSet + added, deckCount: 66),
        ])
        #expect(match.selection == [others[0]])
    }

    @Test func dealingWithNoSetOnTheTableIsFree() {
        var match = newMatch(tableWithoutSet)
        let events = accepted(&match, .deal, at: 10)
        #expect(events.count == 1)
        #expect(match.scores == [0])
        #expect(match.table.count == 15)
    }

    @Test func dealingFromAnEmptyDeckIsRefused() {
        var match = newMatch(deck: Deck(cards: Array(setFreeTwenty.prefix(12)) + Array(tableWithOneSet.prefix(3))))
        _ = accepted(&match, .deal, at: 0)
        #expect(match.deck.isEmpty && !match.isOver)
        #expect(refused(&match, .deal, at: 1) == .deckEmpty)
    }

    @Test func aSetTakenFromMoreThan12IsNotReplaced() {
        let apart = setApartFromTableWithoutSet
        var match = newMatch(tableWithoutSet, deck: deck(table: tableWithoutSet, next: apart))
        _ = accepted(&match, .deal, at: 0)
        #expect(match.table.count == 15)
        for card in apart { _ = accepted(&match, .select(card), at: 10) }
        _ = accepted(&match, .select(tableWithoutSet[0]), at: 20)
        #expect(match.table == tableWithoutSet)
        #expect(match.selection == [tableWithoutSet[0]])
    }

    @Test func aHintShowsASetForACost() {
        var match = newMatch()
        #expect(accepted(&match, .hint, at: 0) == [.hintShown(seat: .first, cards: oneSet, cost: 15, score: -15)])
    }

    @Test func aHintWithNoSetIsRefused() {
        var match = newMatch(tableWithoutSet)
        #expect(refused(&match, .hint, at: 0) == .noSetOnTable)
    }

    @Test func duelOnlyActionsAreRefusedWithAReason() {
        var match = newMatch()
        #expect(refused(&match, .claim, at: 0)?.code == "not_in_solo")
        #expect(refused(&match, .pass, at: 0) == .noWindowToPass)
        #expect(refused(&match, .select(a), by: .second, at: 0) == .noSuchSeat(.second))
    }

    @Test func aCardNotOnTheTableIsRefused() {
        var match = newMatch()
        let absent = match.deck.cards[0]
        #expect(refused(&match, .select(absent), at: 0) == .cardNotOnTable(absent))
    }

    @Test func takingTheLastSetEndsTheGameAtOnce() {
        var match = newMatch(deck: Deck(cards: tableWithOneSet))
        _ = accepted(&match, .select(a), at: 0)
        _ = accepted(&match, .select(b), at: 0)
        let result = MatchResult(reason: .noSetsLeft, by: nil, scores: [30], winner: nil)
        #expect(accepted(&match, .select(c), at: 0) == [
            .selectionChanged(seat: .first, selection: oneSet),
            .setTaken(seat: .first, cards: oneSet, points: 30, score: 30),
            .selectionChanged(seat: .first, selection: []),
            .tableChanged(removed: oneSet, added: [], table: others, deckCount: 0),
            .matchEnded(result),
        ])
        #expect(match.result == result)
        #expect(refused(&match, .select(others[0]), at: 1) == .matchOver)
        #expect(refused(&match, .deal, at: 1) == .matchOver)
    }

    @Test func aNewGameIsAgreedAtOnceInSolo() {
        var match = newMatch()
        #expect(accepted(&match, .rematch, at: 0) == [.rematchAgreed])
    }

    @Test func resigningEndsASoloGame() {
        var match = newMatch()
        #expect(accepted(&match, .resign, at: 0) == [
            .matchEnded(MatchResult(reason: .resigned, by: .first, scores: [0], winner: nil)),
        ])
    }
}
