import SetRules
import Testing
@testable import SetScreen

@Suite struct CardGalleryTests {
    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 100, rows: 30),
                      TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60),
                      TerminalSize(columns: 40, rows: 12)])
    func allCardsAreDrawnAsATableOf12DrawsThem(terminal: TerminalSize) throws {
        let gallery = try #require(CardGallery.render(terminal: terminal, theme: .standard))
        let table = try #require(ClientFixtures.app(ClientFixtures.view(), size: terminal).layout.table)
        let size = table.cardSize
        #expect(CardGallery.cardSize(for: terminal) == size)
        #expect(gallery.size.columns <= max(terminal.columns, size.width))
        #expect(gallery.textLines[1].contains("in a \(terminal.columns)×\(terminal.rows) terminal: cards of \(size.width)×\(size.height) cells"))
        // Every card once, each exactly as CardArt draws it at the table's size.
        var drawings: [ScreenBuffer: Card] = [:]
        for card in Card.all {
            var alone = ScreenBuffer(size: TerminalSize(columns: size.width, rows: size.height))
            CardArt.draw(card, in: alone.bounds, into: &alone)
            drawings[alone] = card
        }
        var found: [Card] = []
        for row in 0..<gallery.size.rows {
            for column in 0..<gallery.size.columns where gallery[column, row].character == "╭" {
                var piece = ScreenBuffer(size: TerminalSize(columns: size.width, rows: size.height))
                for r in 0..<size.height { for c in 0..<size.width { piece[c, r] = gallery[column + c, row + r] } }
                found.append(try #require(drawings[piece], "an unknown card at \(column),\(row)"))
            }
        }
        #expect(found == CardGallery.order)
        #expect(Swift.Set(found).count == 81)
    }

    @Test func aTerminalTooSmallForATableHasNoGallery() {
        #expect(CardGallery.render(terminal: TerminalSize(columns: 30, rows: 7), theme: .standard) == nil)
    }

    @Test func styledTextCarriesColoursAndPlainTextNone() throws {
        let gallery = try #require(CardGallery.render(terminal: TerminalSize(columns: 80, rows: 24), theme: .standard))
        let styled = gallery.text(styled: true), plain = gallery.text(styled: false)
        #expect(styled.contains("\u{1B}[0;38;5;160m"), "red ink")
        #expect(!plain.contains("\u{1B}"))
        #expect(plain.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            == gallery.textLines.map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) })
    }
}
