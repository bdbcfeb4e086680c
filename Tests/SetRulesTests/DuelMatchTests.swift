import Testing
@testable import SetRules

@Suite struct DuelMatchTests {
    let a = oneSet[0], b = oneSet[1], c = oneSet[2]
    var others: [Card] { Array(tableWithOneSet.dropFirst(3)) }

    func newDuel(_ table: [Card] = tableWithOneSet, deck fullDeck: Deck? = nil,
                 settings: RuleSettings = .standard) -> Match {
        Match(mode: .duel, settings: settings, deck: fullDeck ?? deck(table: table), at: at(0))
    }

    func window(_ kind: WindowKind, _ holder: Seat, from start: Int64, lasting length: Int64) -> Window {
        Window(kind: kind, holder: holder, opened: at(start), deadline: at(start + length))
    }

    @Test func selectingWithoutAWindowIsRefused() {
        var match = newDuel()
        #expect(refused(&match, .select(a), at: 0) == .claimFirst)
    }

    @Test func aClaimOpensAnExclusiveWindowWithADeadline() {
        var match = newDuel()
        let claim = window(.claim, .first, from: 1_000, lasting: 5_000)
        #expect(accepted(&match, .claim, at: 1_000) == [.windowOpened(claim)])
        #expect(match.nextDeadline == at(6_000))
        #expect(refused(&match, .select(a), by: .second, at: 1_100) == .notYourWindow(holder: .first))
    }

    @Test func aSecondClaimIsRefusedSayingWhoWasFirstAndByHowMuch() {
        var match = newDuel()
        _ = accepted(&match, .claim, by: .second, at: 1_000)
        let refusal = refused(&match, .claim, by: .first, at: 1_120)
        #expect(refusal == .claimTaken(holder: .second, leadMs: 120))
        #expect(refusal?.message == "Player 2 called \"Set!\" first, by 120 ms.")
        #expect(refused(&match, .claim, by: .second, at: 1_200) == .alreadyYourWindow)
    }

