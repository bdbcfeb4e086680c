import SetRules
import SetWire

/// The boxes drawn over the table (help, alerts, the result) and the screens that replace it
/// (the spectator's match list, the wait for an opponent).
enum Overlays {
    static func draw(_ overlay: Overlay, state: ClientState, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        let key = CellStyle(bold: true)
        switch overlay {
        case .help:
            HelpBox.draw(state, cardSize: ClientApp.layout(for: state).table?.cardSize, into: &buffer, area: area)
        case .deckEmpty:
            Panel(title: "Deck empty", lines: [
                [Span("The deck is empty: there are no more cards to deal.")],
                [Span("Find a set among the cards on the table.")],
                [],
                [Span("Enter", key), Span(" or "), Span("Esc", key), Span(": OK")],
            ], border: theme.style(for: .bad)).draw(into: &buffer, centredIn: area)
        case .confirmQuit:
            Panel(title: "Leave the match?", lines: [
                [Span("Your seat is kept for a while: run the same command to come back.")],
                [],
                [Span("q", key), Span(" leave   "), Span("x", key), Span(" resign and leave   "), Span("Esc", key), Span(" stay")],
            ], border: theme.panel).draw(into: &buffer, centredIn: area)
        }
    }

    /// Every key, as the help overlay lists it; a spectator sees only theirs.
    static func helpLines(_ state: ClientState) -> [[Span]] {
        let key = CellStyle(bold: true)
        func row(_ keys: String, _ text: String) -> [Span] {
            [Span(keys.count >= 15 ? keys + "  " : keys.padding(toLength: 16), key), Span(text)]
        }
        var lines: [[Span]] = []
        if state.isPlayer {
            let labels = CardLabels(count: state.view?.table.count ?? 12)
            let sample = (0..<min(labels.count, 12)).compactMap(labels.label(for:)).joined(separator: " ")
            lines.append(row(labels.usesTwoKeys ? "11 … 99" : sample.isEmpty ? "1 2 3 …" : sample, "touch the card with that label"))
        }
        lines.append(row("← ↓ ↑ → / hjkl", state.isPlayer ? "move the cursor" : "look around"))
        if state.isPlayer {
            lines.append(row("space", "touch the card under the cursor"))
            if state.options.mode == .duel { lines.append(row("s or Enter", "call \"Set!\", then pick three cards")) }
            lines.append(row("d", "deal three more cards"))
            lines.append(row("c", "hint: show a set (costs points)"))
            if state.options.mode == .duel { lines.append(row("p", "pass your window")) }
            lines.append(row("r", state.options.mode == .duel ? "rematch, once the game is over" : "new game"))
        }
        lines.append(row("?", "this help"))
        lines.append(row("Esc", "close a box, or put the result away"))
        lines.append(row("q  Ctrl-C", "quit"))
        if state.isPlayer {
            lines.append([])
            lines.append([Span("Mouse: click a card to touch it, a button to use it.")])
            if state.options.mode == .duel {
                lines.append([Span("Touching a card when nobody holds the table calls \"Set!\" for you.")])
            }
        }
        return lines
    }

    /// The end of a game: scores, winner, the revealed seed checked against its commitment.
    static func result(_ state: ClientState, view: MatchView, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        let key = CellStyle(bold: true)
        var lines: [[Span]] = []
        if let result = view.result {
            lines.append([Span(resultHeadline(state, view: view, result: result), CellStyle(bold: true))])
            let scores = view.players.map { "\($0.name) \($0.score)" }.joined(separator: "   ")
            lines.append([Span(scores)])
            let reason = switch result.reason {
            case .noSetsLeft: "the deck is empty and no set is left"
            case .resigned: "\(result.by.map(state.name(of:)) ?? "a player") resigned"
            case .forfeited: "\(result.by.map(state.name(of:)) ?? "a player") stayed away too long"
            }
            lines.append([Span(reason, theme.quiet)])
        }
        if let seed = view.seed {
            var line = [Span("seed \(seed) ", theme.quiet)]
            if let commitment = view.commitment {
                let fair = SeedCommitment.verify(seed: seed, against: commitment)
                line.append(fair ? Span("✓ matches the promised deal", theme.style(for: .good))
                                 : Span("✗ does NOT match the promised deal", theme.style(for: .bad)))
            }
            lines.append(line)
        }
        lines.append([])
        if state.isPlayer {
            var keys = [Span("r", key), Span(view.mode == .solo ? " new game   " : " rematch   ")]
            if let other = state.seat?.other, view.rematchAsked.contains(other) {
                keys.insert(Span("\(state.name(of: other)) asked for a rematch · ", theme.style(for: .good)), at: 0)
            } else if let me = state.seat, view.rematchAsked.contains(me) {
                keys = [Span("waiting for \(state.name(of: me.other)) · ", theme.quiet)]
            }
            lines.append(keys + [Span("q", key), Span(" quit   "), Span("Esc", key), Span(" see the table")])
        } else {
            lines.append([Span("q", key), Span(" quit   "), Span("Esc", key), Span(" see the table")])
        }
        Panel(title: "Game over", lines: lines, border: theme.panel).draw(into: &buffer, centredIn: area)
    }

    static func resultHeadline(_ state: ClientState, view: MatchView, result: MatchResult) -> String {
        if view.mode == .solo { return "You scored \(result.scores.first ?? 0)" }
        guard let winner = result.winner else { return "A tie!" }
        if state.isPlayer && winner == state.seat { return "You win!" }
        return "\(state.name(of: winner)) wins"
    }

    /// A spectator's list of live matches.
    static func picker(_ state: ClientState, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        buffer.write([Span(" Live matches on \(state.options.serverAddress)", CellStyle(bold: true))], column: 1, row: area.row)
        guard let listings = state.listings else {
            buffer.write([Span(" Asking the server…", theme.quiet)], column: 1, row: InputMapper.pickerFirstRow)
            return
        }
        guard !listings.isEmpty else {
            buffer.write([Span(" No live matches yet: the list refreshes every 2 s.", theme.quiet)], column: 1, row: InputMapper.pickerFirstRow)
            return
        }
        for (index, listing) in listings.enumerated() {
            let row = InputMapper.pickerFirstRow + index
            guard row < area.endRow else { break }
            let players = listing.players.map { "\($0.name) \($0.score)" }.joined(separator: " vs ")
            let watchers = listing.spectators > 0 ? "  \(listing.spectators) watching" : ""
            let text = " \(index < 9 ? String(index + 1) : " ")  \(listing.name.padding(toLength: 14)) \(listing.mode.rawValue.padding(toLength: 5)) \(listing.phase.rawValue.padding(toLength: 8)) \(players)\(watchers) "
            let style = index == state.pickerIndex ? theme.highlight : CellStyle.plain
            buffer.write([Span(text, style)], column: 1, row: row)
        }
    }

    /// The wait for a second player, with the lines the CLI gave us (how a friend can join).
    static func waiting(_ state: ClientState, view: MatchView, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        var lines: [[Span]] = [[Span("Waiting for an opponent…", CellStyle(bold: true))], []]
        lines.append([Span("A friend can join with:  ", theme.quiet), Span("setgame join \(state.options.serverAddress) --match \(view.match)")])
        for line in state.options.banner { lines.append([Span(line, theme.quiet)]) }
        let top = area.row + max(0, (area.height - lines.count) / 2)
        for (index, line) in lines.enumerated() { buffer.writeCentred(line, in: area, row: top + index) }
    }
}

extension String {
    /// The string cut or padded with spaces to exactly `length` characters.
    func padding(toLength length: Int) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: " ", count: length - count)
    }
}
