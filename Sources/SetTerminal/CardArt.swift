import SetRules

/// How big a card's symbols are drawn.
public enum SymbolTier: Hashable, Sendable {
    /// One glyph per symbol on a single line, for cards too small for drawn shapes.
    case compact
    /// Drawn shapes of this many cells each, side by side with `gap` blank columns between.
    case drawn(width: Int, height: Int, gap: Int)

    /// Drawn shapes need at least this many cells to look like their shape.
    static let minimumDrawnWidth = 3
    static let minimumDrawnHeight = 4

    /// The tier for a card's inside (the rect without its border).
    public static func forInterior(_ interior: TerminalSize) -> SymbolTier {
        let gap = interior.columns >= 25 ? 2 : 1
        // One blank column of paper each side, three symbols and two gaps across.
        let width = (interior.columns - 2 - 2 * gap) / 3
        // Real Set symbols are about twice as long as wide; a cell is about twice as tall as wide.
        let height = min(interior.rows - 2, width * 3 / 2)
        guard width >= minimumDrawnWidth, height >= minimumDrawnHeight else { return .compact }
        return .drawn(width: width, height: height, gap: gap)
    }
}

/// Draws cards into a screen buffer: a box whose lines show the card's state, the card's one to
/// three symbols in its ink and shading, its key label on the top border and, when the theme
/// asks, its colour letter on the bottom border. Nothing is ever drawn outside the card's rect.
public enum CardArt {
    /// Draws `card` filling `rect`.
    public static func draw(_ card: Card, in rect: Rect, into buffer: inout ScreenBuffer,
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

    /// The single glyph for a symbol on compact cards: a distinct glyph for every shape and
    /// shading, so the nine combinations read apart even without colour.
    public static func compactGlyph(_ shape: Shape, _ shading: Shading) -> Character {
        switch (shape, shading) {
        case (.diamond, .solid): "◆"
        case (.diamond, .striped): "◈"
        case (.diamond, .open): "◇"
        case (.oval, .solid): "●"
        case (.oval, .striped): "◍"
        case (.oval, .open): "○"
        case (.squiggle, .solid): "≋"
        case (.squiggle, .striped): "≈"
        case (.squiggle, .open): "∼"
        }
    }

    private static func drawSymbols(of card: Card, in interior: Rect, on canvas: inout ScreenBuffer, theme: Theme) {
        guard !interior.isEmpty else { return }
        let count = card.number.count
        let ink = theme.ink(for: card.colour)
        switch SymbolTier.forInterior(interior.size) {
        case .compact:
            let glyph = compactGlyph(card.shape, card.shading)
            let spacing = interior.width >= 11 ? 2 : interior.width >= 5 ? 1 : 0
            let width = count + (count - 1) * spacing
            let left = interior.column + max(0, (interior.width - width) / 2)
            let row = interior.row + (interior.height - 1) / 2
            for i in 0..<count where left + i * (spacing + 1) < interior.endColumn {
                canvas.put(glyph, column: left + i * (spacing + 1), row: row, style: ink)
            }
        case .drawn(let width, let height, let gap):
            let art = SymbolArt.rows(card.shape, card.shading, width: width, height: height)
            let total = count * width + (count - 1) * gap
            let left = interior.column + (interior.width - total) / 2
            let top = interior.row + (interior.height - height) / 2
            for i in 0..<count {
                for (r, line) in art.enumerated() {
                    for (c, character) in line.enumerated() where character != " " {
                        canvas.put(character, column: left + i * (width + gap) + c, row: top + r, style: ink)
                    }
                }
            }
        }
    }
}
