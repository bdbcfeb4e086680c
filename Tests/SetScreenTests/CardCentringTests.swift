import SetRules
import Testing
@testable import SetScreen

/// A card's symbols sit in the middle of the card: exactly as many blank rows above them as below
/// at every size a table can be laid out at, and side to side a card of one, two or three symbols
/// leans (when the free width is odd) to the same side by the same half cell.
@Suite struct CardCentringTests {
    /// The terminals a player meets, and every table size in each: whatever the layout picks.
    static let terminals = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 60, rows: 20),
                            TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 100, rows: 30),
                            TerminalSize(columns: 200, rows: 60), TerminalSize(columns: 40, rows: 12)]

    /// Every card size the table chooses, for any number of cards in any of the terminals.
    static var chosenSizes: [CardSize] {
        var sizes: Swift.Set<CardSize> = []
        for terminal in terminals {
            for count in 1...81 {
                let layout = ScreenLayout(size: terminal, cardCount: count, buttons: CardGallery.duelButtons, deck: true)
                if let size = layout.table?.cardSize { sizes.insert(size) }
            }
        }
        return sizes.sorted()
    }

    /// The card drawn without colour: its inside, one string a row.
    static func insideRows(_ card: Card, _ size: CardSize) -> [String] {
        var buffer = ScreenBuffer(size: TerminalSize(columns: size.width, rows: size.height))
        CardArt.draw(card, in: buffer.bounds, into: &buffer, theme: .noColor)
        let inside = buffer.bounds.insetBy(1)
        return (inside.row..<inside.endRow).map { r in String((inside.column..<inside.endColumn).map { buffer[$0, r].character }) }
    }

    /// Blank rows above and below the ink of a card's inside.
    static func verticalMargins(_ rows: [String]) -> (above: Int, below: Int) {
        let inked = rows.indices.filter { rows[$0].contains { $0 != " " } }
        return (inked.first ?? 0, rows.count - 1 - (inked.last ?? rows.count - 1))
    }

    /// The 7×4 cards (chosen for ~48 cards at 80×24) put their one line of glyphs on the
    /// top of two inside rows: a size whose symbols cannot be centred is never chosen.
    @Test func everySizeTheLayoutChoosesCentresEveryCardsSymbolsVertically() {
        let sizes = Self.chosenSizes
        #expect(!sizes.isEmpty)
        for size in sizes {
            for card in Card.all {
                let margins = Self.verticalMargins(Self.insideRows(card, size))
                #expect(margins.above == margins.below, "\(size.width)×\(size.height) \(card): \(margins.above) blank rows above, \(margins.below) below")
            }
        }
    }

    /// The size ladder itself: every size `TableLayout` may pick centres its symbols, and the sizes
    /// that cannot (an even number of inside rows under one line of glyphs) are left out of it.
    @Test func theLayoutsLadderHoldsOnlySizesThatCentre() {
        for size in TableLayout.sizes {
            for card in Card.all {
                let margins = Self.verticalMargins(Self.insideRows(card, size))
                #expect(margins.above == margins.below, "\(size.width)×\(size.height) \(card)")
            }
        }
        #expect(!TableLayout.sizes.contains(CardSize(height: 4)), "7×4 holds one line of glyphs in two rows")
        #expect(TableLayout.sizes.contains(CardSize(height: 3)) && TableLayout.sizes.contains(CardSize(height: 5)))
    }

    /// About 48 cards at 80×24: the 7×4 cards the issue saw give way to 5×3 ones, whose glyphs sit
    /// on their only inside row.
    @Test func fortyEightCardsAt80x24AreDrawnAtASizeThatCentres() throws {
        let layout = ScreenLayout(size: TerminalSize(columns: 80, rows: 24), cardCount: 48, buttons: CardGallery.duelButtons, deck: true)
        let size = try #require(layout.table?.cardSize)
        #expect(size != CardSize(height: 4))
        for card in Card.all {
            let margins = Self.verticalMargins(Self.insideRows(card, size))
            #expect(margins.above == margins.below, "\(size.width)×\(size.height) \(card)")
        }
    }

    /// Inked pixel columns of a card's inside, read back from the quadrant characters.
    static func inkedPixelColumns(_ rows: [String]) -> [Int] {
        let width = (rows.first?.count ?? 0) * 2
        return (0..<width).filter { x in
            rows.contains { row in
                let character = Array(row)[x / 2]
                guard let bits = PixelCanvas.quadrants.firstIndex(of: character) else { return false }
                return x % 2 == 0 ? bits & 0b1010 != 0 : bits & 0b0101 != 0
            }
        }
    }

    /// Cards that draw shapes (11×6 up; 9×5 cards show glyphs): one, two and three symbols must all
    /// lean the same way when their free width is odd. When 9×5 cards drew shapes, the three of a
    /// card of three sat at pixel 0, 5 and 10 (the middle one half a cell over), the two of a card
    /// of two half a cell right of the middle, the one of a card of one on the middle.
    @Test(arguments: CardSize.all.filter { $0.height >= 6 })
    func oneTwoAndThreeSymbolsAreCentredAlikeSideToSide(size: CardSize) {
        for shape in Shape.allCases {
            for shading in Shading.allCases {
                let offsets = Number.allCases.map { number -> Int in
                    let rows = Self.insideRows(Card(number, shading, .red, shape), size)
                    let inked = Self.inkedPixelColumns(rows)
                    let width = 2 * (rows.first?.count ?? 0)
                    // Free pixels on the right minus those on the left: 0 centred, 1 a pixel left.
                    return (width - 1 - (inked.last ?? 0)) - (inked.first ?? 0)
                }
                #expect(offsets.allSatisfy { abs($0) <= 1 }, "\(size.width)×\(size.height) \(shape) \(shading): \(offsets)")
                #expect(Swift.Set(offsets.filter { $0 != 0 }).count <= 1, "\(size.width)×\(size.height) \(shape) \(shading) lean both ways: \(offsets)")
            }
        }
    }

    /// From 11×6 up every symbol of a card starts on the pixel parity the one of a card of one
    /// has, so it is drawn with the same characters.
    @Test(arguments: CardSize.all.filter { $0.height >= 6 })
    func everySymbolOfACardStartsOnACellEdgeAlike(size: CardSize) {
        let interior = TerminalSize(columns: size.width - 2, rows: size.height - 2)
        let tier = SymbolTier.forInterior(interior)
        let single = tier.placement(count: 1, interior: interior)?.lefts ?? []
        for count in 1...3 {
            let lefts = tier.placement(count: count, interior: interior)?.lefts ?? []
            #expect(lefts.count == count)
            #expect(Swift.Set(lefts.map { $0 % 2 }) == Swift.Set(single.map { $0 % 2 }), "\(size.width)×\(size.height), \(count): \(lefts)")
        }
    }
}
