import SetWire

/// The chat on screen, never over a card: the last few lines in the strip the layout keeps under
/// the table when that costs the cards nothing (`ScreenLayout.chatStrip`); with none (80×24 gives
/// every row to the cards) it folds to the newest line beside the buttons, for a few seconds.
/// The open chat input takes the button row; ↑ there shows the last lines over the table above
/// it, so what scrolled by (or never showed at 80×24) can be read again, and ↓ or Esc puts them
/// away. A line cut at the edge ends in "…".
enum ChatStrip {
    /// The most lines the strip shows.
    static let mostLines = 3
    /// The most lines the open chat shows above its input.
    static let historyLines = 8
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
            let end = buffer.write([prompt, Span(shown), Span("█", state.options.theme.quiet)], column: 0, row: buttonRow, limit: width)
            if state.chatHistoryShown {
                drawHistory(state, above: buttonRow, width: width, into: &buffer)
            } else if !state.session.chat.shown.isEmpty {
                // Where the last lines are, on the right while the line is short enough.
                let hint = Span("↑ last lines ", state.options.theme.quiet)
                if end + 2 + hint.text.displayWidth <= width { buffer.write([hint], column: width - hint.text.displayWidth, row: buttonRow) }
            }
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
                buffer.write(cut(spans(line, state: state), to: width - 2), column: 1, row: row, limit: width - 1)
            }
            return
        }
        guard let heard = state.chatHeardAt, now - heard < foldedMs else { return }
        let start = (layout.buttons.last?.rect.endColumn ?? 0) + 2
        guard width - start >= foldedColumns else { return }
        buffer.write(cut(spans(newest, state: state), to: width - 1 - start), column: start, row: buttonRow, limit: width - 1)
    }

    /// The last lines over the table, above the open input, newest at the bottom, under a rule
    /// that says how to leave: as many as fit below the status rows, up to `historyLines`.
    static func drawHistory(_ state: ClientState, above inputRow: Int, width: Int, into buffer: inout ScreenBuffer) {
        let theme = state.options.theme
        let lines = state.session.chat.shown
        let room = inputRow - ScreenLayout.headerRows - 1
        let count = min(historyLines, lines.count, max(0, room))
        let top = inputRow - count - 1
        guard top >= ScreenLayout.headerRows, width >= foldedColumns else { return }
        let title = lines.isEmpty ? " chat: nothing said yet · ↓ hides " : " chat, newest last · ↓ hides "
        buffer.fill(Rect(column: 0, row: top, width: width, height: count + 1))
        buffer.write(cut([Span(String(repeating: "─", count: 2), theme.quiet), Span(title, theme.quiet)], to: width), column: 0, row: top)
        buffer.write([Span(String(repeating: "─", count: max(0, width - 2 - title.displayWidth)), theme.quiet)],
                     column: 2 + title.displayWidth, row: top)
        for (index, line) in lines.suffix(count).enumerated() {
            buffer.write(cut(spans(line, state: state), to: width - 2), column: 1, row: top + 1 + index, limit: width - 1)
        }
    }

    /// The spans cut to `width` cells, the last one ending in "…" when anything was left out.
    static func cut(_ spans: [Span], to width: Int) -> [Span] {
        guard spans.width > width else { return spans }
        guard width > 0 else { return [] }
        var kept: [Span] = [], used = 0
        for span in spans {
            let room = width - 1 - used
            if span.text.displayWidth <= room {
                kept.append(span)
                used += span.text.displayWidth
                continue
            }
            let part = DisplayWidth.prefix(span.text, cells: max(0, room))
            kept.append(Span(part + "…", span.style))
            return kept
        }
        return kept
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
