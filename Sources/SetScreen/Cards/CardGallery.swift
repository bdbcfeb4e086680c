import SetRules

/// `setgame cards`: all 81 cards drawn as a table of 12 draws them in a terminal of a given size,
/// for players learning the symbols and for reviewing the art.
package enum CardGallery {
    /// The buttons of a duel in play: the bottom row the real screen has.
    static let duelButtons: [ScreenButton] = [.claim, .deal, .hint, .pass, .help, .quit]

    /// The card size of a table of 12 in a terminal of `terminal`, laid out as the game does.
    static func cardSize(for terminal: TerminalSize) -> CardSize? {
        ScreenLayout(size: terminal, cardCount: 12, buttons: duelButtons, deck: true).table?.cardSize
    }

    /// The cards in gallery order: colour, then shape, then shading, then number, so each row of
    /// nine (where it fits) is one colour and shape.
    static let order: [Card] = Colour.allCases.flatMap { colour in
        Shape.allCases.flatMap { shape in
            Shading.allCases.flatMap { shading in Number.allCases.map { Card($0, shading, colour, shape) } }
        }
    }

    /// The gallery as text to print, with the theme's colours when `styled`; nil when a table of
    /// 12 does not fit `terminal`.
    package static func text(terminal: TerminalSize, theme: Theme, styled: Bool) -> String? {
        render(terminal: terminal, theme: theme)?.text(styled: styled && theme.usesColor)
    }

    /// The gallery `terminal.columns` wide, or nil when a table of 12 does not fit that terminal.
    static func render(terminal: TerminalSize, theme: Theme) -> ScreenBuffer? {
        guard let size = cardSize(for: terminal) else { return nil }
        let width = max(size.width, terminal.columns)
        let perRow = max(1, min(9, (width + 1) / (size.width + 1)))
        let cardRows = (order.count + perRow - 1) / perRow
        let heading = headingLines(terminal: terminal, size: size)
        var buffer = ScreenBuffer(size: TerminalSize(columns: width, rows: heading.count + 1 + cardRows * (size.height + 1)))
        for (index, line) in heading.enumerated() { buffer.write(line, column: 0, row: index) }
        for (index, card) in order.enumerated() {
            let rect = Rect(column: index % perRow * (size.width + 1), row: heading.count + 1 + index / perRow * (size.height + 1),
                            width: size.width, height: size.height)
            CardArt.draw(card, in: rect, into: &buffer, theme: theme)
        }
        return buffer
    }

    static func headingLines(terminal: TerminalSize, size: CardSize) -> [String] {
        let interior = TerminalSize(columns: size.width - 2, rows: size.height - 2)
        let art: String
        switch SymbolTier.forInterior(interior) {
        case .compact: art = "one glyph per symbol"
        case .drawn(let width, let height, _): art = "symbols drawn \(width)×\(height) pixels (\((width + 1) / 2)×\((height + 1) / 2) cells)"
        }
        return ["All 81 cards as a table of 12 draws them",
                "in a \(terminal.columns)×\(terminal.rows) terminal: cards of \(size.width)×\(size.height) cells,",
                "\(art).",
                "In order: " + Colour.allCases.map(\.word).joined(separator: ", ") + ";",
                "  " + Shape.allCases.map(\.plural).joined(separator: ", ") + ";",
                "  " + Shading.allCases.map(\.word).joined(separator: ", ") + "; one, two, three."]
    }
}

extension ScreenBuffer {
    /// The grid as terminal output: SGR styles where they change, a reset at each line's end.
    /// Without colour (`styled` false) only the characters, trailing spaces trimmed.
    func text(styled: Bool) -> String {
        var out = ""
        for row in 0..<size.rows {
            var line = ""
            var current = CellStyle.plain
            for column in 0..<size.columns {
                let cell = self[column, row]
                if styled && cell.style != current {
                    line += cell.style.sgr
                    current = cell.style
                }
                line.append(cell.character)
            }
            if styled && current != .plain { line += CellStyle.plain.sgr }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
