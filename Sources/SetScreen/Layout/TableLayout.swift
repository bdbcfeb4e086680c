/// Where each card of the table goes inside an area of the screen: the largest card size at which
/// all cards fit, in a grid shaped like the area, centred.
///
/// Cards fill the grid column by column (top to bottom, then the next column), so that dealing
/// three more cards onto 3 rows adds a column and leaves the earlier cards in their grid slots.
struct TableLayout: Hashable, Sendable {
    /// The area the table was laid out in.
    let area: Rect
    /// The size every card is drawn at.
    let cardSize: CardSize
    let columns: Int
    let rows: Int
    /// Blank columns between neighbouring cards.
    let columnGap: Int
    /// Blank rows between neighbouring cards.
    let rowGap: Int
    /// One rectangle per card index, all inside `area`, none overlapping.
    let cardRects: [Rect]

    /// Gap choices from roomiest to tightest, with how much each is disliked. No gap at all is a
    /// last resort for the smallest cards: their own borders still keep them apart.
    private static let gapChoices: [(columns: Int, rows: Int, penalty: Double)] = [
        (2, 1, 0), (1, 1, 0.1), (1, 0, 0.5), (0, 0, 1.5),
    ]

    /// The sizes a table may be drawn at, smallest first: those that centre their symbols, so a
    /// table too crowded for 9×5 cards shows 5×3 ones, never 7×4 ones with glyphs on the top row.
    static let sizes = CardSize.all.filter(\.centresItsSymbols)

    /// The smallest cards a player deals into: 9×5, the smallest with a blank column between their
    /// glyphs and between cards (5×3 cards touch and pack "◆◆◆"). 30 of them fit 80×24, so 24
    /// (and 21, which always hold a set) have room; a deal that needs smaller cards is refused on
    /// that screen. Smaller cards still show a table dealt on a larger screen, or one the terminal
    /// shrank under.
    static let smallestReadable = CardSize(height: 5)

    /// Lays out `count` cards (0–81) in `area`; nil when even the smallest cards cannot fit.
    /// With `steady`, cards are never larger than `steady` cards would be in `area`: a game keeps
    /// one card size as its table thins out, instead of growing the last cards.
    init?(area: Rect, count: Int, steady: Int = 0) {
        let count = max(0, count)
        guard count > 0 else {
            self.init(area: area, cardSize: CardSize(height: CardSize.minimumHeight),
                      columns: 0, rows: 0, gaps: (0, 0), count: 0)
            return
        }
        let largest = steady > count ? TableLayout(area: area, count: steady)?.cardSize : nil
        for size in Self.sizes.reversed() where largest.map({ size <= $0 }) ?? true {
            if let best = Self.bestGrid(for: count, size: size, in: area) {
                self.init(area: area, cardSize: size, columns: best.columns, rows: best.rows,
                          gaps: best.gaps, count: count)
                return
            }
        }
        return nil
    }

    /// Lays out `count` cards in an area at the top-left of the screen.
    init?(area: TerminalSize, count: Int) {
        self.init(area: Rect(size: area), count: count)
    }

    private init(area: Rect, cardSize: CardSize, columns: Int, rows: Int,
                 gaps: (columns: Int, rows: Int), count: Int) {
        self.area = area
        self.cardSize = cardSize
        self.columns = columns
        self.rows = rows
        columnGap = gaps.columns
        rowGap = gaps.rows
        let blockWidth = columns * cardSize.width + max(0, columns - 1) * gaps.columns
        let blockHeight = rows * cardSize.height + max(0, rows - 1) * gaps.rows
        let left = area.column + (area.width - blockWidth) / 2
        let top = area.row + (area.height - blockHeight) / 2
        cardRects = (0..<count).map { index in
            Rect(column: left + index / rows * (cardSize.width + gaps.columns),
                 row: top + index % rows * (cardSize.height + gaps.rows),
                 width: cardSize.width, height: cardSize.height)
        }
    }

    /// The card index under a screen cell, for mouse clicks; nil over gaps and empty space.
    func cardIndex(column: Int, row: Int) -> Int? {
        cardRects.firstIndex { $0.contains(column: column, row: row) }
    }

    private static func bestGrid(for count: Int, size: CardSize, in area: Rect)
        -> (columns: Int, rows: Int, gaps: (columns: Int, rows: Int))? {
        guard area.width > 0, area.height > 0 else { return nil }
        let areaShape = Double(area.width) / Double(area.height)
        var best: (score: Double, columns: Int, rows: Int, gaps: (columns: Int, rows: Int))? = nil
        for gap in gapChoices where gap.columns > 0 || size.height == CardSize.minimumHeight {
            for rows in 1...count {
                let columns = (count + rows - 1) / rows
                // A shape with an empty last column as large as a full one is the next shape.
                guard (columns - 1) * rows < count else { continue }
                let width = columns * size.width + (columns - 1) * gap.columns
                let height = rows * size.height + (rows - 1) * gap.rows
                guard width <= area.width, height <= area.height else { continue }
                let ratio = Double(width) / Double(height) / areaShape
                let shapeMismatch = max(ratio, 1 / ratio) - 1
                let emptySlots = Double(columns * rows - count) / Double(rows)
                // Set is dealt in threes: with a multiple of 3 rows each deal fills a new column.
                let dealPenalty = rows % 3 == 0 ? 0 : 0.3
                let score = shapeMismatch + emptySlots + dealPenalty + gap.penalty
                if best == nil || score < best!.score {
                    best = (score, columns, rows, (gap.columns, gap.rows))
                }
            }
        }
        return best.map { ($0.columns, $0.rows, $0.gaps) }
    }
}
