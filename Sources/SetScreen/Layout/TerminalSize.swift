/// The size of a terminal or of an area of it, in character cells.
package struct TerminalSize: Hashable, Sendable {
    package var columns: Int
    package var rows: Int

    package init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}
