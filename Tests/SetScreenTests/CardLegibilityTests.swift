import Foundation
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

    /// The share of pixels two drawings differ in, out of the pixels the lighter of the two inks:
    /// how much of what the eye sees on one card is different on the other.
    static func differingShare(_ a: [Bool], _ b: [Bool]) -> Double {
        let differing = zip(a, b).filter { $0 != $1 }.count
        let lighter = min(a.filter { $0 }.count, b.filter { $0 }.count)
        return Double(differing) / Double(max(1, lighter))
    }

    /// The pixels inside a card as drawn on screen, read back from its quadrant characters.
    static func insidePixels(_ card: Card, _ size: CardSize, theme: Theme) -> [Bool] {
        var buffer = ScreenBuffer(size: TerminalSize(columns: size.width, rows: size.height))
        CardArt.draw(card, in: buffer.bounds, into: &buffer, theme: theme)
        let inside = buffer.bounds.insetBy(1)
        return (inside.row..<inside.endRow).flatMap { r in
            [true, false].flatMap { top in
                (inside.column..<inside.endColumn).flatMap { c -> [Bool] in
                    let bits = PixelCanvas.quadrants.firstIndex(of: buffer[c, r].character) ?? 0
                    return top ? [bits & 8 != 0, bits & 4 != 0] : [bits & 2 != 0, bits & 1 != 0]
                }
            }
        }
    }

    /// Shadings read apart at 80×24: on the cards of a deal of 12 there (13×7), any two
    /// symbols that differ only in shading differ in at least 0.35 of the pixels the lighter one
    /// inks. Solid and striped were 0.29 (the diamond) and striped and open squiggles 0.31: the
    /// outline took most of a narrow symbol, and both shared it.
    @Test func everyTwoShadingsDifferInAThirdOfTheirPixelsAt80x24() throws {
        let size = try #require(CardGallery.cardSize(for: TerminalSize(columns: 80, rows: 24)))
        #expect(size == CardSize(height: 7))
        guard case .drawn(let width, let height, _) = SymbolTier.forInterior(TerminalSize(columns: size.width - 2, rows: size.height - 2))
        else { Issue.record("13×7 cards draw their symbols"); return }
        for shape in Shape.allCases {
            let drawn = Shading.allCases.map { SymbolArt.pixels(shape, $0, width: width, height: height).joined().map { $0 } }
            for i in drawn.indices {
                for j in drawn.indices where j > i {
                    let share = Self.differingShare(drawn[i], drawn[j])
                    #expect(share >= 0.35, "\(shape): \(Shading.allCases[i]) and \(Shading.allCases[j]) differ in \(share) of the pixels")
                }
            }
        }
    }

    /// The same bound on screen, at every size from 80×24's 13×7 up, for every shape, colour and
    /// number, in every theme: colour-blind mode's letters sit on the border, never on the art.
    /// (Glyph sizes, 11×6 and smaller, show one character per shading: see
    /// `everyTwoShadingsDifferInAThirdOfWhatTheyInkAtEverySize`.)
    @Test(arguments: CardSize.all.filter { $0.height >= 7 })
    func everyTwoShadingsDifferInAThirdOfTheirPixelsAtEveryDrawnSize(size: CardSize) {
        for theme in [Theme.standard, .colorblindFriendly, .noColor] {
            for number in Number.allCases {
                for shape in Shape.allCases {
                    for colour in Colour.allCases {
                        let drawn = Shading.allCases.map { Self.insidePixels(Card(number, $0, colour, shape), size, theme: theme) }
                        for i in drawn.indices {
                            for j in drawn.indices where j > i {
                                let share = Self.differingShare(drawn[i], drawn[j])
                                #expect(share >= 0.35, "\(size.width)×\(size.height) \(number) \(colour) \(shape): \(Shading.allCases[i]) and \(Shading.allCases[j]) differ in \(share)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// Shading at every size, the smallest included (issue 45: 0.24 at 80×24's 11×6 cards): two
    /// cards that differ only in shading differ in at least 0.35 of what the lighter one inks, in
    /// pixels where symbols are drawn, in cells where a glyph stands for each. Where four pixels
    /// of width cannot carry it (11×6: every row's outline left striped within 0.27 of solid or
    /// open), the card says it in a word on its bottom border, in every theme.
    @Test(arguments: CardSize.all)
    func everyTwoShadingsReadApartAtEverySize(size: CardSize) {
        let tier = SymbolTier.forInterior(TerminalSize(columns: size.width - 2, rows: size.height - 2))
        #expect(tier.carriesShading == (size.height != 6), "\(size.width)×\(size.height)")
        for number in Number.allCases {
            for shape in Shape.allCases {
                let cards = Shading.allCases.map { Card(number, $0, .green, shape) }
                guard tier.carriesShading else {
                    for theme in [Theme.standard, .colorblindFriendly, .noColor] {
                        let words = cards.map { card -> String in
                            var buffer = ScreenBuffer(size: TerminalSize(columns: size.width, rows: size.height))
                            CardArt.draw(card, in: buffer.bounds, into: &buffer, theme: theme)
                            return String(buffer.textLines[size.height - 1].dropFirst().prefix(7)).trimmingCharacters(in: CharacterSet(charactersIn: "─━═ "))
                        }
                        #expect(words == ["solid", "striped", "open"], "\(size.width)×\(size.height) \(number) \(shape): \(words)")
                    }
                    continue
                }
                let compact = tier == .compact
                let inked = cards.map { compact ? Self.inside($0, size).map { $0 != " " } : Self.insidePixels($0, size, theme: .noColor) }
                let cells = cards.map { Self.inside($0, size) }
                for i in cards.indices {
                    for j in cards.indices where j > i {
                        // A glyph differs whole: the cells that differ, over the cells the lighter card inks.
                        let share = compact
                            ? Double(zip(cells[i], cells[j]).filter { $0 != $1 }.count)
                                / Double(max(1, min(inked[i].filter { $0 }.count, inked[j].filter { $0 }.count)))
                            : Self.differingShare(inked[i], inked[j])
                        #expect(share >= 0.35, "\(size.width)×\(size.height) \(number) \(shape): \(Shading.allCases[i]) and \(Shading.allCases[j]) differ in \(share)")
                    }
                }
            }
        }
    }
}