    @Test func theClaimantsSetScoresByTimeAndIsTaken() {
        var match = newDuel()
        let claim = window(.claim, .first, from: 4_000, lasting: 5_000)
        _ = accepted(&match, .claim, at: 4_000)
        #expect(accepted(&match, .select(a), at: 4_500) == [.selectionChanged(seat: .first, selection: [a])])
        _ = accepted(&match, .select(b), at: 5_000)
        let refill = Array(match.deck.cards.prefix(3))
        var table = tableWithOneSet
        table.replaceSubrange(0..<3, with: refill)
        #expect(accepted(&match, .select(c), at: 6_200) == [
            .selectionChanged(seat: .first, selection: oneSet),
            .setTaken(seat: .first, cards: oneSet, points: 24, score: 24),
            .selectionChanged(seat: .first, selection: []),
            .windowClosed(claim, .decided),
            .tableChanged(removed: oneSet, added: refill, table: table, deckCount: 66),
        ])
        #expect(match.window == nil && match.nextDeadline == nil)
        #expect(match.scores == [24, 0])
    }

    @Test func aWrongTrioIsPenalisedAndGivesTheOpponentASecondChance() {
        var match = newDuel()
        let claim = window(.claim, .first, from: 0, lasting: 5_000)
        let trio = [a, b, others[0]]
        _ = accepted(&match, .claim, at: 0)
        _ = accepted(&match, .select(a), at: 10)
        _ = accepted(&match, .select(b), at: 20)
        #expect(accepted(&match, .select(others[0]), at: 30) == [
            .selectionChanged(seat: .first, selection: trio),
            .notASet(seat: .first, cards: trio, penalty: 10, score: -10),
            .selectionChanged(seat: .first, selection: []),
            .windowClosed(claim, .decided),
            .windowOpened(window(.secondChance, .second, from: 30, lasting: 10_000)),
        ])
        #expect(refused(&match, .claim, by: .first, at: 40) == .notYourWindow(holder: .second))
    }

    @Test func theSecondChanceHolderSelectsWithoutClaiming() {
        var match = newDuel()
        _ = accepted(&match, .claim, at: 0)
        _ = accepted(&match, .pass, at: 100)
        for card in oneSet { _ = accepted(&match, .select(card), by: .second, at: 1_000) }
        #expect(match.scores == [-10, 29])
        #expect(match.window == nil)
    }

    @Test func aClaimThatRunsOutIsPenalisedAtItsDeadline() {
        var match = newDuel()
        let claim = window(.claim, .first, from: 0, lasting: 5_000)
        _ = accepted(&match, .claim, at: 0)
        _ = accepted(&match, .select(a), at: 100)
        #expect(match.advance(to: at(4_999)).isEmpty)
        #expect(match.advance(to: at(5_000)) == [
            .selectionChanged(seat: .first, selection: []),
            .windowClosed(claim, .expired),
            .penalised(seat: .first, reason: .claimRanOut, points: 10, score: -10),
            .windowOpened(window(.secondChance, .second, from: 5_000, lasting: 10_000)),
        ])
    }

    @Test func aLateTimerStillStartsTheSecondChanceAtTheDeadline() {
        var match = newDuel()
        _ = accepted(&match, .claim, at: 0)
        let events = match.advance(to: at(7_000))
        #expect(events.last == .windowOpened(window(.secondChance, .second, from: 5_000, lasting: 10_000)))
    }

    @Test func timersDueBeforeAnActionFireFirst() {
        var match = newDuel()
        _ = accepted(&match, .claim, at: 0)
        let outcome = match.apply(.claim, by: .second, at: at(5_000))
        #expect(outcome.refusal == .alreadyYourWindow)
        #expect(outcome.events.contains(.windowOpened(window(.secondChance, .second, from: 5_000, lasting: 10_000))))
        #expect(match.scores == [-10, 0])
    }

    @Test func aSecondChanceThatRunsOutCostsNothing() {
        var match = newDuel()
        _ = accepted(&match, .claim, at: 0)
        _ = match.advance(to: at(5_000))
        #expect(match.advance(to: at(15_000)) == [
            .windowClosed(window(.secondChance, .second, from: 5_000, lasting: 10_000), .expired),
        ])
        #expect(match.scores == [-10, 0])
        #expect(match.nextDeadline == nil)
    }

    @Test func passingAClaimCostsLikeRunningOut() {
        var match = newDuel()
        _ = accepted(&match, .claim, at: 0)
        #expect(accepted(&match, .pass, at: 700) == [
            .windowClosed(window(.claim, .first, from: 0, lasting: 5_000), .passed),
            .penalised(seat: .first, reason: .claimPassed, points: 10, score: -10),
            .windowOpened(window(.secondChance, .second, from: 700, lasting: 10_000)),
        ])
    }

    @Test func passingASecondChanceIsFreeAndPassingNothingIsRefused() {
        var match = newDuel()
        #expect(refused(&match, .pass, at: 0) == .noWindowToPass)
        _ = accepted(&match, .claim, at: 0)
        _ = accepted(&match, .pass, at: 100)
        #expect(refused(&match, .pass, by: .first, at: 150) == .noWindowToPass)
        #expect(accepted(&match, .pass, by: .second, at: 200) == [
            .windowClosed(window(.secondChance, .second, from: 100, lasting: 10_000), .passed),
        ])
        #expect(match.scores == [-10, 0])
    }

    @Test func dealingWithASetOnTheTableIsPenalisedAndGivesTheOtherAGracePeriod() {
        var match = newDuel()
        let added = Array(match.deck.cards.prefix(3))
        #expect(accepted(&match, .deal, by: .second, at: 2_000) == [
            .penalised(seat: .second, reason: .dealtWithSetOnTable, points: 15, score: -15),
            .tableChanged(removed: [], added: added, table: tableWithOneSet + added, deckCount: 66),
            .windowOpened(window(.dealGrace, .first, from: 2_000, lasting: 8_000)),
        ])
        #expect(match.tableChangedAt == at(2_000))
    }

    @Test func dealingWithNoSetIsFreeAndStillOpensTheOthersGracePeriod() {
        var match = newDuel(tableWithoutSet)
        let events = accepted(&match, .deal, at: 0)
        #expect(events.count == 2)
        #expect(events.last == .windowOpened(window(.dealGrace, .second, from: 0, lasting: 8_000)))
        #expect(match.scores == [0, 0])
    }

    @Test func aHolderWhoLeavesLosesTheClaimAsIfPassingIt() {
        var match = newDuel()
        _ = accepted(&match, .claim, at: 0)
        _ = accepted(&match, .select(a), at: 100)
        let bystander = match.holderLeft(.second, at: at(200))
        #expect(bystander.isEmpty, "only the holder's leaving ends a window")
        let left = match.holderLeft(.first, at: at(300))
        #expect(left == [
            .selectionChanged(seat: .first, selection: []),
            .windowClosed(window(.claim, .first, from: 0, lasting: 5_000), .passed),
            .penalised(seat: .first, reason: .claimPassed, points: 10, score: -10),
            .windowOpened(window(.secondChance, .second, from: 300, lasting: 10_000)),
        ])
        // The second chance's holder leaving ends it too, for free.
        let leftToo = match.holderLeft(.second, at: at(400))
        #expect(leftToo == [
            .windowClosed(window(.secondChance, .second, from: 300, lasting: 10_000), .passed),
        ])
        #expect(match.scores == [-10, 0] && match.window == nil)
    }

    @Test func aWrongTrioInTheGracePeriodCostsNothingAndEndsIt() {
        var match = newDuel()
        _ = accepted(&match, .deal, by: .second, at: 0)
        let trio = [a, b, others[0]]
        for card in trio.dropLast() { _ = accepted(&match, .select(card), at: 100) }
        #expect(accepted(&match, .select(trio[2]), at: 200) == [
            .selectionChanged(seat: .first, selection: trio),
            .notASet(seat: .first, cards: trio, penalty: 0, score: 0),
            .selectionChanged(seat: .first, selection: []),
            .windowClosed(window(.dealGrace, .first, from: 0, lasting: 8_000), .decided),
        ])
        #expect(match.window == nil)
    }

    @Test func theGracePeriodRunsOutQuietly() {
        var match = newDuel(tableWithoutSet)
        _ = accepted(&match, .deal, by: .second, at: 0)
        #expect(match.advance(to: at(8_000)) == [
            .windowClosed(window(.dealGrace, .first, from: 0, lasting: 8_000), .expired),
        ])
    }

    @Test func dealingInsideAWindowFollowsWhoseWindowItIs() {
        var match = newDuel(tableWithoutSet)
        _ = accepted(&match, .deal, by: .second, at: 0)
        #expect(refused(&match, .deal, by: .second, at: 10) == .notYourWindow(holder: .first))
        let events = accepted(&match, .deal, by: .first, at: 20)
        #expect(events.first == .windowClosed(window(.dealGrace, .first, from: 0, lasting: 8_000), .dealt))
        #expect(events.last == .windowOpened(window(.dealGrace, .second, from: 20, lasting: 8_000)))
        _ = accepted(&match, .pass, by: .second, at: 30)
        _ = accepted(&match, .claim, by: .first, at: 40)
        #expect(refused(&match, .deal, by: .first, at: 50) == .finishYourClaim)
    }

    @Test func hintsAreOffInADuelUnlessTheRulesAllowThem() {
        var match = newDuel()
        #expect(refused(&match, .hint, at: 0) == .hintsDisabled)
        var settings = RuleSettings.standard
        settings.hintsInDuel = true
        var allowed = newDuel(settings: settings)
        #expect(accepted(&allowed, .hint, by: .second, at: 0) == [
            .hintShown(seat: .second, cards: oneSet, cost: 15, score: -15),
        ])
        _ = accepted(&allowed, .claim, by: .first, at: 10)
        #expect(refused(&allowed, .hint, by: .second, at: 20) == .notYourWindow(holder: .first))
    }

    @Test func resigningLosesWhateverTheScore() {
        var match = newDuel()
        _ = accepted(&match, .claim, at: 0)
        for card in oneSet { _ = accepted(&match, .select(card), at: 0) }
        #expect(accepted(&match, .resign, by: .first, at: 100) == [
            .matchEnded(MatchResult(reason: .resigned, by: .first, scores: [30, 0], winner: .second)),
        ])
        #expect(refused(&match, .claim, by: .second, at: 200) == .matchOver)
    }

    @Test func resigningInsideAWindowClosesIt() {
        var match = newDuel()
        _ = accepted(&match, .claim, at: 0)
        let events = accepted(&match, .resign, by: .second, at: 10)
        #expect(events.first == .windowClosed(window(.claim, .first, from: 0, lasting: 5_000), .matchEnded))
        #expect(match.nextDeadline == nil)
    }

    @Test func theHigherScoreWinsWhenNoSetsAreLeft() {
        var match = newDuel(deck: Deck(cards: tableWithOneSet))
        _ = accepted(&match, .claim, by: .second, at: 0)
        for card in oneSet { _ = accepted(&match, .select(card), by: .second, at: 0) }
        #expect(match.result == MatchResult(reason: .noSetsLeft, by: nil, scores: [0, 30], winner: .second))
    }

    @Test func equalScoresTie() {
        let startsSetFree = newDuel(deck: Deck(cards: tableWithoutSet))
        #expect(startsSetFree.result == MatchResult(reason: .noSetsLeft, by: nil, scores: [0, 0], winner: nil))

        // Fifteen set-free cards: the deal that empties the deck leaves no set and ends the match.
        var match = newDuel(deck: Deck(cards: Array(setFreeTwenty.prefix(15))))
        _ = accepted(&match, .claim, by: .first, at: 0)
        _ = accepted(&match, .pass, by: .first, at: 10)
        _ = accepted(&match, .pass, by: .second, at: 20)
        _ = accepted(&match, .claim, by: .second, at: 30)
        _ = accepted(&match, .pass, by: .second, at: 40)
        #expect(match.scores == [-10, -10])
        let events = accepted(&match, .deal, by: .first, at: 50)
        #expect(events.last == .matchEnded(MatchResult(reason: .noSetsLeft, by: nil, scores: [-10, -10], winner: nil)))
        #expect(refused(&match, .claim, at: 60) == .matchOver)
    }

    @Test func aRematchNeedsBothSeatsAfterTheEnd() {
        var match = newDuel()
        #expect(refused(&match, .rematch, at: 0) == .matchNotOver)
        _ = accepted(&match, .resign, by: .first, at: 0)
        #expect(accepted(&match, .rematch, by: .second, at: 10) == [.rematchRequested(seat: .second)])
        #expect(refused(&match, .rematch, by: .second, at: 20) == .rematchAlreadyAsked)
        #expect(accepted(&match, .rematch, by: .first, at: 30) == [.rematchRequested(seat: .first), .rematchAgreed])
    }

    @Test func aTakenSetFromMoreThan12ClosesTheTableUp() {
        let apart = setApartFromTableWithoutSet
        var match = newDuel(tableWithoutSet, deck: deck(table: tableWithoutSet, next: apart))
        _ = accepted(&match, .deal, by: .second, at: 0)
        for card in apart { _ = accepted(&match, .select(card), by: .first, at: 100) }
        #expect(match.table == tableWithoutSet)
    }

    @Test func aForfeitEndsTheMatchForTheOtherSeat() {
        var match = newDuel()
        _ = accepted(&match, .claim, by: .second, at: 0)
        let events = match.forfeit(by: .second)
        #expect(events.last == .matchEnded(MatchResult(reason: .forfeited, by: .second, scores: [0, 0], winner: .first)))
        #expect(match.forfeit(by: .first).isEmpty)
    }
}

