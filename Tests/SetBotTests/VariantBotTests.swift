import Foundation
import SetBot
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Bots in every variant: the brain finds chain sets and ultras at every level, and two bots play
/// a whole duel of each variant through a real server while a spectator watches.
@Suite(.serialized) struct VariantBotTests {
    func view(of match: Match) -> MatchView {
        MatchView(match: "m", seq: 1, time: 0, mode: .duel, phase: .playing, game: 1,
                  players: [PlayerInfo(seat: .first, name: "a", present: true, score: 0),
                            PlayerInfo(seat: .second, name: "b", present: true, score: 0)],
                  spectators: 0, table: match.table, deck: match.deck.count, selection: match.selection,
                  selectionSeat: nil, window: match.window, shown: nil, tableChangedAt: 0, rules: .standard,
                  commitment: nil, result: match.result, seed: nil, rematchAsked: [], setsOnTable: nil,
                  variant: match.variant, chain: match.chain)
    }

    /// A Set-Chain match after its first set, so the next set must link to the chain.
    func chainedMatch() -> Match {
        for seed: UInt64 in 1... {
            var match = Match(mode: .duel, variant: .chain, seed: seed, at: .zero)
            guard let first = match.setsOnTable.first else { continue }
            _ = match.apply(.claim, by: .first, at: .zero)
            for card in first { _ = match.apply(.select(card), by: .first, at: .zero) }
            if !match.setsOnTable.isEmpty { return match }
        }
        fatalError("unreachable")
    }

    @Test(arguments: BotLevel.allCases)
    func atEveryLevelTheBrainClaimsAndPicksWhatTheVariantCounts(level: BotLevel) {
        let matches = [Match(mode: .duel, variant: .junior, seed: 2, at: .zero), chainedMatch(),
                       Match(mode: .duel, variant: .ultra, seed: 2, at: .zero)]
        for match in matches {
            var valid = 0
            for seed: UInt64 in 0..<200 {
                var brain = BotBrain(level: level, seat: .second, seed: seed)
                brain.observe(view(of: match), at: .zero)
                let actions = brain.script.map(\.action)
                #expect(actions.first == .claim, "\(match.variant)")
                let cards = actions.compactMap { if case .select(let card) = $0 { card } else { nil } }
                #expect(cards.count == match.variant.pickCount, "\(match.variant) at \(level)")
                #expect(cards.allSatisfy { match.table.contains($0) || match.chain.contains($0) })
                if match.variant.isValid(cards, chain: match.chain) { valid += 1 }
            }
            // Only the level's deliberate wrong claims (12 % at most) miss.
            #expect(valid >= 200 * 80 / 100, "\(match.variant) at \(level): \(valid) of 200")
            if level == .instant { #expect(valid == 200) }
        }
    }

    @Test func inUltraSetAWrongClaimIsAQuadrupleThatIsNoUltra() {
        let match = Match(mode: .duel, variant: .ultra, seed: 2, at: .zero)
        var wrong = 0
        for seed: UInt64 in 0..<500 {
            var brain = BotBrain(level: .easy, seat: .first, seed: seed)
            brain.observe(view(of: match), at: .zero)
            let cards = brain.script.compactMap { if case .select(let card) = $0.action { card } else { nil } }
            #expect(cards.count == 4 && Swift.Set(cards).count == 4)
            if !Variant.ultra.isValid(cards) { wrong += 1 }
        }
        #expect(wrong > 20 && wrong < 110, "\(wrong) wrong of 500 at 12 %")
    }

    @Test(arguments: [Variant.junior, .chain, .ultra])
    func twoInstantBotsPlayAWholeDuelOfTheVariantAndTheSpectatorAgrees(variant: Variant) throws {
        let duel = try #require(try BotDuelTests().playInstantBotDuel(variant: variant))
        let (watched, tableChanges, truth, views) = (duel.watched, duel.tableChanges, duel.truth, duel.views)
        #expect(watched.variant == variant)
        // Instant bots race through a short game: the spectator, who joins once they play, sees part of it.
        #expect(tableChanges >= 1)
        #expect(watched.phase == .over)
        #expect(watched.result?.reason == .noSetsLeft)
        #expect(watched.deck == 0 && watched.combinations.isEmpty)
        #expect(watched.setsOnTable == 0)
        #expect(watched.players.map(\.score).reduce(0, +) > 0)
        if variant == .chain { #expect(watched.chain.count == 3, "the last set taken is still the chain") }
        // A refusal comes only from losing a race for a table: at most a claim and its picks for each
        // table, and a game changes its table at most twice for every three cards of its deck.
        #expect(duel.errorsReceived <= (variant.pickCount + 1) * (variant.cards.count / 3 * 2))
        #expect(views.count == 2)
        for view in views + [truth] {
            #expect(view.seq >= watched.seq && view.seq <= watched.seq + 3)
            #expect(view.table == watched.table && view.chain == watched.chain && view.variant == variant)
            #expect(view.players.map(\.score) == watched.players.map(\.score))
            #expect(view.result == watched.result && view.seed == watched.seed && view.phase == .over)
        }
        #expect(views[0].asPlayerSees == views[1].asPlayerSees)
    }
}
