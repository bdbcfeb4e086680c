import SetRules

/// How a card's symbols are drawn at a size: a small set of art tiers, chosen by the card's inside.
enum SymbolTier: Hashable, Sendable {
    /// One glyph per symbol on a single line, for cards too small for drawn shapes (5×3, 7×4, 9×5).
    case compact
    /// Drawn shapes of `width` × `height` pixels (two per cell each way), `gap` pixels apart.
    case drawn(width: Int, height: Int, gap: Int)

    /// The hand-drawn tiers, largest first, with the inside they need: 13×7 cards draw three
    /// 3×5-cell symbols side by side filling the card, 11×6 cards 2×4 (centred on 3). 9×5 cards
    /// show glyphs: drawn 2×3 cells, a diamond was a bar and solid and striped differed in one
    /// cell, where "◆ ◈ ◇" read apart at a glance.
    static let handDrawn: [(interior: TerminalSize, tier: SymbolTier)] = [
        (TerminalSize(columns: 11, rows: 5), .drawn(width: 6, height: 10, gap: 2)),
        (TerminalSize(columns: 9, rows: 4), .drawn(width: 4, height: 8, gap: 2)),
    ]

    /// Whether the symbols' pixels tell the shadings apart by 0.35 of their ink at least
    /// (CardLegibilityTests). Four pixels wide (11×6 cards) they cannot: every row's outline
    /// leaves striped within 0.27 of solid or open, so the card's bottom border says it in a word.
    var carriesShading: Bool {
        guard case .drawn(let width, _, _) = self else { return true }
        return width >= 6
    }

    /// The tier for a card's inside (the rect without its border).
    static func forInterior(_ interior: TerminalSize) -> SymbolTier {
        if interior.columns >= 13 && interior.rows >= 6 {
            // Sampled outlines from 15×8 up: even widths and gaps keep every symbol on the same
            // cell grid, so the three of a card look alike; about twice as tall as wide on screen.
            let gap = interior.columns >= 25 ? 4 : 2
            let room = 2 * interior.columns - 2 - 2 * gap
            let width = room / 3 - (room / 3) % 2
            let margin = interior.rows >= 8 ? 1 : 0
            let tallest = min(2 * interior.rows - 2 * margin, width * 9 / 5)
            // Even, like the canvas: an odd height leaves one pixel more below than above, which
            // becomes a blank row under the symbols and none over them (19 pixels in 24 at 27×14).
            return .drawn(width: width, height: tallest - tallest % 2, gap: gap)
        }
        for (need, tier) in handDrawn where interior.columns >= need.columns && interior.rows >= need.rows {
            return tier
        }
        return .compact
    }

    /// Where the symbols of a card with `count` symbols go on a pixel canvas of `interior`: the
    /// left pixel of each, and the top pixel row.
    func placement(count: Int, interior: TerminalSize) -> (lefts: [Int], top: Int)? {
        guard case .drawn(let width, let height, let gap) = self, count > 0 else { return nil }
        let pixelWidth = 2 * interior.columns, pixelHeight = 2 * interior.rows
        // Centred to the pixel, the spare pixel (if any) on the right, so one, two and three
        // symbols lean the same way. A symbol is drawn with the same characters on a card of
        // one, two or three when every symbol starts on the single one's pixel parity: the gap
        // widens (by up to three pixels, room allowing) until a centred block does so. Shifting
        // a centred block by a pixel for that instead put two symbols of a 9×5 card a whole
        // cell right of the middle. Where no gap does (three on a 9×5 card fill it), the
        // narrowest one, centred.
        let single = (pixelWidth - width) / 2
        var chosen: (gap: Int, left: Int)? = nil
        for wider in 0...3 {
            let tried = gap + wider
            let total = count * width + (count - 1) * tried
            guard total <= pixelWidth else { break }
            let left = (pixelWidth - total) / 2
            if count == 1 || ((width + tried) % 2 == 0 && left % 2 == single % 2) {
                chosen = (tried, left)
                break
            }
            if chosen == nil { chosen = (tried, left) }
        }
        let place = chosen ?? (gap, (pixelWidth - count * width - (count - 1) * gap) / 2)
        let top = (pixelHeight - height) / 2
        return ((0..<count).map { place.left + $0 * (width + place.gap) }, top)
    }
}

extension CardSize {
    /// Whether a card of this size draws its symbols in the middle of its inside, with as many
    /// blank rows above them as below. One line of glyphs cannot be centred in an even number of
    /// rows (7×4): `TableLayout` never chooses such a size. Shapes are drawn symmetric top to
    /// bottom, so the placement alone decides.
    var centresItsSymbols: Bool {
        let interior = TerminalSize(columns: width - 2, rows: height - 2)
        switch SymbolTier.forInterior(interior) {
        case .compact: return interior.rows % 2 == 1
        case .drawn(_, let symbolHeight, _): return (2 * interior.rows - symbolHeight) % 2 == 0
        }
    }
}

