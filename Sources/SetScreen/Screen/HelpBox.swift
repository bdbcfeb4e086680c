import SetRules

/// The help box on `?`: a legend of the cards (the three shapes and three shadings as drawn at the
/// current card size, and what the colour letters mean) above the keys, the mouse and the command
/// that lets others watch. It picks the roomiest form that fits the table area, down to a compact
/// one for a 40×12 terminal; drawn shapes give way to glyphs only when no drawn size fits.
enum HelpBox {
    static func draw(_ state: ClientState, cardSize: CardSize?, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        let lines = lines(state, cardSize: cardSize, width: area.width - 4, rows: area.height - 2)
        Panel(title: "Help", lines: lines, border: theme.panel).draw(into: &buffer, centredIn: area)
    }

    /// The content of the box: the first arrangement that fits `width` × `rows`.
    static func lines(_ state: ClientState, cardSize: CardSize?, width: Int, rows: Int) -> [[Span]] {
        let theme = state.options.theme
        let compact = compactLegend(theme: theme)
        let colours = colourLine(theme: theme, width: width)
        let keys = Overlays.helpLines(state)
        // The keys without the mouse notes and the watch command that follow a blank line.
        let coreKeys = Array(keys.prefix { !$0.isEmpty })
        let shortKeys = compactKeys(state)
        let notes = Array(keys.dropFirst(coreKeys.count))
        // The mouse in one line and the watch command: what the tightest drawn form keeps.
        let mouse = state.isPlayer ? Array(notes.drop { $0.isEmpty }.prefix(1)) : []
        let watch = state.options.watchHint.map { Overlays.commandLines($0, .plain, width: width) } ?? []
        // A variant's paragraph goes with the card legend: what counts as a pick matters most.
        let variant = state.view.map { $0.variant == .classic ? [] : Overlays.legend($0.variant, width: width) + [[]] } ?? []
        func fits(_ lines: [[Span]]) -> Bool { lines.count <= rows && lines.map(\.width).max() ?? 0 <= width }
        let tightKeys = joinedKeys(shortKeys, width: width)
        let rule = Array(variant.dropLast())
        // The shapes as this table draws them, else as the largest smaller card draws them (a
        // game's last cards are large, and their legend would crowd out the keys); everything
        // at some drawn size first, then without the watch command, then without the colours.
        let tableSize = state.view?.table.isEmpty == false ? cardSize : CardGallery.cardSize(for: state.size)
        let legends = legendSizes(from: tableSize).map { drawnLegend(cardSize: $0, theme: theme) }
        let forms: [[([[Span]]) -> [[Span]]]] = [
            [{ $0 + [colours, []] + variant + keys },
             { $0 + [colours, []] + variant + shortKeys + notes },
             { $0 + [colours, []] + variant + shortKeys + mouse + watch },
             { $0 + [colours] + rule + tightKeys + mouse + watch }],
            [{ $0 + [colours] + rule + tightKeys + mouse }],
            [{ $0 + rule + tightKeys }],
        ]
        for pass in forms {
            for drawn in legends where !drawn.isEmpty {
                if let found = pass.map({ $0(drawn) }).first(where: fits) { return found }
            }
        }
        let candidates: [[[Span]]] = [
            compact + [colours, []] + variant + keys,
            compact + [colours, []] + variant + shortKeys + mouse + watch,
            compact + [colours, []] + variant + coreKeys,
            compact + [colours] + variant + shortKeys + mouse,
            compact + [colours] + variant + shortKeys,
            compact + variant + shortKeys,
            variant + shortKeys,
            shortKeys,
        ]
        return candidates.first(where: fits) ?? shortKeys
    }

    /// The card sizes whose drawing the legend may show, the table's own first (with no cards on
    /// the table, as after a game, the size a table of 12 has): cards that show glyphs get glyphs.
    static func legendSizes(from cardSize: CardSize?) -> [CardSize] {
        guard let cardSize else { return [] }
        return CardSize.all.filter { $0 <= cardSize }.reversed()
    }

