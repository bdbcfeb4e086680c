import Testing
@testable import SetRules

/// Whole games and random play, checking what must hold after every step.
@Suite struct MatchPropertyTests {
    /// A random but legal-looking action: mostly touches of table cards, sometimes anything else.
    func randomAction(_ match: Match, _ generator: inout SplitMix64) -> (Action, Seat) {
        let seat: Seat = match.mode == .duel && generator.uniform(below: 2) == 1 ? .second : .first
        let roll = generator.uniform(below: 20)
        let action: Action = switch roll {
        case 0..<12 where !match.table.isEmpty: .select(match.table[generator.uniform(below: match.table.count)])
        case 12: .select(Card.all[generator.uniform(below: 81)])
        case 13, 14: .claim
        case 15: .deal
        case 16: .pass
        case 17: .hint
        case 18 where generator.uniform(below: 10) == 0: .resign
        default: .claim
        }
        return (action, seat)
    }

    /// Plays `steps` random actions at rising instants and returns every event and refusal code.
    func randomPlay(mode: Mode, seed: UInt64, steps: Int) -> ([MatchEvent], [String], Match) {
        var generator = SplitMix64(seed: seed ^ 0xABCDEF)
        var match = Match(mode: mode, seed: seed, at: .zero)
        var events: [MatchEvent] = [], refusals: [String] = []
        var now: Int64 = 0
        for _ in 0..<steps where !match.isOver {
            now += Int64(generator.uniform(below: 3_000))
            let (action, seat) = randomAction(match, &generator)
            let outcome = match.apply(action, by: seat, at: Instant(milliseconds: now))
            events += outcome.events
            if let refusal = outcome.refusal { refusals.append(refusal.code) }
        }
        return (events, refusals, match)
    }

    @Test(arguments: [Mode.solo, .duel])
    func theSameSeedAndActionsGiveTheSameEvents(mode: Mode) {
        for seed: UInt64 in [1, 2, 3, 99] {
            let first = randomPlay(mode: mode, seed: seed, steps: 400)
            let second = randomPlay(mode: mode, seed: seed, steps: 400)
            #expect(first.0 == second.0)
            #expect(first.1 == second.1)
            #expect(!first.0.isEmpty)
        }
        #expect(randomPlay(mode: mode, seed: 1, steps: 200).0 != randomPlay(mode: mode, seed: 2, steps: 200).0)
    }

    @Test(arguments: [Mode.solo, .duel])
    func randomPlayKeepsEveryCardOnceAndScoresMatchTheEvents(mode: Mode) {
        for seed: UInt64 in 0..<40 {
            var generator = SplitMix64(seed: seed)
            var match = Match(mode: mode, seed: seed, at: .zero)
            var taken: [Card] = []
            var expectedScores = match.scores
            var now: Int64 = 0
            for _ in 0..<300 where !match.isOver {
                now += Int64(generator.uniform(below: 4_000))
                let (action, seat) = randomAction(match, &generator)
                let before = MatchSummary(match)
                let outcome = match.apply(action, by: seat, at: Instant(milliseconds: now))
                if outcome.refusal != nil && outcome.events.isEmpty { #expect(MatchSummary(match) == before) }
                for event in outcome.events {
                    switch event {
                    case .setTaken(let seat, let cards, let points, let score):
                        expectedScores[seat.rawValue] += points
                        #expect(score == expectedScores[seat.rawValue])
                        #expect(SetLogic.isSet(cards))
                    case .notASet(let seat, let cards, let penalty, let score):
                        expectedScores[seat.rawValue] -= penalty
                        #expect(score == expectedScores[seat.rawValue])
                        #expect(!SetLogic.isSet(cards))
                    case .penalised(let seat, _, let points, let score), .hintShown(let seat, _, let points, let score):
                        expectedScores[seat.rawValue] -= points
                        #expect(score == expectedScores[seat.rawValue])
                    case .tableChanged(let removed, _, let table, let deckCount):
                        taken += removed
                        #expect(table == match.table || match.isOver || table.count <= match.table.count + 3)
                        #expect(deckCount <= 69)
                    case .selectionChanged(_, let selection):
                        #expect(selection.count <= 3)
                    default: break
                    }
                }
                #expect(match.scores == expectedScores)
                let everyCard = match.table + match.deck.cards + taken
                #expect(everyCard.count == 81 && Swift.Set(everyCard).count == 81)
                #expect(match.selection.allSatisfy(match.table.contains))
                if let deadline = match.nextDeadline { #expect(deadline > Instant(milliseconds: now)) }
                #expect(mode == .duel || match.window == nil)
            }
        }
    }

    /// A player who always sees the first set, or deals when there is none.
    @Test func aScriptedSoloGamePlaysToTheEnd() {
        for seed: UInt64 in [7, 8, 9] {
            var match = Match(mode: .solo, seed: seed, at: .zero)
            var now: Int64 = 0
            var setsTaken = 0, pointsWon = 0
            while !match.isOver {
                now += 2_500
                let shown = match.shownTrio?.isSet == true ? match.shownTrio!.cards : []
                if let set = SetLogic.firstSet(in: match.table.filter { !shown.contains($0) }) {
                    for card in set {
                        let outcome = match.apply(.select(card), by: .first, at: Instant(milliseconds: now))
                        #expect(outcome.refusal == nil)
                        for case .setTaken(_, _, let points, _) in outcome.events {
                            setsTaken += 1
                            pointsWon += points
                            // Found 2.5 s after a deal, or at once after the last trio left.
                            #expect(points == 28 || points == 30)
                        }
                    }
                } else {
                    #expect(match.apply(.deal, by: .first, at: Instant(milliseconds: now)).refusal == nil)
                }
            }
            #expect(match.result?.reason == .noSetsLeft)
            #expect(match.deck.isEmpty && !SetLogic.anySet(in: match.table))
            #expect(setsTaken * 3 + match.table.count == 81)
            #expect(match.scores == [pointsWon])
        }
    }

    /// Two players take turns: claim, pick the first set, deal when there is none.
    @Test func aScriptedDuelPlaysToTheEndWithTheSameResultEveryTime() {
        func play(seed: UInt64) -> (MatchResult?, [MatchEvent]) {
            var match = Match(mode: .duel, seed: seed, at: .zero)
            var now: Int64 = 0
            var turn = Seat.first
            var events: [MatchEvent] = []
            while !match.isOver {
                now += 1_000
                if let set = SetLogic.firstSet(in: match.table) {
                    events += match.apply(.claim, by: turn, at: Instant(milliseconds: now)).events
                    for card in set { events += match.apply(.select(card), by: turn, at: Instant(milliseconds: now)).events }
                } else {
                    let outcome = match.apply(.deal, by: turn, at: Instant(milliseconds: now))
                    #expect(outcome.refusal == nil)
                    events += outcome.events
                    events += match.apply(.pass, by: turn.other, at: Instant(milliseconds: now)).events
                }
                turn = turn.other
            }
            return (match.result, events)
        }
        let first = play(seed: 2026)
        #expect(first.0?.reason == .noSetsLeft)
        #expect(first.0.map { $0.scores[0] > 0 && $0.scores[1] > 0 } == true)
        #expect(play(seed: 2026) == first)
    }
}
