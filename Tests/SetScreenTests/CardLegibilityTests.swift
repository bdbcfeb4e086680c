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

    /// Every size `TableLayout` may pick: it tries them all, largest first.
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

    @Test func theThresholdGrowsWithTheCard() {
        let ones = CardSize.all.map { CardArt.minimumDifference(cardSize: $0, symbols: 1) }
        #expect(ones == ones.sorted())
        #expect(ones.first == 1 && CardArt.minimumDifference(cardSize: CardSize(height: 6), symbols: 1) == 2)
        #expect(CardArt.minimumDifference(cardSize: CardSize(height: 7), symbols: 1) == 3)
        #expect(CardArt.minimumDifference(cardSize: CardSize(height: 3), symbols: 3) == 3)
    }
}