/// Draws cards into a screen buffer: a box whose lines show the card's state, the card's one to
/// three symbols in its ink and shading, its key label on the top border and, when the theme
/// asks, its colour letter on the bottom border. Nothing is ever drawn outside the card's rect.
enum CardArt {
    /// Draws `card` filling `rect`.
    static func draw(_ card: Card, in rect: Rect, into buffer: inout ScreenBuffer,
                            appearance: CardAppearance = .normal, theme: Theme = .standard,
                            label: String? = nil) {
        guard !rect.isEmpty else { return }
        // Drawing on a card-sized canvas first is what guarantees the neighbours stay untouched.
        var canvas = ScreenBuffer(size: rect.size)
        let box = canvas.bounds
        canvas.drawBox(box, lines: theme.borderLines(for: appearance), style: theme.borderStyle(for: appearance))
        let interior = box.insetBy(1)
        if appearance == .faceDown {
            let back = theme.backStyle
            canvas.fill(interior, with: back.pattern, style: back.style)
        } else {
            drawSymbols(of: card, in: interior, on: &canvas, theme: theme)
            if !SymbolTier.forInterior(interior.size).carriesShading {
                canvas.write(String(shadingWord(card.shading).prefix(max(0, box.width - 4))), column: 1, row: box.endRow - 1,
                             style: theme.ink(for: card.colour))
            }
            if theme.showsColourLetters {
                canvas.put(Theme.letter(for: card.colour), column: box.endColumn - 2, row: box.endRow - 1,
                           style: CellStyle(foreground: theme.ink(for: card.colour).foreground, bold: true))
            }
        }
        if let mark = theme.mark(for: appearance) {
            canvas.put(mark, column: box.endColumn - 2, row: 0, style: theme.borderStyle(for: appearance))
        }
        if let label, appearance != .faceDown {
            // Keep the top-right corner and mark visible even on the smallest card.
            let room = max(0, box.width - 3)
            canvas.write(String(label.prefix(room)), column: 1, row: 0, style: theme.labelStyle(for: appearance))
        }
        buffer.paste(canvas, column: rect.column, row: rect.row)
    }

    /// How many cells, at least, two cards of `symbols` symbols that differ only in shape or
    /// shading differ in at `cardSize`, drawn without colour: what "reads at a glance" means here
    /// (CardLegibilityTests holds every size to it). Per symbol, one cell on cards that show a glyph
    /// (5×3, 7×4, 9×5); from 11×6 up, one cell for every row of the inside but the two that
    /// hold the symbol's tips (alike in every shading), and never fewer than two.
    static func minimumDifference(cardSize: CardSize, symbols: Int) -> Int {
        let rows = cardSize.height - 2
        guard cardSize.height >= 6 else { return symbols }
        return symbols * max(2, rows - 2)
    }

    /// The word a card too small for its shading's pixels says it in, on its bottom border.
    static func shadingWord(_ shading: Shading) -> String {
        switch shading {
        case .solid: "solid"
        case .striped: "striped"
        case .open: "open"
        }
    }

    /// The single glyph for a symbol on compact cards (48 cards and more at 80×24): shading reads
    /// the same way on every shape, filled, marked inside, or hollow, so the nine combinations read
    /// apart at a glance without colour. The squiggle is a square here: one-cell waves (≋ ≈ ∼)
    /// differed only in how many strokes they had, which nobody counts on a full table.
    static func compactGlyph(_ shape: Shape, _ shading: Shading) -> Character {
        switch (shape, shading) {
        case (.diamond, .solid): "◆"
        case (.diamond, .striped): "◈"
        case (.diamond, .open): "◇"
        case (.oval, .solid): "●"
        case (.oval, .striped): "◐"
        case (.oval, .open): "○"
        case (.squiggle, .solid): "■"
        case (.squiggle, .striped): "◧"
        case (.squiggle, .open): "□"
        }
    }

    /// The characters of a card's symbols drawn at `tier` on an inside of `interior` cells.
    static func symbolCharacters(_ card: Card, tier: SymbolTier, interior: TerminalSize) -> [[Character]] {
        var pixels = PixelCanvas(columns: interior.columns, rows: interior.rows)
        guard case .drawn(let width, let height, _) = tier,
              let place = tier.placement(count: card.number.count, interior: interior) else { return pixels.characters }
        let symbol = SymbolArt.pixels(card.shape, card.shading, width: width, height: height)
        for left in place.lefts { pixels.stamp(symbol, x: left, y: place.top) }
        return pixels.characters
    }

    /// One symbol as a card of `cardSize` draws it, cropped to the cells it can cover: what the
    /// legend shows, cell for cell the same as on the table. Nil when that size draws glyphs.
    static func symbolCells(_ shape: Shape, _ shading: Shading, cardSize: CardSize) -> [[Character]]? {
        let interior = TerminalSize(columns: cardSize.width - 2, rows: cardSize.height - 2)
        let tier = SymbolTier.forInterior(interior)
        guard case .drawn(let width, let height, _) = tier,
              let place = tier.placement(count: 1, interior: interior), let left = place.lefts.first else { return nil }
        let rows = symbolCharacters(Card(.one, shading, .red, shape), tier: tier, interior: interior)
        let columns = (left / 2)...((left + width - 1) / 2)
        return rows[(place.top / 2)...((place.top + height - 1) / 2)].map { Array($0[columns]) }
    }

    private static func drawSymbols(of card: Card, in interior: Rect, on canvas: inout ScreenBuffer, theme: Theme) {
        guard !interior.isEmpty else { return }
        let count = card.number.count
        let ink = theme.ink(for: card.colour)
        let tier = SymbolTier.forInterior(interior.size)
        switch tier {
        case .compact:
            let glyph = compactGlyph(card.shape, card.shading)
            let spacing = interior.width >= 11 ? 2 : interior.width >= 5 ? 1 : 0
            let width = count + (count - 1) * spacing
            let left = interior.column + max(0, (interior.width - width) / 2)
            let row = interior.row + (interior.height - 1) / 2
            for i in 0..<count where left + i * (spacing + 1) < interior.endColumn {
                canvas.put(glyph, column: left + i * (spacing + 1), row: row, style: ink)
            }
        case .drawn:
            for (row, line) in symbolCharacters(card, tier: tier, interior: interior.size).enumerated() {
                for (column, character) in line.enumerated() where character != " " {
                    canvas.put(character, column: interior.column + column, row: interior.row + row, style: ink)
                }
            }
        }
    }
}