    /// The shapes and shadings drawn as the cards draw them, a word under each; empty when the
    /// cards are too small for drawn symbols.
    static func drawnLegend(cardSize: CardSize?, theme: Theme) -> [[Span]] {
        guard let cardSize, CardArt.symbolCells(.oval, .solid, cardSize: cardSize) != nil else { return [] }
        let items: [(Shape, Shading, String)] = Shape.allCases.map { ($0, .solid, $0.singular) }
            + Shading.allCases.map { (.oval, $0, $0.word) }
        let art = items.map { CardArt.symbolCells($0.0, $0.1, cardSize: cardSize) ?? [] }
        let cell = TerminalSize(columns: art.map { $0.first?.count ?? 0 }.max() ?? 0, rows: art.map(\.count).max() ?? 0)
        let style = CellStyle(bold: true)
        var lines = [[Span]](repeating: [Span("")], count: cell.rows + 1)
        for (index, (_, _, word)) in items.enumerated() {
            let column = max(cell.columns, word.count) + 2
            // A bar between the shapes and the shadings.
            let separator = index == 3 ? "│ " : ""
            for row in 0..<cell.rows {
                let text = String(art[index][safe: row] ?? []).centred(in: column)
                lines[row].append(Span(separator, theme.quiet))
                lines[row].append(Span(text, style))
            }
            lines[cell.rows].append(Span(separator, theme.quiet))
            lines[cell.rows].append(Span(word.centred(in: column), theme.quiet))
        }
        return lines
    }

    /// The shapes and shadings as the smallest cards show them: one glyph each.
    static func compactLegend(theme: Theme) -> [[Span]] {
        var line: [Span] = []
        for shape in Shape.allCases {
            let glyphs = String(Shading.allCases.map { CardArt.compactGlyph(shape, $0) })
            line += [Span(glyphs, CellStyle(bold: true)), Span(" \(shape.singular)  ", theme.quiet)]
        }
        line[line.count - 1].text = String(line[line.count - 1].text.dropLast(2))
        return [line, [Span("each: solid, striped, open", theme.quiet)]]
    }

    /// What the colour letters on cards mean, in those colours when there are colours.
    static func colourLine(theme: Theme, width: Int) -> [Span] {
        var line: [Span] = []
        for colour in Colour.allCases {
            let ink = CellStyle(foreground: theme.ink(for: colour).foreground, bold: true)
            line += [Span(String(Theme.letter(for: colour)), ink), Span(" \(colour.word)  ", ink)]
        }
        let note = Span(theme.showsColourLetters ? "(the letter on each card)" : "(letters: --colorblind)", theme.quiet)
        return line.width + note.text.count <= width ? line + [note] : line
    }

    /// The short keys with the first two lines joined when `width` allows: one line saved.
    static func joinedKeys(_ keys: [[Span]], width: Int) -> [[Span]] {
        guard keys.count >= 2, keys[0].width + 2 + keys[1].width <= width else { return keys }
        return [keys[0] + [Span("  ")] + keys[1]] + keys.dropFirst(2)
    }

    /// The keys in four short lines, for small terminals.
    static func compactKeys(_ state: ClientState) -> [[Span]] {
        let key = CellStyle(bold: true)
        func line(_ pairs: [(String, String)]) -> [Span] {
            pairs.enumerated().flatMap { index, pair in [Span((index > 0 ? "  " : "") + pair.0, key), Span(" " + pair.1)] }
        }
        guard state.isPlayer else {
            return [line([("arrows", "look around")]), line([("/", "chat"), ("?", "help"), ("Esc", "close"), ("q", "quit")])]
        }
        let duel = state.options.mode == .duel
        return [
            line([(Overlays.labelSample(state), "touch that card")]),
            line([("arrows", "move"), ("space", "touch"), ("/", "chat")]),
            line((duel ? [("s", "Set!")] : []) + [("d", duel ? "deal 3" : "no set here?")] + (Overlays.offersHint(state) ? [("c", "hint")] : [])
                 + (duel ? [("p", "pass")] : [])),
            line([("r", duel ? "rematch" : "new game"), ("?", "help"), ("Esc", "close"), ("q", "quit")]),
        ]
    }
}

extension Array {
    /// Nil for an empty array, so `??` can supply another.
    var nonEmpty: Self? { isEmpty ? nil : self }
}

extension String {
    /// The string centred in `width` columns with spaces (never cut).
    func centred(in width: Int) -> String {
        let room = max(0, width - count)
        return String(repeating: " ", count: room / 2) + self + String(repeating: " ", count: room - room / 2)
    }
}