@Suite struct PostponeTests {
    @Test func postponingMovesTheWindowAndTheScoringClock() {
        var match = Match(mode: .duel, deck: deck(table: tableWithOneSet), at: at(0))
        _ = match.apply(.claim, by: .first, at: at(1_000))
        match.postpone(by: 30_000)
        #expect(match.window?.deadline == at(36_000))
        #expect(match.tableChangedAt == at(30_000))
        #expect(match.advance(to: at(35_999)).isEmpty)
        for card in oneSet { _ = match.apply(.select(card), by: .first, at: at(32_000)) }
        #expect(match.scores == [28, 0])
    }

    /// A window that ran out before play goes on (a crash's lost second) ends when it does: the
    /// second chance it opens gets its whole length from then.
    @Test func aWindowThatRanOutWhileStoppedEndsWhenPlayGoesOn() {
        var match = Match(mode: .duel, deck: deck(table: tableWithOneSet), at: at(0))
        _ = match.apply(.claim, by: .first, at: at(1_000))
        match.postpone(by: 300)  // the pause began 900 ms after the deadline (6,000) and lasted 300 ms
        match.endNoEarlierThan(at(7_200))
        #expect(match.window == Window(kind: .claim, holder: .first, opened: at(2_200), deadline: at(7_200)))
        let events = match.advance(to: at(7_200))
        #expect(match.window == Window(kind: .secondChance, holder: .second, opened: at(7_200), deadline: at(17_200)), "\(events)")
        // A window still running is left as it is.
        var running = Match(mode: .duel, deck: deck(table: tableWithOneSet), at: at(0))
        _ = running.apply(.claim, by: .first, at: at(1_000))
        running.endNoEarlierThan(at(3_000))
        #expect(running.window?.deadline == at(6_000))
    }
}
