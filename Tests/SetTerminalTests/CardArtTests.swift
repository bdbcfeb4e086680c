import Testing
import SetRules
import SetTerminal

@Suite struct CardArtTests {
    static let corners: [BoxLines: [Character]] = Dictionary(uniqueKeysWithValues: BoxLines.allCases.map {
        ($0, [$0.glyphs.topLeft, $0.glyphs.topRight, $0.glyphs.bottomLeft, $0.glyphs.bottomRight])
    })
    static let blockCharacters = Swift.Set("▗▖▄▝▐▞▟▘▚▌▙▀▜▛█")

    /// Draws a card on a canvas with a margin marked '.', so writes outside show up.
    static func render(_ card: Card, size: CardSize, appearance: CardAppearance = .normal,
                       theme: Theme = .standard, label: String? = nil) -> (ScreenBuffer, Rect) {
        var buffer = ScreenBuffer(size: TerminalSize(columns: size.width + 4, rows: size.height + 4), fill: Cell("."))
        let rect = Rect(column: 2, row: 2, width: size.width, height: size.height)
        CardArt.draw(card, in: rect, into: &buffer, appearance: appearance, theme: theme, label: label)
        return (buffer, rect)
    }

    static func interiorCells(_ buffer: ScreenBuffer, _ rect: Rect) -> [Cell] {
        let inside = rect.insetBy(1)
        return (inside.row..<inside.endRow).flatMap { r in (inside.column..<inside.endColumn).map { buffer[$0, r] } }
    }

    @Test(arguments: CardSize.all)
    func everyCardAtEverySizeIsWholeInkedAndContained(size: CardSize) {
        for card in Card.all {
            let (buffer, rect) = Self.render(card, size: size)
            for r in 0..<buffer.size.rows {
                for c in 0..<buffer.size.columns where !rect.contains(column: c, row: r) {
                    #expect(buffer[c, r].character == ".", "\(card) at \(size) wrote outside at \(c),\(r)")
                }
            }
            let corners = [buffer[rect.column, rect.row], buffer[rect.endColumn - 1, rect.row],
                           buffer[rect.column, rect.endRow - 1], buffer[rect.endColumn - 1, rect.endRow - 1]]
            #expect(corners.map(\.character) == Self.corners[.rounded])
            let ink = Self.interiorCells(buffer, rect).filter { $0.character != " " }
            #expect(!ink.isEmpty)
            let expected = TerminalColor.indexed(Theme.paletteIndex(of: card.colour))
            #expect(ink.allSatisfy { $0.style.foreground == expected }, "\(card) at \(size)")
        }
    }

    @Test(arguments: CardSize.all)
    func symbolCountMatchesTheCard(size: CardSize) {
        let interior = TerminalSize(columns: size.width - 2, rows: size.height - 2)
        for card in Card.all {
            let (buffer, rect) = Self.render(card, size: size)
            let ink = Self.interiorCells(buffer, rect).map(\.character)
            switch SymbolTier.forInterior(interior) {
            case .compact:
                let glyph = CardArt.compactGlyph(card.shape, card.shading)
                #expect(ink.filter { $0 == glyph }.count == card.number.count)
                #expect(ink.filter { $0 != " " && $0 != glyph }.isEmpty)
            case .drawn:
                // Symbols are separated by blank columns: count runs of inked columns.
                let inside = rect.insetBy(1)
                var runs = 0, inRun = false
                for c in inside.column..<inside.endColumn {
                    let inked = (inside.row..<inside.endRow).contains { buffer[c, $0].character != " " }
                    if inked && !inRun { runs += 1 }
                    inRun = inked
                }
                #expect(runs == card.number.count, "\(card) at \(size)")
                #expect(ink.allSatisfy { $0 == " " || Self.blockCharacters.contains($0) })
            }
        }
    }

    @Test(arguments: CardSize.all)
    func shadingsAndShapesLookDifferent(size: CardSize) {
        for number in Number.allCases {
            var seen: [[Character]] = []
            for shape in Shape.allCases {
                for shading in Shading.allCases {
                    let (buffer, rect) = Self.render(Card(number, shading, .red, shape), size: size)
                    seen.append(Self.interiorCells(buffer, rect).map(\.character))
                }
            }
            #expect(Swift.Set(seen).count == 9, "\(number) at \(size)")
        }
    }

