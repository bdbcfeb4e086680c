import SetRules
import SetWire

/// Draws the whole screen from the client's state at an instant: a pure function, so every frame
/// can be tested by reading the buffer it returns.
public enum ScreenComposer {
    public static func compose(_ state: ClientState, layout: ScreenLayout, at now: Int64) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: state.size)
        guard state.size.columns >= 20, state.size.rows >= 6 else {
            buffer.write("setgame: too small", column: 0, row: 0)
            return buffer
        }
        let width = state.size.columns
        if state.isPicking {
            Overlays.picker(state, into: &buffer, area: layout.tableArea)
        } else if let view = state.view {
            if view.phase == .waiting {
                Overlays.waiting(state, view: view, into: &buffer, area: layout.tableArea)
            } else if layout.table == nil && !view.table.isEmpty {
                buffer.writeCentred([Span("Make the terminal larger to see the table (now \(width)×\(state.size.rows)).", CellStyle(bold: true))],
                                    in: layout.tableArea, row: layout.tableArea.row + layout.tableArea.height / 2)
            } else {
                drawTable(state, view: view, layout: layout, into: &buffer, at: now)
            }
            if view.phase == .over && !state.resultHidden && state.overlay == nil {
                Overlays.result(state, view: view, into: &buffer, area: layout.tableArea)
            }
        }
        // Cards flying in or out cross the edges of the table: the rows around it are drawn last,
        // over them, so the status and the buttons never show stray pieces of a card.
        buffer.fill(Rect(column: 0, row: 0, width: width, height: ScreenLayout.headerRows))
        buffer.fill(Rect(column: 0, row: layout.tableArea.endRow, width: width, height: state.size.rows - layout.tableArea.endRow))
        let board = StatusLines.scoreboard(state, at: now, width: width)
        buffer.write(board.left, column: 0, row: 0)
        buffer.write(board.right, column: max(board.left.width + 1, width - board.right.width), row: 0)
        let status = StatusLines.status(state, at: now)
        let end = buffer.write(status.main, column: 0, row: 1)
        var notice = status.notice
        // When both notices do not fit beside the main text, the newer one alone is shown.
        if end + 3 + notice.width > width, notice.count == 3 { notice = [notice[2]] }
        let room = width - 1 - (end + 3)
        if !notice.isEmpty, room >= 8 {
            if notice.width > room { notice = [Span(String(notice.map(\.text).joined().prefix(room - 1)) + "…", notice.last!.style)] }
            buffer.write(notice, column: width - 1 - notice.width, row: 1)
        }
        drawButtons(state, layout: layout, into: &buffer)
        if let overlay = state.overlay {
            Overlays.draw(overlay, state: state, into: &buffer, area: layout.tableArea)
        }
        return buffer
    }

    // MARK: Table

    static func drawTable(_ state: ClientState, view: MatchView, layout: ScreenLayout, into buffer: inout ScreenBuffer, at now: Int64) {
        let theme = state.options.theme
        let chain = ChainStrip.cards(view)
        // In Set-Chain the chain takes the pile's strip once there is one; the scoreboard keeps the count.
        if chain.isEmpty || ChainStrip.rects(layout: layout, count: chain.count) == nil, let pile = layout.deckPile, view.phase != .waiting {
            drawPile(count: view.deck, in: pile, theme: theme, into: &buffer)
        }
        ChainStrip.draw(state, view: view, layout: layout, into: &buffer)
        let labels = CardLabels(count: view.table.count + chain.count)
        var index: [Card: Int] = [:]
        for (i, card) in view.table.enumerated() { index[card] = i }
        let selected = Swift.Set(state.shownSelection), opponent = Swift.Set(state.opponentSelection)
        let hinted = Swift.Set(state.hint)
        let flash = state.flash.flatMap { $0.until > now ? $0 : nil }
        for sprite in state.motion.sprites(at: now) {
            let appearance: CardAppearance
            if sprite.faceDown {
                appearance = .faceDown
            } else if sprite.flourishing {
                appearance = .matched
            } else if let flash, flash.cards.contains(sprite.card) {
                appearance = flash.isSet ? .matched : .mismatched
            } else if sprite.leaving {
                appearance = .normal
            } else if let shown = view.shown, shown.cards.contains(sprite.card) {
                appearance = shown.isSet ? .matched : .mismatched
            } else if selected.contains(sprite.card) {
                appearance = .selected
            } else if opponent.contains(sprite.card) {
                appearance = .opponentSelected
            } else if hinted.contains(sprite.card) {
                appearance = .hinted
            } else {
                appearance = .normal
            }
            let label = sprite.leaving || !state.isPlayer ? nil : index[sprite.card].flatMap(labels.label(for:))
            CardArt.draw(sprite.card, in: sprite.rect, into: &buffer, appearance: appearance, theme: theme, label: label)
        }
        if state.cursorVisible, let rect = layout.table?.cardRects[safe: state.cursor] {
            let middle = rect.row + rect.height / 2
            buffer.put("▶", column: rect.column, row: middle, style: theme.cursor)
            buffer.put("◀", column: rect.endColumn - 1, row: middle, style: theme.cursor)
        }
    }

    /// The deck: a card back with the count on it, or an empty outline.
    static func drawPile(count: Int, in rect: Rect, theme: Theme, into buffer: inout ScreenBuffer) {
        let middle = rect.row + rect.height / 2
        guard count > 0 else {
            buffer.drawBox(rect, lines: .dashed, style: theme.quiet)
            buffer.writeCentred([Span("0", theme.quiet)], in: rect, row: middle)
            return
        }
        CardArt.draw(Card.all[0], in: rect, into: &buffer, appearance: .faceDown, theme: theme)
        buffer.writeCentred([Span(" \(count) ", CellStyle(bold: true, reverse: true))], in: rect, row: middle)
        if rect.height >= 6 { buffer.writeCentred([Span(" deck ", CellStyle(bold: true))], in: rect, row: rect.row + rect.height - 1) }
    }

    // MARK: Buttons

    static func drawButtons(_ state: ClientState, layout: ScreenLayout, into buffer: inout ScreenBuffer) {
        let theme = state.options.theme
        let showKeys = layout.buttonsShowKeys
        for (button, rect) in layout.buttons {
            let enabled = isEnabled(button, state)
            let base = enabled ? theme.button : theme.disabledButton
            var spans = [Span(" \(button.title) ", base)]
            if showKeys { spans += [Span(button.key, enabled ? theme.buttonKey : base), Span(" ", base)] }
            buffer.write(spans, column: rect.column, row: rect.row, limit: rect.endColumn)
        }
    }

    /// Whether a button would do something now; others are drawn greyed.
    static func isEnabled(_ button: ScreenButton, _ state: ClientState) -> Bool {
        guard let view = state.view, state.connection == .live else { return button == .help || button == .quit }
        let me = state.seat
        switch button {
        case .help, .quit: return true
        case .claim: return view.phase == .playing && view.window == nil && !state.claimPending
        case .deal:
            guard view.phase == .playing, view.deck > 0 || view.shown?.isSet == true else { return false }
            return view.window == nil || (view.window?.holder == me && view.window?.kind != .claim)
        case .hint:
            return view.phase == .playing && (view.mode == .solo || view.rules.hintsInDuel) && (view.window == nil || view.window?.holder == me)
        case .pass: return view.phase == .playing && view.window?.holder == me
        case .newGame: return true
        case .rematch: return view.phase == .over && !view.rematchAsked.contains { $0 == me }
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
