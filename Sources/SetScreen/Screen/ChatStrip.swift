import SetWire

/// The chat on screen, never over a card: the last few lines in the strip the layout keeps under
/// the table when that costs the cards nothing (`ScreenLayout.chatStrip`); with none (80×24 gives
/// every row to the cards) it folds to the newest line beside the buttons, for a few seconds.
/// The open chat input takes the button row.
enum ChatStrip {
    /// The most lines the strip shows.
    static let mostLines = 3
    /// How long the folded strip shows the newest line.
    static let foldedMs: Int64 = 10_000
    /// The fewest columns worth a folded line beside the buttons.
    static let foldedColumns = 16

    static func draw(_ state: ClientState, layout: ScreenLayout, into buffer: inout ScreenBuffer, at now: Int64) {
        let width = state.size.columns
        let buttonRow = state.size.rows - 1
        if let draft = state.chatDraft {
            let prompt = Span(state.isPlayer ? "say to all: " : "say to spectators: ", CellStyle(bold: true))
            // The end of a long line stays in view as it is typed.
            let room = max(1, width - prompt.text.count - 1)
            var shown = draft
            while DisplayWidth.of(shown) > room { shown.removeFirst() }
            buffer.fill(Rect(column: 0, row: buttonRow, width: width, height: 1))
            buffer.write([prompt, Span(shown), Span("█", state.options.theme.quiet)], column: 0, row: buttonRow, limit: width)
            return
        }
        guard state.view != nil, !state.isPicking else { return }
        let lines = state.session.chat.shown
        guard let newest = lines.last else { return }
        if let strip = layout.chatStrip {
            let count = min(strip.height, lines.count)
            for (index, line) in lines.suffix(count).enumerated() {
                let row = strip.endRow - count + index
                buffer.fill(Rect(column: 0, row: row, width: width, height: 1))
                buffer.write(spans(line, state: state), column: 1, row: row, limit: width - 1)
            }
            return
        }
        guard let heard = state.chatHeardAt, now - heard < foldedMs else { return }
        let start = (layout.buttons.last?.rect.endColumn ?? 0) + 2
        guard width - start >= foldedColumns else { return }
        buffer.write(spans(newest, state: state), column: start, row: buttonRow, limit: width - 1)
    }

    /// "ann: gg", a spectator's line quieter and marked with its room.
    static func spans(_ line: ChatLine, state: ClientState) -> [Span] {
        let theme = state.options.theme
        let name = ServerText.printable(line.name)
        let text = ServerText.printable(line.text)
        switch line.room {
        case .players: return [Span(name + ": ", CellStyle(bold: true)), Span(text)]
        case .spectators: return [Span("(" + name + ") ", theme.quiet), Span(text, theme.quiet)]
        }
    }
}
