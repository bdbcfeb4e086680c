import SetRules
import SetWire

/// Set-Chain: the set taken just before lies apart from the table, in the strip at the table's
/// right where the deck pile would stand, one card per table row. Its cards take labels like any
/// new card, so they are touched like any card; the deck count stays in the scoreboard.
enum ChainStrip {
    /// Where each chain card goes, or nil when the screen has no strip tall enough: beside the
    /// table's rows, or, once the table has fewer rows than the chain has cards (8 cards left in
    /// two rows), stacked in the strip, centred, with a blank row between where there is room.
    static func rects(layout: ScreenLayout, count: Int) -> [Rect]? {
        guard count > 0, let pile = layout.deckPile, let table = layout.table else { return nil }
        if table.rows >= count {
            return table.cardRects.prefix(count).map { Rect(column: pile.column, row: $0.row, width: pile.width, height: pile.height) }
        }
        let area = layout.tableArea
        let gap = count * pile.height + (count - 1) <= area.height ? 1 : 0
        let total = count * pile.height + (count - 1) * gap
        guard total <= area.height else { return nil }
        let top = area.row + (area.height - total) / 2
        return (0..<count).map { Rect(column: pile.column, row: top + $0 * (pile.height + gap), width: pile.width, height: pile.height) }
    }

    /// The chain cards to show: those of the view's chain that are not (still) on the table; none
    /// once the game is over, when no set can use them (bits of them showed around the result box).
    static func cards(_ view: MatchView) -> [Card] {
        guard view.phase != .over else { return [] }
        return view.chain.filter { !view.table.contains($0) }
    }

    /// Draws the chain apart, labelled after the table; when there is no strip, one line of names
    /// at the foot of the table area instead.
    static func draw(_ state: ClientState, view: MatchView, layout: ScreenLayout, into buffer: inout ScreenBuffer) {
        let chain = cards(view)
        guard !chain.isEmpty else { return }
        let theme = state.options.theme
        let selected = Swift.Set(state.shownSelection), opponent = Swift.Set(state.opponentSelection), hinted = Swift.Set(state.hint)
        guard let rects = rects(layout: layout, count: chain.count) else {
            // A hint that names a chain card marks it here, as a card's corner would.
            // Whole names where they fit, else each card's number, glyph and colour ("3◐ red"):
            // a line cut at the screen's edge lost the last card.
            let line = [false, true].lazy.map { short in
                chain.map { card in
                    let name = short ? "\(card.number.count)\(CardArt.compactGlyph(card.shape, card.shading)) \(card.colour.word)" : card.name
                    guard state.isPlayer, let label = state.labels.label(of: card) else { return name }
                    return "[\(label)]\(hinted.contains(card) ? "?" : "") \(name)"
                }.joined(separator: " · ")
            }.first { "chain: ".count + $0.displayWidth <= layout.tableArea.width } ?? ""
            buffer.writeCentred([Span("chain: ", CellStyle(bold: true)), Span(line)],
                                in: layout.tableArea, row: layout.tableArea.endRow - 1)
            return
        }
        for (card, rect) in zip(chain, rects) {
            let appearance: CardAppearance = selected.contains(card) ? .selected : opponent.contains(card) ? .opponentSelected
                : hinted.contains(card) ? .hinted : .normal
            let label = state.isPlayer ? state.labels.label(of: card) : nil
            CardArt.draw(card, in: rect, into: &buffer, appearance: appearance, theme: theme, label: label)
        }
        // On the first card's top border only where it leaves the label and the hint's mark
        // showing (corner, two-key label, caption, mark, corner); a narrow card has it above.
        let caption = " chain "
        if rects[0].width >= caption.count + 6 {
            buffer.writeCentred([Span(caption, CellStyle(bold: true, reverse: true))], in: rects[0], row: rects[0].row)
        } else if rects[0].row > layout.tableArea.row {
            buffer.writeCentred([Span("chain", CellStyle(bold: true, reverse: true))], in: rects[0], row: rects[0].row - 1)
        }
    }
}
