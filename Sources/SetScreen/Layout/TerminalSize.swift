/// The size of a terminal or of an area of it, in character cells.
package struct TerminalSize: Hashable, Sendable {
    package var columns: Int
    package var rows: Int

    package init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The largest screen drawn. A terminal's size is whatever its far end says (through the ssh
    /// door, any ssh client, up to 65,535 × 65,535), and a screen's cells are held in memory: one
    /// claiming 6,000 × 6,000 made a door process hold 2 GB, and the largest crashed it. Past
    /// this, the screen is drawn in the terminal's top left corner. A 4K display at a small font
    /// shows some 550 × 150.
    package static let largestDrawn = TerminalSize(columns: 600, rows: 200)

    /// A terminal's reported size as it is drawn: `largestDrawn` at most, and 80 × 24 for a
    /// terminal that reports none (0 × 0).
    package static func drawn(columns: Int, rows: Int) -> TerminalSize {
        guard columns > 0, rows > 0 else { return TerminalSize(columns: 80, rows: 24) }
        return TerminalSize(columns: min(columns, largestDrawn.columns), rows: min(rows, largestDrawn.rows))
    }
}
