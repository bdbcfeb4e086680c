import SetRules
import SetWire

/// Draws the whole screen from the client's state at an instant: a pure function, so every frame
/// can be tested by reading the buffer it returns.
enum ScreenComposer {
    static func compose(_ state: ClientState, layout: ScreenLayout, at now: Int64) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: state.size)
        guard state.size.columns >= ScreenLayout.smallest.columns, state.size.rows >= ScreenLayout.smallest.rows else {
            let least = ScreenLayout.minimumSize(cardCount: max(12, state.view?.table.count ?? 12), columns: state.size.columns)
            let text = "setgame: too small (\(state.size.columns)×\(state.size.rows)); make the terminal at least \(least.columns)×\(least.rows)"
            for (row, line) in Notice.wrap(text, width: state.size.columns).enumerated() { buffer.write(line, column: 0, row: row) }
            return buffer
        }
        let width = state.size.columns
        if state.isPicking {
            Overlays.picker(state, into: &buffer, area: layout.tableArea)
        } else if let view = state.view {
            if view.phase == .waiting {
                Overlays.waiting(state, view: view, into: &buffer, area: layout.tableArea)
            } else if layout.table == nil && !view.table.isEmpty {
                let least = ScreenLayout.minimumSize(cardCount: view.table.count, columns: width)
                let text = "Make the terminal at least \(least.columns)×\(least.rows) to see the \(view.table.count) cards (now \(width)×\(state.size.rows))."
                let lines = Notice.wrap(text, width: layout.tableArea.width - 2)
                let top = layout.tableArea.row + max(0, (layout.tableArea.height - lines.count) / 2)
                for (index, line) in lines.enumerated() {
                    buffer.writeCentred([Span(line, CellStyle(bold: true))], in: layout.tableArea, row: top + index)
                }
            } else if !hidesTable(state, view: view) {
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
        let holder = state.view?.window.map { state.who($0.holder) }
        let row = Notice.fitStatusRow(main: status.main, notice: status.notice, width: width, who: holder)
        buffer.write(row.main, column: 0, row: 1)
        buffer.write(row.notice, column: row.noticeColumn, row: 1)
        drawButtons(state, layout: layout, into: &buffer)
        ChatStrip.draw(state, layout: layout, into: &buffer, at: now)
        if state.awaitingStart && state.isPlayer && state.overlay == nil && state.view != nil {
            Overlays.start(state, into: &buffer, area: layout.tableArea)
        }
        if let overlay = state.overlay {
            Overlays.draw(overlay, state: state, into: &buffer, area: layout.tableArea)
        }
        return buffer
    }

    // MARK: Table

    /// While a bot beside us waits for the player (help or the leave box open, a kept game's
    /// start box), the cards are not shown: a pause is for reading, not for looking for a set
    /// with every clock stopped around the box.
    static func hidesTable(_ state: ClientState, view: MatchView) -> Bool {
        guard state.options.holdsBot, state.isPlayer, view.phase == .playing else { return false }
        return ClientApp.holdsLocalBot(state.overlay) || (state.awaitingStart && state.overlay == nil)
    }

    static func drawTable(_ state: ClientState, view: MatchView, layout: ScreenLayout, into buffer: inout ScreenBuffer, at now: Int64) {
        let theme = state.options.theme
        let chain = ChainStrip.cards(view)
        // In Set-Chain the chain takes the pile's strip once there is one; the scoreboard keeps the count.
        if chain.isEmpty || ChainStrip.rects(layout: layout, count: chain.count) == nil, let pile = layout.deckPile, view.phase != .waiting {
            drawPile(count: view.deck, in: pile, theme: theme, into: &buffer)
        }
        ChainStrip.draw(state, view: view, layout: layout, into: &buffer)
        let onTable = Swift.Set(view.table)
        let selected = Swift.Set(state.shownSelection), opponent = Swift.Set(state.opponentSelection)
        let hinted = Swift.Set(state.hint)
        let flash = state.flash.flatMap { $0.until > now ? $0 : nil }
        for sprite in state.motion.sprites(at: now) {
            let appearance: CardAppearance
            if sprite.faceDown {
                appearance = .faceDown
            } else if sprite.flourishing || sprite.flying {
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
            let label = sprite.leaving || !state.isPlayer ? nil : onTable.contains(sprite.card) ? state.labels.label(of: sprite.card) : nil
            CardArt.draw(sprite.card, in: sprite.rect, into: &buffer, appearance: appearance, theme: theme, label: label)
            if sprite.flourishing { celebrate(sprite.rect, word: view.variant.pickWord, theme: theme, at: now, into: &buffer) }
        }
        if state.cursorVisible, let rect = layout.table?.cardRects[safe: state.cursor] {
            drawCursor(around: rect, theme: theme, into: &buffer)
        }
    }

    /// The keyboard cursor: the card's whole frame in reverse video (a bar of colour, or of
    /// white without colour), with pointers in the middle of its sides, plain at every size.
    static func drawCursor(around rect: Rect, theme: Theme, into buffer: inout ScreenBuffer) {
        let style = theme.cursorFrame
        for column in rect.column..<rect.endColumn {
            for row in [rect.row, rect.endRow - 1] { buffer[column, row] = Cell(buffer[column, row].character, style: style) }
        }
        for row in rect.row..<rect.endRow {
            for column in [rect.column, rect.endColumn - 1] { buffer[column, row] = Cell(buffer[column, row].character, style: style) }
        }
        let middle = rect.row + rect.height / 2
        buffer.put("▶", column: rect.column, row: middle, style: style)
        buffer.put("◀", column: rect.endColumn - 1, row: middle, style: style)
    }

    /// A taken pick's moment: the variant's word ("SET!", "ULTRA!") on each card's bottom border
    /// and blinking sparkles at its corners, before the cards fly to the taker's score.
    static func celebrate(_ rect: Rect, word pickWord: String, theme: Theme, at now: Int64, into buffer: inout ScreenBuffer) {
        let style = theme.borderStyle(for: .matched)
        let shout = pickWord.uppercased() + "!"
        // Padded where the border has room, bare where it is tight, and never over the corners.
        let word = rect.width >= shout.count + 6 ? " \(shout) " : rect.width >= shout.count + 2 ? shout : ""
        if !word.isEmpty {
            buffer.write(word, column: rect.column + (rect.width - word.count) / 2, row: rect.endRow - 1, style: style)
        }
        let sparkle: Character = Motion.sparkles(at: now) ? "✦" : "✧"
        for (column, row) in [(rect.column - 1, rect.row), (rect.endColumn, rect.row),
                              (rect.column - 1, rect.endRow - 1), (rect.endColumn, rect.endRow - 1)]
            where buffer[column, row].character == " " {
            buffer.put(sparkle, column: column, row: row, style: style)
        }
    }

    /// Where a seat's score stands on the scoreboard, as a small card just above the screen: a
    /// taken set flies there and disappears behind the score.
    static func scoreTarget(of seat: Seat, state: ClientState) -> Rect? {
        guard let view = state.view else { return nil }
        var seats = view.players.map(\.seat)
        if state.isPlayer, let me = state.seat, let index = seats.firstIndex(of: me) { seats.insert(seats.remove(at: index), at: 0) }
        guard let order = seats.firstIndex(of: seat) else { return nil }
        let spans = StatusLines.scoreboard(state, at: 0, width: state.size.columns).left
        // Each player is a presence dot, the name, an account's rating, a space, then the score.
        let before = view.player(seat)?.rating == nil ? 2 : 3
        var column = 0, players = 0
        for (index, span) in spans.enumerated() {
            if span.text == "●" || span.text == "○", index + before < spans.count {
                if players == order {
                    let score = column + 1 + spans[(index + 1)...(index + before)].map(\.text.displayWidth).reduce(0, +)
                    let card = CardSize(height: CardSize.minimumHeight)
                    return Rect(column: score - card.width / 2, row: -card.height + 1, width: card.width, height: card.height)
                }
                players += 1
            }
            column += span.text.displayWidth
        }
        return nil
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
        // The count stays inside the border: padded when there is room, bare on the smallest pile.
        let inside = rect.insetBy(1), number = "\(count)"
        let text = number.count + 2 <= inside.width ? " \(number) " : number
        if text.count <= inside.width {
            buffer.writeCentred([Span(text, CellStyle(bold: true, reverse: true))], in: inside, row: middle)
        }
        if rect.height >= 6 { buffer.writeCentred([Span(" deck ", CellStyle(bold: true))], in: rect, row: rect.row + rect.height - 1) }
    }

    // MARK: Buttons

    static func drawButtons(_ state: ClientState, layout: ScreenLayout, into buffer: inout ScreenBuffer) {
        let theme = state.options.theme
        for (button, rect) in layout.buttons {
            let enabled = isEnabled(button, state)
            let base = enabled ? theme.button : theme.disabledButton
            let key = Span(button.key, enabled ? theme.buttonKey : base)
            let spans = switch layout.buttonForm {
            case .full: [Span(" \(button.title) ", base), key, Span(" ", base)]
            case .short: [key, Span(" \(ScreenLayout.shortTitle(of: button))", base)]
            case .key: [Span(" ", base), key, Span(" ", base)]
            }
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
        case .deal, .noSet:
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