    @Test func solidHasMoreInkThanStripedThanOpen() {
        let size = CardSize(height: 13)
        for shape in Shape.allCases {
            let inkCounts = Shading.allCases.map { shading in
                let (buffer, rect) = Self.render(Card(.one, shading, .green, shape), size: size)
                return Self.interiorCells(buffer, rect).filter { $0.character == "█" }.count
            }
            #expect(inkCounts[0] > inkCounts[1] && inkCounts[1] >= inkCounts[2], "\(shape): \(inkCounts)")
        }
    }

    @Test(arguments: [CardSize(height: 3), CardSize(height: 8), CardSize(height: 17)])
    func colourLettersShowInColorblindAndNoColorThemes(size: CardSize) {
        for card in Card.all {
            let (plain, rect) = Self.render(card, size: size)
            let (marked, _) = Self.render(card, size: size, theme: .colorblindFriendly)
            let (bare, _) = Self.render(card, size: size, theme: .noColor)
            let letter = Theme.letter(for: card.colour)
            let bottom = { (b: ScreenBuffer) in (rect.column..<rect.endColumn).map { b[$0, rect.endRow - 1].character } }
            #expect(!bottom(plain).contains(letter))
            #expect(bottom(marked).contains(letter))
            #expect(bottom(bare).contains(letter))
            let colours = (0..<bare.size.rows).flatMap { r in (0..<bare.size.columns).map { bare[$0, r].style } }
            #expect(colours.allSatisfy { $0.foreground == .default && $0.background == .default })
        }
    }

    @Test func appearancesDifferWithAndWithoutColour() {
        let card = Card(.two, .striped, .purple, .oval)
        for theme in [Theme.standard, .noColor] {
            let frames = CardAppearance.allCases.map { Self.render(card, size: CardSize(height: 8), appearance: $0, theme: theme).0 }
            let texts = frames.map(\.textLines)
            #expect(Swift.Set(texts).count == CardAppearance.allCases.count, "\(theme)")
        }
        let (selected, rect) = Self.render(card, size: CardSize(height: 5), appearance: .selected)
        #expect(selected[rect.column, rect.row].character == "┏")
        #expect(selected[rect.column, rect.row].style.bold)
        let (matched, _) = Self.render(card, size: CardSize(height: 5), appearance: .matched)
        #expect(matched[rect.column, rect.row].character == "╔")
    }

    @Test func faceDownShowsTheBackAndNoSymbols() {
        let card = Card(.three, .solid, .red, .diamond)
        let (buffer, rect) = Self.render(card, size: CardSize(height: 6), appearance: .faceDown, label: "7")
        let inside = Self.interiorCells(buffer, rect).map(\.character)
        #expect(inside.allSatisfy { $0 == Theme.standard.backStyle.pattern })
        #expect(!buffer.textLines.joined().contains("7"))
    }

    @Test func labelSitsOnTheTopBorderAndKeepsTheCorner() {
        let card = Card(.one, .open, .green, .squiggle)
        let (buffer, rect) = Self.render(card, size: CardSize(height: 3), label: "42x")
        let top = (rect.column..<rect.endColumn).map { buffer[$0, rect.row].character }
        #expect(top == ["╭", "4", "2", "─", "╮"])
        #expect(buffer[rect.column + 1, rect.row].style.bold)
    }

    @Test func oddRectsNeverTrap() {
        var buffer = ScreenBuffer(size: TerminalSize(columns: 10, rows: 5))
        let card = Card(.three, .striped, .purple, .squiggle)
        for rect in [Rect(column: 0, row: 0, width: 1, height: 1), Rect(column: 8, row: 3, width: 9, height: 5),
                     Rect(column: -4, row: -2, width: 7, height: 4), Rect(column: 0, row: 0, width: 0, height: 3)] {
            CardArt.draw(card, in: rect, into: &buffer, label: "99")
        }
        #expect(buffer.size == TerminalSize(columns: 10, rows: 5))
    }
}
