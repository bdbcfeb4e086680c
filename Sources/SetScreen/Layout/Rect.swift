/// A rectangle of cells: top-left corner plus size, in 0-based columns and rows.
struct Rect: Hashable, Sendable, CustomStringConvertible {
    var column: Int
    var row: Int
    var width: Int
    var height: Int

    init(column: Int, row: Int, width: Int, height: Int) {
        self.column = column
        self.row = row
        self.width = width
        self.height = height
    }

    /// A rectangle at the origin covering a whole size.
    init(size: TerminalSize) {
        self.init(column: 0, row: 0, width: size.columns, height: size.rows)
    }

    /// The column just past the right edge.
    var endColumn: Int { column + width }
    /// The row just past the bottom edge.
    var endRow: Int { row + height }
    /// True when the rectangle covers no cell.
    var isEmpty: Bool { width <= 0 || height <= 0 }
    /// The size of the rectangle, never negative.
    var size: TerminalSize { TerminalSize(columns: max(0, width), rows: max(0, height)) }

    /// True when the cell lies inside.
    func contains(column c: Int, row r: Int) -> Bool {
        c >= column && c < endColumn && r >= row && r < endRow
    }

    /// True when every cell of `other` lies inside this rectangle.
    func contains(_ other: Rect) -> Bool {
        other.isEmpty || (other.column >= column && other.endColumn <= endColumn
            && other.row >= row && other.endRow <= endRow)
    }

    /// The common part of two rectangles; empty (zero size) when they do not meet.
    func intersection(_ other: Rect) -> Rect {
        let left = max(column, other.column), top = max(row, other.row)
        let right = min(endColumn, other.endColumn), bottom = min(endRow, other.endRow)
        return Rect(column: left, row: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// True when the two rectangles share at least one cell.
    func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    /// The rectangle shrunk by `amount` cells on every side (may become empty).
    func insetBy(_ amount: Int) -> Rect {
        Rect(column: column + amount, row: row + amount,
             width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }

    var description: String { "(\(column),\(row) \(width)x\(height))" }
}
