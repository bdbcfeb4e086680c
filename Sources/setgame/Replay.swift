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
    writeOut("\(match.name): a \(match.mode.rawValue) match")
    var names = ["player 1", "player 2"]
    var start: Int64?
    var previous: Int64?
    var allFair = true
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
            if case .playerJoined(let seat, let name) = event.body { names[seat.rawValue] = name }
            if case .gameStarted(let game) = event.body, let record = match.games.first(where: { $0.number == game.game }) {
                allFair = allFair && record.seedMatchesCommitment
            }
            guard let line = ReplayText.describe(event.body, names: names, games: match.games) else { return }
            writeOut("\(clock)  \(line)")
        }
    } catch {
        printError("setgame replay: \(error)")
        return 1
    }
    for game in match.games {
        writeOut("game \(game.number): seed \(game.seed) " + (game.seedMatchesCommitment
            ? "matches its commitment \(game.commitment.prefix(16))…: the deal was fixed before play"
            : "does NOT match its commitment \(game.commitment)"))
    }
    return allFair ? 0 : 2
}

/// Events in words, for the replay.
enum ReplayText {
    static func describe(_ body: EventBody, names: [String], games: [MatchReplay.Game]) -> String? {
        func who(_ seat: Seat) -> String { names[seat.rawValue] }
        func cards(_ list: [Card]) -> String { list.map(\.name).joined(separator: ", ") }
        switch body {
        case .playerJoined(let seat, let name): return "\(name) sits in seat \(seat.rawValue)"
        case .gameStarted(let start):
            return "game \(start.game) dealt: \(start.table.count) cards, \(start.deck) in the deck (commitment \(start.commitment.prefix(16))…)"
        case .gameOver(let result, let seed):
            let winner = result.winner.map { "\(who($0)) wins" } ?? (names.count > 1 && result.scores.count > 1 ? "a tie" : "done")
            return "game over (\(result.reason.rawValue)): \(result.scores.map(String.init).joined(separator: " – ")), \(winner); seed \(seed.map(String.init) ?? "?") revealed"
        case .presence, .spectators, .resumed: return nil
        case .rules(let event):
            switch event {
            case .selectionChanged: return nil
            case .windowOpened(let window):
                return "\(who(window.holder)) holds a \(window.kind.rawValue.replacingOccurrences(of: "_", with: " ")) window for \(window.deadline.milliseconds(since: window.opened)) ms"
            case .windowClosed(let window, let end): return end == .expired ? "\(who(window.holder))'s window ran out" : nil
            case .setTaken(let seat, let trio, let points, let score): return "\(who(seat)) took a set: \(cards(trio)) (+\(points), \(score))"
            case .notASet(let seat, let trio, let penalty, let score): return "\(who(seat)) picked a non-set: \(cards(trio)) (−\(penalty), \(score))"
            case .penalised(let seat, let reason, let points, let score): return "\(who(seat)) penalised, \(reason.rawValue.replacingOccurrences(of: "_", with: " ")) (−\(points), \(score))"
            case .tableChanged(let removed, let added, let table, let deck):
                return removed.isEmpty ? "3 more dealt: \(cards(added)); \(table.count) on the table, \(deck) in the deck"
                    : added.isEmpty ? "\(table.count) on the table, \(deck) in the deck" : "replaced by \(cards(added)); \(deck) in the deck"
            case .hintShown(let seat, let trio, let cost, _): return "\(who(seat)) asked for a hint: \(cards(trio)) (−\(cost))"
            case .matchEnded: return nil
            case .rematchRequested(let seat): return "\(who(seat)) asks for a rematch"
            case .rematchAgreed: return "rematch agreed"
            }
        }
    }
}
