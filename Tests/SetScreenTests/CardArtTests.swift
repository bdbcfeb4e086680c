import Testing
import SetRules
@testable import SetScreen

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
                // Symbols are separated by blank pixel columns: read the pixels back from the
                // quadrant characters and count runs of inked pixel columns.
                #expect(ink.allSatisfy { $0 == " " || Self.blockCharacters.contains($0) })
                let pixels = Self.pixels(buffer, rect.insetBy(1))
                var runs = 0, inRun = false
                for x in 0..<(pixels.first?.count ?? 0) {
                    let inked = pixels.contains { $0[x] }
                    if inked && !inRun { runs += 1 }
                    inRun = inked
                }
                #expect(runs == card.number.count, "\(card) at \(size)")
            }
        }
    }

    /// The pixels of a rect drawn in quadrant characters, two across and two down per cell.
    static func pixels(_ buffer: ScreenBuffer, _ rect: Rect) -> [[Bool]] {
        (0..<(2 * rect.height)).map { y in
            (0..<(2 * rect.width)).map { x in
                let character = buffer[rect.column + x / 2, rect.row + y / 2].character
                guard let bits = PixelCanvas.quadrants.firstIndex(of: character) else { return false }
                let bit = y % 2 == 0 ? (x % 2 == 0 ? 8 : 4) : (x % 2 == 0 ? 2 : 1)
                return bits & bit != 0
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

    @Test(arguments: CardSize.all)
    func everyTwoOfThe81CardsRenderDifferentlyWithAndWithoutColour(size: CardSize) {
        for theme in [Theme.standard, .noColor] {
            var seen: [ScreenBuffer: Card] = [:]
            var seenText: [[String]: Card] = [:]
            for card in Card.all {
                let (buffer, _) = Self.render(card, size: size, theme: theme)
                #expect(seen.updateValue(card, forKey: buffer) == nil, "\(card) looks like another card at \(size)")
                if theme == .noColor {
                    // Without colour only the characters can tell cards apart.
                    #expect(seenText.updateValue(card, forKey: buffer.textLines) == nil, "\(card) at \(size) without colour")
                }
            }
        }
    }

    @Test func eachCardSizeHasItsArtTier() {
        func tier(_ height: Int) -> SymbolTier {
            let size = CardSize(height: height)
            return SymbolTier.forInterior(TerminalSize(columns: size.width - 2, rows: size.height - 2))
        }
        #expect(tier(3) == .compact, "5×3")
        #expect(tier(4) == .compact, "7×4")
        #expect(tier(5) == .compact, "9×5: glyphs, drawn 2×3-cell shapes did not read apart")
        #expect(tier(6) == .drawn(width: 4, height: 8, gap: 2), "11×6")
        #expect(tier(7) == .drawn(width: 6, height: 10, gap: 2), "13×7: 3×5 cells a symbol")
        var previous = 0
        for height in 6...CardSize.maximumHeight {
            guard case .drawn(let width, let symbolHeight, _) = tier(height) else {
                Issue.record("\(height) is not drawn")
                continue
            }
            #expect(width * symbolHeight >= previous, "symbols never shrink as cards grow (height \(height))")
            // Taller than wide on screen (a pixel is about as tall as two are wide), as on real cards.
            #expect(symbolHeight >= width, "height \(height)")
            previous = width * symbolHeight
        }
    }

    @Test func at13x7ThreeSymbolsSideBySideFillTheCard() {
        for card in Card.all where card.number == .three {
            let (buffer, rect) = Self.render(card, size: CardSize(height: 7))
            let inside = rect.insetBy(1)
            let inkedColumns = (inside.column..<inside.endColumn).filter { c in (inside.row..<inside.endRow).contains { buffer[c, $0].character != " " } }
            let inkedRows = (inside.row..<inside.endRow).filter { r in (inside.column..<inside.endColumn).contains { buffer[$0, r].character != " " } }
            #expect(inkedColumns.first == inside.column && inkedColumns.last == inside.endColumn - 1, "\(card) spans the width")
            #expect(inkedRows.count == inside.height, "\(card) spans the height")
        }
    }

    @Test func at80x24With12CardsAFifthOfTheInsideIsInkAndEverySymbolCoversSixCells() throws {
        let size = try #require(CardGallery.cardSize(for: TerminalSize(columns: 80, rows: 24)))
        #expect(size == CardSize(height: 7))
        var inkFraction = 0.0
        for card in Card.all {
            let (buffer, rect) = Self.render(card, size: size)
            let inside = rect.insetBy(1)
            let inked = Swift.Set((inside.row..<inside.endRow).flatMap { r in
                (inside.column..<inside.endColumn).filter { buffer[$0, r].character != " " }.map { [$0, r] }
            })
            inkFraction += Double(inked.count) / Double(inside.width * inside.height) / Double(Card.all.count)
            // Symbols are the groups of inked cells touching (diagonals included).
            var unseen = inked, groups: [Int] = []
            while let start = unseen.first {
                var stack = [start], count = 0
                unseen.remove(start)
                while let cell = stack.popLast() {
                    count += 1
                    for dc in -1...1 { for dr in -1...1 where unseen.remove([cell[0] + dc, cell[1] + dr]) != nil { stack.append([cell[0] + dc, cell[1] + dr]) } }
                }
                groups.append(count)
            }
            #expect(groups.count == card.number.count, "\(card)")
            #expect(groups.allSatisfy { $0 >= 6 }, "\(card): \(groups)")
        }
        #expect(inkFraction >= 0.2, "on average \(inkFraction) of the inside carries ink")
    }

    /// Sizes that draw shapes (glyph cards are held to it by CardLegibilityTests).
    @Test(arguments: [CardSize(height: 6), CardSize(height: 7), CardSize(height: 12)])
    func shadingReadsWithoutColour(size: CardSize) {
        // Solid is filled, open is an outline with paper inside, striped lies between with lines.
        for shape in Shape.allCases {
            let counts = Shading.allCases.map { shading in
                let (buffer, rect) = Self.render(Card(.one, shading, .green, shape), size: size, theme: .noColor)
                return Self.pixels(buffer, rect.insetBy(1)).joined().filter { $0 }.count
            }
            #expect(counts[0] > counts[1] && counts[1] > counts[2], "\(shape) at \(size): \(counts)")
        }
    }
}
