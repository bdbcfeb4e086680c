/// An on-screen button and the command it stands for.
public enum ScreenButton: CaseIterable, Hashable, Sendable {
    case claim, deal, hint, pass, rematch, newGame, help, quit

    /// The words on the button.
    public var title: String {
        switch self {
        case .claim: "Set!"
        case .deal: "Deal 3"
        case .hint: "Hint"
        case .pass: "Pass"
        case .rematch: "Rematch"
        case .newGame: "New game"
        case .help: "Help"
        case .quit: "Quit"
        }
    }

    /// The key that does the same.
    public var key: String {
        switch self {
        case .claim: "s"
        case .deal: "d"
        case .hint: "c"
        case .pass: "p"
        case .rematch, .newGame: "r"
        case .help: "?"
        case .quit: "q"
        }
    }
}

/// Where everything goes on a screen of a given size: two status rows on top, the button row at
/// the bottom, the table in between, and the deck pile at the table's right when there is room.
/// The composer draws from it and the mouse is hit-tested against it, so both always agree.
public struct ScreenLayout: Hashable, Sendable {
    public let size: TerminalSize
    /// The rows above the table: the scoreboard and the status line.
    public static let headerRows = 2
    /// The row below the table: the buttons.
    public static let footerRows = 1

    public let tableArea: Rect
    /// Nil when the cards cannot fit at all: the screen is too small.
    public let table: TableLayout?
    public let deckPile: Rect?
    public let buttons: [(button: ScreenButton, rect: Rect)]

    /// Lays out `cardCount` cards and `buttons`; `deck` asks for a pile when it costs the cards
    /// nothing in size.
    public init(size: TerminalSize, cardCount: Int, buttons: [ScreenButton], deck: Bool) {
        self.size = size
        let area = Rect(column: 0, row: Self.headerRows, width: size.columns,
                        height: max(0, size.rows - Self.headerRows - Self.footerRows))
        tableArea = area
        let full = TableLayout(area: area, count: cardCount)
        var pile: Rect? = nil
        var chosen = full
        if deck, let full, cardCount > 0 {
            let size = full.cardSize
            // The pile takes a strip on the right: a card, a blank column each side.
            let strip = size.width + 2
            let narrower = Rect(column: area.column, row: area.row, width: area.width - strip, height: area.height)
            if narrower.width > 0, let squeezed = TableLayout(area: narrower, count: cardCount), squeezed.cardSize == size {
                chosen = squeezed
                pile = Rect(column: narrower.endColumn + 1, row: area.row + (area.height - size.height) / 2,
                            width: size.width, height: size.height)
            }
        }
        table = chosen
        deckPile = pile
        self.buttons = Self.place(buttons, row: size.rows - 1, width: size.columns)
    }

    /// The compact form drops nothing but the key hints when the row is narrow.
    static func text(of button: ScreenButton, compact: Bool) -> String {
        compact ? " \(button.title) " : " \(button.title) \(button.key) "
    }

    private static func place(_ buttons: [ScreenButton], row: Int, width: Int) -> [(button: ScreenButton, rect: Rect)] {
        guard row >= Self.headerRows else { return [] }
        let full = buttons.map { text(of: $0, compact: false).count }.reduce(0, +) + buttons.count
        let compact = full > width
        var column = 1
        var result: [(button: ScreenButton, rect: Rect)] = []
        for button in buttons {
            let length = text(of: button, compact: compact).count
            guard column + length <= width else { break }
            result.append((button, Rect(column: column, row: row, width: length, height: 1)))
            column += length + 1
        }
        return result
    }

    /// Whether the buttons show their keys.
    public var buttonsShowKeys: Bool {
        guard let first = buttons.first else { return false }
        return first.rect.width == Self.text(of: first.button, compact: false).count
    }

    /// The button under a cell.
    public func button(column: Int, row: Int) -> ScreenButton? {
        buttons.first { $0.rect.contains(column: column, row: row) }?.button
    }

    /// The card index under a cell.
    public func cardIndex(column: Int, row: Int) -> Int? {
        table?.cardIndex(column: column, row: row)
    }

    public static func == (lhs: ScreenLayout, rhs: ScreenLayout) -> Bool {
        lhs.size == rhs.size && lhs.table == rhs.table && lhs.deckPile == rhs.deckPile
            && lhs.buttons.map(\.button) == rhs.buttons.map(\.button) && lhs.buttons.map(\.rect) == rhs.buttons.map(\.rect)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(size.columns)
        hasher.combine(size.rows)
        hasher.combine(table)
        hasher.combine(deckPile)
    }
}
