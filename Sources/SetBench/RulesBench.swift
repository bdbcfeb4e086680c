import SetBot
import SetNet
import SetRules
import SetWire

/// `setgame bench rules`: the pure rules, in operations per second.
package enum RulesBench {
    package struct Measurement: Sendable {
        package var name: String
        package var operations: Int
        package var seconds: Double
        package var perSecond: Double { Double(operations) / max(seconds, 1e-9) }
    }

    /// Times `body` over repeated batches for about `seconds`.
    static func measure(_ name: String, seconds: Double, batch: Int, _ body: () -> Int) -> Measurement {
        var operations = 0, checksum = 0
        let start = MonotonicTime.rawNanoseconds()
        var elapsed = 0.0
        while elapsed < seconds {
            for _ in 0..<batch { checksum &+= body() }
            operations += batch
            elapsed = Double(MonotonicTime.rawNanoseconds() - start) / 1e9
        }
        // The checksum keeps the optimiser from dropping the work.
        return Measurement(name: name + (checksum == Int.min ? " " : ""), operations: operations, seconds: elapsed)
    }

    package static func run(secondsEach: Double = 1) -> [Measurement] {
        var generator = SplitMix64(seed: 2026)
        let tables = [12, 21, 81].map { size in Array(Deck(seed: generator.next()).cards.prefix(size)) }
        var results = tables.map { table in
            measure("all sets on a \(table.count)-card table", seconds: secondsEach, batch: 1_000) { SetLogic.allSets(in: table).count }
        }
        results.append(measure("whole instant bot-vs-bot game", seconds: secondsEach, batch: 1) { playOneGame(seed: generator.next()) })
        return results
    }

    /// Two instant bot brains play a duel on the rules alone; returns how many events it took.
    static func playOneGame(seed: UInt64) -> Int {
        var match = Match(mode: .duel, seed: seed, at: .zero)
        var brains = [BotBrain(level: .instant, seat: .first, seed: seed), BotBrain(level: .instant, seat: .second, seed: seed &+ 1)]
        var events = 0, now = Instant.zero
        while !match.isOver && events < 10_000 {
            now = now.adding(100)
            let view = MatchView(match: "b", seq: 0, time: 0, mode: .duel, phase: .playing, game: 1, players: [], spectators: 0,
                                 table: match.table, deck: match.deck.count, selection: match.selection, selectionSeat: nil,
                                 window: match.window, shown: nil, tableChangedAt: 0, rules: match.settings, commitment: nil,
                                 result: nil, seed: nil, rematchAsked: [], setsOnTable: nil)
            var acted = false
            for index in brains.indices {
                brains[index].observe(view, at: now)
                for action in brains[index].due(at: now, view: view) {
                    events += match.apply(action, by: brains[index].seat, at: now).events.count
                    acted = true
                }
            }
            if !acted { events += match.advance(to: now.adding(60_000)).count }
        }
        return events
    }
}
