import Foundation
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

    /// A legend: nine to a row when they fit, else three (one shape's shadings), never mixing a
    /// shape's shadings with another's; each card's colour and number (and shape, at three to a
    /// row) beside its row, its shading over its column.
    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40),
                      TerminalSize(columns: 40, rows: 12), TerminalSize(columns: 300, rows: 12)])
    func theGalleryIsALegendWithLabels(terminal: TerminalSize) throws {
        let gallery = try #require(CardGallery.render(terminal: terminal, theme: .standard))
        let size = try #require(CardGallery.cardSize(for: terminal))
        let lines = gallery.textLines.map { Array($0) }
        let arrangement = CardGallery.Arrangement(columns: terminal.columns, cardWidth: size.width)
        // Nine fit beside the labels whenever the width allows, and the rows show it.
        let nineFit = CardGallery.Arrangement.labelWidth + 9 * (size.width + 1) - 1 <= terminal.columns
        #expect(arrangement.perRow == (nineFit ? 9 : 3), "\(terminal)")
        var corners: [(column: Int, row: Int)] = []
        for (row, line) in lines.enumerated() {
            for (column, character) in line.enumerated() where character == "╭" { corners.append((column, row)) }
        }
        #expect(corners.count == 81)
        #expect(Dictionary(grouping: corners, by: \.row).values.allSatisfy { $0.count == arrangement.perRow })
        let boxes = Swift.Set("╭╮╰╯─│")
        for (index, corner) in corners.enumerated() {
            let card = CardGallery.order[index]
            let beside = (corner.row..<corner.row + size.height).map { String(lines[$0][0..<corner.column]) }.joined(separator: " ")
            let number = ["one", "two", "three"][card.number.rawValue]
            var words = [card.colour.word, number]
            if arrangement.perRow == 3 { words.append(card.shape.plural) }
            for word in words { #expect(beside.split(separator: " ").contains(Substring(word)), "\(card) at \(terminal): '\(beside)'") }
            // The nearest text above the card's column that is not a card is its shading.
            let header = (0..<corner.row).reversed().lazy.map { row in
                String(lines[row][corner.column..<min(lines[row].count, corner.column + size.width)]).trimmingCharacters(in: .whitespaces)
            }.first { !$0.isEmpty && !$0.contains(where: boxes.contains) && !$0.contains(where: CardArtTests.blockCharacters.contains) }
            #expect(header.map { card.shading.word.hasPrefix($0) } == true, "\(card) at \(terminal): '\(header ?? "")'")
        }
        #expect(gallery.textLines.allSatisfy { $0.count <= terminal.columns })
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
