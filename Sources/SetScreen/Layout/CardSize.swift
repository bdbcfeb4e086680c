/// A card's size in cells. Width follows height by one formula, so cards keep the same shape at
/// every size: a cell is about twice as tall as wide, which makes `2h − 1` columns roughly square.
struct CardSize: Hashable, Sendable, Comparable {
    /// Rows, including the top and bottom border.
    let height: Int

    /// The smallest card: border, one line of compact glyphs, border.
    static let minimumHeight = 3
    /// Beyond this the art stops growing and the card would only be empty paper.
    static let maximumHeight = 17

    /// The size for a height, clamped to the supported range.
    init(height: Int) {
        self.height = min(max(height, Self.minimumHeight), Self.maximumHeight)
    }

    /// Columns, including the left and right border.
    var width: Int { 2 * height - 1 }

    /// Every supported size, smallest first.
    static let all: [CardSize] = (minimumHeight...maximumHeight).map { CardSize(height: $0) }

    static func < (lhs: CardSize, rhs: CardSize) -> Bool { lhs.height < rhs.height }
}
