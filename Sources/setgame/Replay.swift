import Glibc
import SetCLI
import SetRules
import SetServer
import SetWire

/// `setgame replay FILE`: a finished (or live) match, move by move, with the deal checked.
func replay(_ options: ReplayOptions) -> Int32 {
    let match: MatchReplay
    do { match = try MatchReplay.open(options.file) } catch {
        printError("setgame replay: \(error)")
        return 1
    }
    let variant = match.variant == .classic ? "" : " of \(match.variant.title)"
    writeOut("\(match.name): a \(match.mode.rawValue) match\(variant)")
    var names = ["player 1", "player 2"]
    var start: Int64?
    var previous: Int64?
    var allFair = true
    var misdealt: Set<Int> = []
    // Events are printed as the replay makes them: a long journal is never held in memory.
    do {
        try match.play { event in
            if options.speed > 0, let previous, event.time > previous {
                // Waits are capped so a long pause in the match does not stall the replay.
                usleep(UInt32(min(Double(event.time - previous) / options.speed, 3_000) * 1_000))
            }
            previous = event.time
            start = start ?? event.time
            let clock = String(format: "%8.1fs", Double(event.time - (start ?? 0)) / 1_000)
            if case .playerJoined(let seat, let name, _, _) = event.body { names[seat.rawValue] = name }
            if case .gameStarted(let game) = event.body, let record = match.games.first(where: { $0.number == game.game }) {
                if !record.deals(game.table) { misdealt.insert(game.game) }
                allFair = allFair && record.seedMatchesCommitment && record.deals(game.table)
            }
            guard let line = ReplayText.describe(event.body, names: names, variant: match.variant) else { return }
            writeOut("\(clock)  \(line)")
        }
    } catch {
        printError("setgame replay: \(error)")
        return 1
    }
    for game in match.games {
        writeOut("game \(game.number): seed \(game.seed) " + (game.seedMatchesCommitment
            ? "matches its commitment \(game.commitment.prefix(16))…: the deal was fixed before play"
            : "does NOT match its commitment \(game.commitment)")
            + (misdealt.contains(game.number) ? "; the table dealt is NOT the one this seed deals" : ""))
    }
    return allFair ? 0 : 2
}
