import SetRules

/// `setgame cards`: all 81 cards drawn as a table of 12 draws them in a terminal of a given size,
/// laid out as a legend: each row one colour and number, across it the shapes and shadings, with
/// their names above the columns and the colour and number beside the row.
package enum CardGallery {
    /// The buttons of a duel in play: the bottom row the real screen has.
    static let duelButtons: [ScreenButton] = [.claim, .deal, .hint, .pass, .help, .quit]

    /// The card size of a table of 12 in a terminal of `terminal`, laid out as the game does.
    static func cardSize(for terminal: TerminalSize) -> CardSize? {
        ScreenLayout(size: terminal, cardCount: 12, buttons: duelButtons, deck: true).table?.cardSize
    }

    /// The cards in gallery order: colour, then number, then shape, then shading, so a row of nine
    /// is one colour and number with every shape in every shading, and a row of three (when nine
    /// do not fit) one shape in its three shadings.
    static let order: [Card] = Colour.allCases.flatMap { colour in
        Number.allCases.flatMap { number in
            Shape.allCases.flatMap { shape in Shading.allCases.map { Card(number, $0, colour, shape) } }
        }
    }

    /// The gallery as text to print, with the theme's colours when `styled`; nil when a table of
    /// 12 does not fit `terminal`.
    package static func text(terminal: TerminalSize, theme: Theme, styled: Bool) -> String? {
        render(terminal: terminal, theme: theme)?.text(styled: styled && theme.usesColor)
    }

    /// How the cards are arranged in a width: how many to a row (nine, else three, else one, so a
    /// row never mixes a shape's shadings with another's) and the columns kept for row labels.
    struct Arrangement: Equatable {
        var perRow: Int
        var margin: Int

        /// Room for "purple", "three" and "squiggles" and a blank column.
        static let labelWidth = 10

        init(columns: Int, cardWidth: Int) {
            let step = cardWidth + 1
            for perRow in [9, 3] where Self.labelWidth + perRow * step - 1 <= columns {
                self.perRow = perRow
                margin = Self.labelWidth
                return
            }
            perRow = 1
            margin = 0
        }
    }

    /// The gallery `terminal.columns` wide, or nil when a table of 12 does not fit that terminal.
    static func render(terminal: TerminalSize, theme: Theme) -> ScreenBuffer? {
        guard let size = cardSize(for: terminal) else { return nil }
        let width = max(size.width, terminal.columns)
        let arrangement = Arrangement(columns: width, cardWidth: size.width)
        let perRow = arrangement.perRow, step = size.width + 1
        let heading = headingLines(terminal: terminal, size: size, perRow: arrangement.perRow)
        let headers = perRow == 9 ? 2 : perRow == 3 ? 1 : 0
        let rowsPerColour = 27 / perRow
        let colourHeight = headers + rowsPerColour * (size.height + 1)
        var buffer = ScreenBuffer(size: TerminalSize(columns: width, rows: heading.count + 1 + 3 * colourHeight))
        for (index, line) in heading.enumerated() { buffer.write(line, column: 0, row: index) }
        let label = theme.quiet
        for (colourIndex, colour) in Colour.allCases.enumerated() {
            let top = heading.count + 1 + colourIndex * colourHeight
            // The names over the columns, again above each colour.
            for column in 0..<perRow where headers > 0 {
                let left = arrangement.margin + column * step
                if perRow == 9 && column % 3 == 0 {
                    let shape = Shape.allCases[column / 3].plural
                    buffer.write(shape.centred(in: 3 * step - 1), column: left, row: top, style: CellStyle(bold: true))
                }
                // Cut to the card, so a narrow card's word never runs into the next one's.
                let word = String(Shading.allCases[column % 3].word.prefix(size.width))
                buffer.write(word.centred(in: size.width), column: left, row: top + headers - 1, style: label)
            }
            for row in 0..<rowsPerColour {
                let rowTop = top + headers + row * (size.height + 1)
                let first = order[(colourIndex * rowsPerColour + row) * perRow]
                var words = [colour.word, ["one", "two", "three"][first.number.rawValue]]
                if perRow < 9 { words.append(first.shape.plural) }
                if perRow < 3 { words.append(first.shading.word) }
                if arrangement.margin > 0 {
                    let start = rowTop + max(0, (size.height - words.count) / 2)
                    for (line, word) in words.enumerated() where line < size.height {
                        buffer.write(word, column: 0, row: start + line, style: line == 0 ? CellStyle(bold: true) : label)
                    }
                }
                for column in 0..<perRow {
                    let card = order[(colourIndex * rowsPerColour + row) * perRow + column]
                    let rect = Rect(column: arrangement.margin + column * step, row: rowTop, width: size.width, height: size.height)
                    CardArt.draw(card, in: rect, into: &buffer, theme: theme)
                }
            }
        }
        return buffer
    }

    /// What the gallery shows, in lines that fit the narrowest terminal a table of 12 fits (40).
    static func headingLines(terminal: TerminalSize, size: CardSize, perRow: Int) -> [String] {
        let interior = TerminalSize(columns: size.width - 2, rows: size.height - 2)
        let art: String
        switch SymbolTier.forInterior(interior) {
        case .compact: art = "one glyph per symbol"
        case .drawn(let width, let height, _): art = "symbols drawn \(width)×\(height) pixels (\((width + 1) / 2)×\((height + 1) / 2) cells)"
        }
        return ["All 81 cards as a table of 12 draws them",
                "in a \(terminal.columns)×\(terminal.rows) terminal: cards of \(size.width)×\(size.height) cells,",
                "\(art).",
                perRow == 9 ? "Each row: one colour and number;" : perRow == 3 ? "Each row: one colour, number and shape;"
                    : "In order: colour, number, shape",
                perRow == 9 ? "across: each shape solid, striped, open." : perRow == 3 ? "across: solid, striped, open."
                    : "and solid, striped, open."]
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
