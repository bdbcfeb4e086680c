import SetBot
import SetRules
import SetWire
import Testing

@Suite struct BotBrainTests {
    /// A duel view from the rules' own state, as a snapshot would show it.
    func view(of match: Match, phase: MatchPhase = .playing, rematch: [Seat] = []) -> MatchView {
        MatchView(match: "m", seq: 1, time: 0, mode: .duel, phase: phase, game: 1,
                  players: [PlayerInfo(seat: .first, name: "a", present: true, score: 0),
                            PlayerInfo(seat: .second, name: "b", present: true, score: 0)],
                  spectators: 0, table: match.table, deck: match.deck.count, selection: match.selection,
                  selectionSeat: nil, window: match.window, shown: nil, tableChangedAt: 0, rules: .standard,
                  commitment: nil, result: match.result, seed: nil, rematchAsked: rematch, setsOnTable: nil)
    }

    func tableWith(sets wanted: Bool) -> Match {
        for seed: UInt64 in 1... {
            let match = Match(mode: .duel, seed: seed, at: .zero)
            if SetLogic.anySet(in: match.table) == wanted { return match }
        }
        fatalError("unreachable")
    }

    @Test func anInstantBotClaimsAndPicksASetAtOnce() {
        let match = tableWith(sets: true)
        var brain = BotBrain(level: .instant, seat: .second, seed: 3)
        brain.observe(view(of: match), at: Instant(milliseconds: 500))
        let actions = brain.due(at: Instant(milliseconds: 500), view: view(of: match))
        #expect(actions.first == .claim)
        let cards = actions.dropFirst().compactMap { if case .select(let card) = $0 { card } else { nil } }
        #expect(cards.count == 3 && SetLogic.isSet(cards))
    }

    @Test func aNormalBotWaitsItsReactionTimeThenPicksAtHumanPace() {
        let match = tableWith(sets: true)
        var brain = BotBrain(level: .normal, seat: .first, seed: 3)
        brain.observe(view(of: match), at: .zero)
        let times = brain.script.map(\.at.milliseconds)
        #expect(times.count == 4)
        #expect(times[0] > 0)
        #expect(zip(times.dropFirst(), times.dropLast()).allSatisfy { $0 - $1 == 450 })
        #expect(brain.due(at: Instant(milliseconds: times[0] - 1), view: view(of: match)).isEmpty)
        #expect(brain.due(at: Instant(milliseconds: times[0]), view: view(of: match)) == [.claim])
    }

    @Test func withNoSetItAsksToDeal() {
        let match = tableWith(sets: false)
        var brain = BotBrain(level: .instant, seat: .first, seed: 1)
        brain.observe(view(of: match), at: .zero)
        #expect(brain.due(at: .zero, view: view(of: match)) == [.deal])
    }

    @Test func itWaitsOutTheOpponentsWindowAndUsesItsOwn() {
        var match = tableWith(sets: true)
        _ = match.apply(.claim, by: .first, at: .zero)
        var brain = BotBrain(level: .instant, seat: .second, seed: 1)
        brain.observe(view(of: match), at: .zero)
        #expect(brain.script.isEmpty)
        _ = match.apply(.pass, by: .first, at: .zero)  // second chance for the bot
        brain.observe(view(of: match), at: .zero)
        let actions = brain.due(at: .zero, view: view(of: match))
        #expect(actions.count == 3)
        #expect(!actions.contains(.claim))
    }

    @Test func afterTheEndItAsksForARematchOnce() {
        var match = tableWith(sets: true)
        _ = match.apply(.resign, by: .first, at: .zero)
        var brain = BotBrain(level: .hard, seat: .second, seed: 1)
        brain.observe(view(of: match, phase: .over), at: .zero)
        #expect(brain.due(at: Instant(milliseconds: 2_500), view: view(of: match, phase: .over)) == [.rematch])
        brain.observe(view(of: match, phase: .over, rematch: [.second]), at: Instant(milliseconds: 2_600))
        #expect(brain.script.isEmpty)
    }

    @Test func easyBotsSometimesClaimWrongAndInstantNever() {
        let match = tableWith(sets: true)
        func wrongShare(_ level: BotLevel) -> Double {
            var wrong = 0
            for seed: UInt64 in 0..<2_000 {
                var brain = BotBrain(level: level, seat: .first, seed: seed)
                brain.observe(view(of: match), at: .zero)
                let cards = brain.script.compactMap { if case .select(let card) = $0.action { card } else { nil } }
                if !SetLogic.isSet(cards) { wrong += 1 }
            }
            return Double(wrong) / 2_000
        }
        #expect(abs(wrongShare(.easy) - 0.12) < 0.03)
        #expect(wrongShare(.instant) == 0)
    }
}
