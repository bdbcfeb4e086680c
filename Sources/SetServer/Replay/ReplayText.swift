import SetRules
import SetWire

/// A journal's events in words, for `setgame replay`.
package enum ReplayText {
    /// One line for a person, or nil for events a replay leaves out (presence, selections).
    /// `names` are the players' names by seat, as far as the replay has seen them join.
    package static func describe(_ body: EventBody, names: [String], variant: Variant = .classic) -> String? {
        func who(_ seat: Seat) -> String { names.indices.contains(seat.rawValue) ? names[seat.rawValue] : "player \(seat.rawValue + 1)" }
        func cards(_ list: [Card]) -> String { list.map(\.name).joined(separator: ", ") }
        // Scores and penalties share one minus sign (U+2212): "(−10, −10)", never "(−10, -10)".
        func signed(_ score: Int) -> String { score < 0 ? "−\(-score)" : "\(score)" }
        switch body {
        case .playerJoined(let seat, let name, _, _): return "\(name) sits in seat \(seat.rawValue)"
        case .gameStarted(let start):
            return "game \(start.game) dealt: \(start.table.count) cards, \(start.deck) in the deck (commitment \(start.commitment.prefix(16))…)"
        case .gameOver(let result, let seed, _):
            let winner = result.winner.map { "\(who($0)) wins" } ?? (names.count > 1 && result.scores.count > 1 ? "a tie" : "done")
            return "game over (\(result.reason.rawValue)): \(result.scores.map(signed).joined(separator: " – ")), \(winner); seed \(seed.map(String.init) ?? "?") revealed"
        case .presence, .spectators, .resumed: return nil
        case .rules(let event):
            switch event {
            case .selectionChanged: return nil
            case .windowOpened(let window):
                return "\(who(window.holder)) holds a \(window.kind.rawValue.replacingOccurrences(of: "_", with: " ")) window for \(window.deadline.milliseconds(since: window.opened)) ms"
            case .windowClosed(let window, let end): return end == .expired ? "\(who(window.holder))'s window ran out" : nil
            case .setTaken(let seat, let trio, let points, let score):
                return "\(who(seat)) took \(variant.aPick): \(cards(trio)) (+\(points), \(signed(score)))"
            case .notASet(let seat, let trio, let penalty, let score):
                return "\(who(seat)) picked \(cards(trio)), not \(variant.aPick) (−\(penalty), \(signed(score)))"
            case .penalised(let seat, let reason, let points, let score): return "\(who(seat)) penalised, \(reason.rawValue.replacingOccurrences(of: "_", with: " ")) (−\(points), \(signed(score)))"
            case .tableChanged(let removed, let added, let table, let deck):
                return removed.isEmpty ? "\(added.count) more dealt: \(cards(added)); \(table.count) on the table, \(deck) in the deck"
                    : added.isEmpty ? "\(table.count) on the table, \(deck) in the deck" : "replaced by \(cards(added)); \(deck) in the deck"
            case .hintShown(let seat, let trio, let cost, _): return "\(who(seat)) asked for a hint: \(cards(trio)) (−\(cost))"
            case .matchEnded: return nil
            case .rematchRequested(let seat): return "\(who(seat)) asks for a rematch"
            case .rematchAgreed: return "rematch agreed"
            }
        }
    }

    /// A chat line as `setgame replay` prints it: `ann (players): gg`, `eve (spectators): nice`.
    package static func describe(_ line: ChatLine) -> String {
        "\(ServerText.printable(line.name)) (\(line.room.rawValue)): \(ServerText.printable(line.text))"
    }

    /// Why a claim race under lag compensation went as it did, in the figures the server used.
    static func describe(_ race: RaceDecision, names: [String]) -> String {
        func who(_ seat: Seat) -> String { names.indices.contains(seat.rawValue) ? names[seat.rawValue] : "player \(seat.rawValue + 1)" }
        func claim(_ entry: RaceEntry) -> String {
            "arrived at \(entry.arrivedAt.milliseconds) ms, credited \(entry.creditMs) ms, sent ≈ \(entry.sentAt.milliseconds) ms"
        }
        var text = "claim race (cap \(race.capMs) ms): \(who(race.winner.seat)) wins, \(claim(race.winner))"
        if let loser = race.loser, let margin = race.marginMs {
            text += "; \(who(loser.seat)) \(claim(loser)), \(margin) ms later"
        }
        return text
    }
}
