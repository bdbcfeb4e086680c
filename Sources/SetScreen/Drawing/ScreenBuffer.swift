/// A grid of styled cells the size of a terminal (or of a part of one). Every write clips at the
/// edges, so callers may draw at any coordinate without checking.
package struct ScreenBuffer: Hashable, Sendable {
    /// The grid's size; negative sizes are stored as zero.
    let size: TerminalSize
    private var cells: [Cell]

    /// A grid of `size` filled with `fill`.
    init(size: TerminalSize, fill: Cell = .blank) {
        self.size = TerminalSize(columns: max(0, size.columns), rows: max(0, size.rows))
        cells = Array(repeating: fill, count: self.size.columns * self.size.rows)
    }

    /// The rectangle covering the whole grid.
    var bounds: Rect { Rect(size: size) }

    /// The cell at a position, or nil outside the grid.
    func cell(column: Int, row: Int) -> Cell? {
        guard bounds.contains(column: column, row: row) else { return nil }
        return cells[row * size.columns + column]
    }

    /// The cell at a position; reading outside gives a blank, writing outside is ignored.
    subscript(column: Int, row: Int) -> Cell {
        get { cell(column: column, row: row) ?? .blank }
        set {
            guard bounds.contains(column: column, row: row) else { return }
            cells[row * size.columns + column] = newValue
        }
    }

    /// Puts one character at a position, ignored outside the grid. A character wider than one
    /// cell takes as many as it is wide (a space when it would not fit): its first cell holds it,
    /// the others are its tail; a character that takes no width on its own is drawn as a space.
    /// The rest of a wide character that is partly overwritten becomes spaces.
    mutating func put(_ character: Character, column: Int, row: Int, style: CellStyle = .plain) {
        guard bounds.contains(column: column, row: row) else { return }
        let width = character.cellWidth
        breakWide(column: column, row: row)
        guard width >= 2 else {
            self[column, row] = Cell(width == 0 ? " " : character, style: style)
            return
        }
        guard column + width <= size.columns else {
            self[column, row] = Cell(" ", style: style)
            return
        }
        for tail in column + 1..<column + width { breakWide(column: tail, row: row) }
        self[column, row] = Cell(character, style: style)
        for tail in column + 1..<column + width { self[tail, row] = .wideTail(style) }
    }

    /// Before a cell is overwritten: the other cells of a wide character it belongs to are cleared.
    private mutating func breakWide(column: Int, row: Int) {
        var lead = column
        while lead > 0, self[lead, row].isWideTail { lead -= 1 }
        if lead < column { self[lead, row] = Cell(" ", style: self[lead, row].style) }
        var tail = lead + 1
        while tail < size.columns, self[tail, row].isWideTail {
            self[tail, row] = Cell(" ", style: self[tail, row].style)
            tail += 1
        }
    }

    /// Writes text left to right from a position without wrapping; parts outside are dropped.
    /// Control characters are drawn as spaces so they can never reach the terminal; each
    /// character takes as many cells as the terminal gives it.
    mutating func write(_ text: String, column: Int, row: Int, style: CellStyle = .plain) {
        guard row >= 0, row < size.rows else { return }
        var c = column
        for character in text {
            let shown: Character = character.isPrintable ? character : " "
            let width = shown.cellWidth
            if width == 0 { continue }
            if c + width > size.columns { break }
            put(shown, column: c, row: row, style: style)
            c += width
        }
    }

    /// Fills every cell of `rect` that lies inside the grid.
    mutating func fill(_ rect: Rect, with character: Character = " ", style: CellStyle = .plain) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for r in area.row..<area.endRow {
            for c in area.column..<area.endColumn { put(character, column: c, row: r, style: style) }
        }
    }

    /// Draws the outline of `rect` with the given line set; the inside is left untouched.
    mutating func drawBox(_ rect: Rect, lines: BoxLines = .rounded, style: CellStyle = .plain) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let g = lines.glyphs
        let right = rect.endColumn - 1, bottom = rect.endRow - 1
        for c in (rect.column + 1)..<right {
            put(g.horizontal, column: c, row: rect.row, style: style)
            put(g.horizontal, column: c, row: bottom, style: style)
        }
        for r in (rect.row + 1)..<bottom {
            put(g.vertical, column: rect.column, row: r, style: style)
            put(g.vertical, column: right, row: r, style: style)
        }
        put(g.topLeft, column: rect.column, row: rect.row, style: style)
        put(g.topRight, column: right, row: rect.row, style: style)
        put(g.bottomLeft, column: rect.column, row: bottom, style: style)
        put(g.bottomRight, column: right, row: bottom, style: style)
    }

    /// The characters of each row without styles, trailing spaces kept, as a terminal shows them
    /// (a wide character's tail adds nothing); for tests and logs.
    var textLines: [String] {
        (0..<size.rows).map { r in
            String(cells[(r * size.columns)..<((r + 1) * size.columns)].filter { !$0.isWideTail }.map(\.character))
        }
    }
}

extension ScreenBuffer {
    /// Copies another grid in with its top-left corner at a position, clipped to this grid.
    mutating func paste(_ other: ScreenBuffer, column: Int, row: Int) {
        for r in 0..<other.size.rows {
            for c in 0..<other.size.columns {
                self[column + c, row + r] = other[c, r]
            }
        }
    }
}
