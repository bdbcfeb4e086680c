import SetBot
import SetRules
import SetWire
import Testing

@Suite struct BotBrainTests {
    /// A duel view from the rules' own state, as a snapshot would show it.
    func view(of match: Match, phase: MatchPhase = .playing, rematch: [Seat] = [], time: Int64 = 0) -> MatchView {
        MatchView(match: "m", seq: 1, time: time, mode: .duel, phase: phase, game: 1,
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

    /// A window's deadline is on the server's clock and the bot's clock began with its run (a
    /// door's bot is new at each pause; `setgame bot` may outlive a server's restart): the time
    /// its window has left is read on the server's clock alone.
    @Test(arguments: [Int64(0), 5_000_000]) func itJudgesItsWindowByTheTimeItHasLeftWhateverItsOwnClock(_ botClock: Int64) {
        let opened = Instant(milliseconds: 1_000_000)
        var match = tableWith(sets: true)
        _ = match.apply(.claim, by: .first, at: opened)
        _ = match.apply(.pass, by: .first, at: opened)  // the bot's second chance, 10 s on the server's clock
        guard let deadline = match.window?.deadline else {
            Issue.record("no second chance")
            return
        }
        let now = Instant(milliseconds: botClock)
        var fresh = BotBrain(level: .hard, seat: .second, seed: 1)
        fresh.observe(view(of: match, time: opened.milliseconds), at: now)
        #expect(fresh.script.count == 3, "a hard bot sees a set well within 10 s: it picks it")
        #expect(fresh.script.allSatisfy { $0.at > now })
        var late = BotBrain(level: .hard, seat: .second, seed: 1)
        late.observe(view(of: match, time: deadline.milliseconds - 50), at: now)
        #expect(late.script.isEmpty, "50 ms left: too little for it to see the set")
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
