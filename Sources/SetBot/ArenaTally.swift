import SetClient
import SetRules
import SetWire

/// What a run of arena bots measured (issue 44's goals), apart from any socket: how long each
/// bot waited, after one of its duels ended, for its next pairing; and whether the standings every
/// bot was shown agree (two bots shown a state with as many players and games counted were shown
/// the same table, since an arena takes its joins and counts its games one at a time, in one order).
package struct ArenaTally: Sendable, Equatable {
    /// Each wait from a duel's end (its `game_over`) to the bot's next `arena_pairing`, in ms.
    package private(set) var pairingWaitsMs: [Int64] = []
    /// The standings shown, by the players in them and the games counted in them (the arena's
    /// joins and counts come in one order, so these say where in it a state was): rank, name, points.
    private var tables: [Pair: [String]] = [:]
    private struct Pair: Hashable, Sendable { var players: Int, games: Int }
    /// States shown whose table differed from another bot's with as many games counted.
    package private(set) var disagreements = 0
    /// Standings states heard, all bots together.
    package private(set) var statesSeen = 0
    /// When each bot's last duel ended, while it waits for its next pairing.
    private var freeSince: [String: Instant] = [:]

    package init() {}

    /// Takes in what `bot` heard from its arena at `now`.
    package mutating func heard(_ heard: ArenaHeard, by bot: String, at now: Instant) {
        switch heard {
        case .duelOver:
            freeSince[bot] = now
        case .paired:
            if let since = freeSince.removeValue(forKey: bot) { pairingWaitsMs.append(now.milliseconds(since: since)) }
        case .state(let state):
            statesSeen += 1
            let counted = Pair(players: state.standings.count, games: state.standings.map(\.games).reduce(0, +))
            let table = state.standings.map { "\($0.rank) \($0.name) \($0.score) \($0.games) \($0.wins) \($0.streak)" }
            if let known = tables[counted] {
                if known != table { disagreements += 1 }
            } else {
                tables[counted] = table
            }
        case .listed, .results:
            break
        }
    }

    /// The wait below which `fraction` of the pairing waits fall (nearest rank); 0 with none.
    package func pairingWaitMs(at fraction: Double) -> Int64 {
        let sorted = pairingWaitsMs.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[max(0, min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
    }

    /// One line for people and for the benchmark's script.
    package var summary: String {
        "pairing after a game: \(pairingWaitsMs.count) waits, p50 \(pairingWaitMs(at: 0.5)) ms, p99 \(pairingWaitMs(at: 0.99)) ms, "
            + "max \(pairingWaitsMs.max() ?? 0) ms; standings shown: \(statesSeen) states, \(disagreements) disagreeing"
    }
}
