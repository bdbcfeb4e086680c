import SetRules
import Testing
@testable import SetScreen

/// Cards must read at a glance without colour: two cards that differ in shape or shading (and
/// agree in number and colour, so nothing else tells them apart) differ in at least
/// `CardArt.minimumDifference` cells at every card size the table can choose.
@Suite struct CardLegibilityTests {
    /// The inside of a card drawn without colour, row by row.
    static func inside(_ card: Card, _ size: CardSize) -> [Character] {
        var buffer = ScreenBuffer(size: TerminalSize(columns: size.width, rows: size.height))
        CardArt.draw(card, in: buffer.bounds, into: &buffer, theme: .noColor)
        let inside = buffer.bounds.insetBy(1)
        return (inside.row..<inside.endRow).flatMap { r in (inside.column..<inside.endColumn).map { buffer[$0, r].character } }
    }

    /// Every supported size: those `TableLayout` may pick (`TableLayout.sizes`) and the rest.
    @Test(arguments: CardSize.all)
    func cardsThatDifferInShapeOrShadingDifferInEnoughCells(size: CardSize) {
        for number in Number.allCases {
            let cards = Shape.allCases.flatMap { shape in Shading.allCases.map { Card(number, $0, .purple, shape) } }
            let art = cards.map { Self.inside($0, size) }
            let needed = CardArt.minimumDifference(cardSize: size, symbols: number.count)
            for i in cards.indices {
                for j in cards.indices where j > i {
                    let differing = zip(art[i], art[j]).filter { $0 != $1 }.count
                    #expect(differing >= needed, "\(size.width)×\(size.height): \(cards[i]) and \(cards[j]) differ in \(differing) cells, want \(needed)")
                }
            }
        }
    }

    /// The sizes that draw one glyph per symbol are among those checked above: the 9×5 cards of
    /// 21 to 30 at 80×24, the 7×4 (never laid out) and 5×3 of a table dealt larger elsewhere.
    @Test func theGlyphSizesAreChecked() {
        let compact = CardSize.all.filter {
            SymbolTier.forInterior(TerminalSize(columns: $0.width - 2, rows: $0.height - 2)) == .compact
        }
        #expect(compact.map(\.height) == [3, 4, 5])
    }

    /// One glyph per symbol: every shape's solid is a filled figure, its open the same figure
    /// hollow, its striped the figure marked inside, so shading reads the same on every shape
    /// (a set of three waves, ≋ ≈ ∼, told shading apart by counting strokes).
    @Test func compactGlyphsShowShadingAsFilledMarkedOrHollow() {
        let families: [Swift.Set<Character>] = [["◆", "◈", "◇"], ["●", "◐", "○"], ["■", "◧", "□"]]
        let filled: Swift.Set<Character> = ["◆", "●", "■"], marked: Swift.Set<Character> = ["◈", "◐", "◧"]
        let hollow: Swift.Set<Character> = ["◇", "○", "□"]
        for shape in Shape.allCases {
            let glyphs = Shading.allCases.map { CardArt.compactGlyph(shape, $0) }
            #expect(families.contains(Swift.Set(glyphs)), "\(shape): one figure in three fillings, \(glyphs)")
            #expect(filled.contains(CardArt.compactGlyph(shape, .solid)))
            #expect(marked.contains(CardArt.compactGlyph(shape, .striped)))
            #expect(hollow.contains(CardArt.compactGlyph(shape, .open)))
        }
        #expect(Swift.Set(Shape.allCases.map { CardArt.compactGlyph($0, .solid) }).count == 3, "shapes differ")
    }

    @Test func theThresholdGrowsWithTheCard() {
        let ones = CardSize.all.map { CardArt.minimumDifference(cardSize: $0, symbols: 1) }
        #expect(ones == ones.sorted())
        #expect(ones.first == 1 && CardArt.minimumDifference(cardSize: CardSize(height: 6), symbols: 1) == 2)
        #expect(CardArt.minimumDifference(cardSize: CardSize(height: 7), symbols: 1) == 3)
        #expect(CardArt.minimumDifference(cardSize: CardSize(height: 3), symbols: 3) == 3)
    }

    /// Striped and open read apart at 80×24: on the cards of a deal of 12 there (13×7), the
    /// pixels that differ between a striped and an open symbol are at least 0.35 of the pixels the
    /// open one inks (the outline alone). The squiggle's were 0.31: its two-row steps made most of
    /// a four-pixel band outline.
    @Test func stripedAndOpenDifferInAThirdOfTheirPixelsAt80x24() throws {
        let size = try #require(CardGallery.cardSize(for: TerminalSize(columns: 80, rows: 24)))
        #expect(size == CardSize(height: 7))
        guard case .drawn(let width, let height, _) = SymbolTier.forInterior(TerminalSize(columns: size.width - 2, rows: size.height - 2))
        else { Issue.record("13×7 cards draw their symbols"); return }
        for shape in Shape.allCases {
            let striped = SymbolArt.pixels(shape, .striped, width: width, height: height).joined()
            let open = SymbolArt.pixels(shape, .open, width: width, height: height).joined()
            let differing = zip(striped, open).filter { $0 != $1 }.count
            let share = Double(differing) / Double(open.filter { $0 }.count)
            #expect(share >= 0.35, "\(shape): \(differing) of \(open.filter { $0 }.count) pixels differ, \(share)")
        }
    }
}
