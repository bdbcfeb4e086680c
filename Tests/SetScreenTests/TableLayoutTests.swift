import Testing
@testable import SetScreen

@Suite struct TableLayoutTests {
    static let areas = [
        TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 78, rows: 20),
        TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60),
    ]
    static let counts = [1, 3, 12, 15, 21, 27, 81]

    static func layout(_ area: TerminalSize, _ count: Int) throws -> TableLayout {
        try #require(TableLayout(area: area, count: count), "\(area) with \(count) cards")
    }

    @Test(arguments: areas)
    func everyCardFitsAndNoneOverlap(area: TerminalSize) throws {
        for count in Self.counts {
            let layout = try Self.layout(area, count)
            #expect(layout.cardRects.count == count)
            for (i, rect) in layout.cardRects.enumerated() {
                #expect(Rect(size: area).contains(rect), "\(area) \(count): card \(i) at \(rect)")
                #expect(rect.width == layout.cardSize.width && rect.height == layout.cardSize.height)
                for other in layout.cardRects[(i + 1)...] {
                    #expect(!rect.intersects(other), "\(area) \(count): \(rect) meets \(other)")
                }
            }
        }
    }

    @Test func everySizeFollowsOneShapeFormula() {
        for size in CardSize.all {
            #expect(size.width == 2 * size.height - 1)
        }
        #expect(CardSize.all.first?.height == 3 && CardSize.all.first?.width == 5)
        #expect(CardSize(height: 1) == CardSize(height: CardSize.minimumHeight))
        #expect(CardSize(height: 99) == CardSize(height: CardSize.maximumHeight))
    }

    @Test(arguments: counts)
    func biggerAreaNeverGivesSmallerCards(count: Int) throws {
        var previous: CardSize? = nil
        for columns in stride(from: 70, through: 220, by: 7) {
            let rows = columns * 3 / 10
            let layout = try Self.layout(TerminalSize(columns: columns, rows: rows), count)
            if let previous { #expect(layout.cardSize >= previous, "\(columns)x\(rows), \(count) cards") }
            previous = layout.cardSize
        }
        for rows in 20...60 {
            let small = try Self.layout(TerminalSize(columns: 120, rows: rows), count)
            let large = try Self.layout(TerminalSize(columns: 120, rows: rows + 1), count)
            #expect(large.cardSize >= small.cardSize)
        }
    }

    @Test func cardsAreAsLargeAsPossible() throws {
        for area in Self.areas {
            for count in Self.counts {
                let layout = try Self.layout(area, count)
                guard layout.cardSize.height < CardSize.maximumHeight else { continue }
                // One size up must not fit in any grid with any allowed gap, or we chose too small.
                let bigger = CardSize(height: layout.cardSize.height + 1)
                let fits = (1...count).contains { rows in
                    let columns = (count + rows - 1) / rows
                    return columns * bigger.width + (columns - 1) <= area.columns
                        && rows * bigger.height <= area.rows
                }
                #expect(!fits, "\(area), \(count) cards: \(bigger.width)x\(bigger.height) would fit")
            }
        }
    }

    @Test func twelveCardsAre3RowsBy4ColumnsAndFillTheArea() throws {
        let layout = try Self.layout(TerminalSize(columns: 120, rows: 40), 12)
        #expect(layout.rows == 3 && layout.columns == 4)
        let used = 12 * layout.cardSize.width * layout.cardSize.height
        #expect(Double(used) / Double(120 * 40) > 0.6)
        let small = try Self.layout(TerminalSize(columns: 80, rows: 24), 12)
        #expect(small.rows == 3 && small.columns == 4)
    }

    @Test func wholeDeckFitsA80x24TerminalAtTheSmallestSize() throws {
        let full = try Self.layout(TerminalSize(columns: 80, rows: 24), 81)
        #expect(full.cardSize.height >= 3 && full.cardSize.width >= 5)
        #expect(full.columnGap >= 1)
        // With a status line and a prompt taken away the cards touch but still fit.
        let table = try Self.layout(TerminalSize(columns: 78, rows: 20), 81)
        #expect(table.cardSize == CardSize(height: 3))
    }

    @Test func dealingThreeMoreKeepsCardsInTheirGridSlots() throws {
        let twelve = try Self.layout(TerminalSize(columns: 120, rows: 40), 12)
        let fifteen = try Self.layout(TerminalSize(columns: 120, rows: 40), 15)
        #expect(twelve.rows == fifteen.rows)
        // Column-major: card i sits in row i % rows in both.
        for i in 0..<12 {
            #expect((twelve.cardRects[i].row - twelve.cardRects[0].row) / (twelve.cardSize.height + twelve.rowGap)
                == i % twelve.rows)
        }
    }

    @Test func cardsAreCentredInTheArea() throws {
        let area = Rect(column: 3, row: 2, width: 100, height: 30)
        let layout = try #require(TableLayout(area: area, count: 12))
        let left = layout.cardRects.map(\.column).min()!, right = layout.cardRects.map(\.endColumn).max()!
        let top = layout.cardRects.map(\.row).min()!, bottom = layout.cardRects.map(\.endRow).max()!
        #expect(abs((left - area.column) - (area.endColumn - right)) <= 1)
        #expect(abs((top - area.row) - (area.endRow - bottom)) <= 1)
    }

    @Test func hitTestingFindsTheCardUnderTheMouse() throws {
        let layout = try Self.layout(TerminalSize(columns: 80, rows: 24), 12)
        for (i, rect) in layout.cardRects.enumerated() {
            #expect(layout.cardIndex(column: rect.column, row: rect.row) == i)
            #expect(layout.cardIndex(column: rect.endColumn - 1, row: rect.endRow - 1) == i)
        }
        #expect(layout.cardIndex(column: layout.cardRects[0].endColumn, row: layout.cardRects[0].row) == nil)
    }

    /// A game's cards keep one size as the table thins out: at 80×24 they stayed 13×7 only
    /// while 12 were out, then grew to 15×8 and 19×10 for the last sets.
    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 60, rows: 20),
                      TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60)])
    func cardsKeepTheDealsSizeAsTheTableThinsOut(terminal: TerminalSize) throws {
        let buttons: [ScreenButton] = [.claim, .deal, .hint, .pass, .help, .quit]
        func size(_ count: Int) throws -> CardSize {
            try #require(ScreenLayout(size: terminal, cardCount: count, buttons: buttons, deck: true).table?.cardSize, "\(count)")
        }
        let dealt = try size(12)
        for count in [1, 2, 3, 4, 6, 7, 9, 10, 11] {
            #expect(try size(count) == dealt, "\(count) cards at \(terminal.columns)×\(terminal.rows)")
        }
        for count in [15, 18, 21] { #expect(try size(count) <= dealt) }
        // The table alone still gives a few cards all the room there is.
        #expect(try Self.layout(terminal, 3).cardSize > dealt || dealt == CardSize(height: CardSize.maximumHeight))
    }

    @Test func noCardsAndNoRoom() {
        #expect(TableLayout(area: TerminalSize(columns: 80, rows: 24), count: 0)?.cardRects == [])
        #expect(TableLayout(area: TerminalSize(columns: 4, rows: 2), count: 1) == nil)
        #expect(TableLayout(area: TerminalSize(columns: 40, rows: 10), count: 81) == nil)
    }
}
