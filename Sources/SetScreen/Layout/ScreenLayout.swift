/// An on-screen button and the command it stands for.
enum ScreenButton: CaseIterable, Hashable, Sendable {
    case claim, deal, hint, pass, rematch, newGame, help, quit
    /// Solo's deal, named for what it claims: free when no set is there, the deal penalty when one is.
    case noSet

    /// The words on the button.
    var title: String {
        switch self {
        case .claim: "Set!"
        case .deal: "Deal 3"
        case .noSet: "No set here?"
        case .hint: "Hint"
        case .pass: "Pass"
        case .rematch: "Rematch"
        case .newGame: "New game"
        case .help: "Help"
        case .quit: "Quit"
        }
    }

    /// The key that does the same.
    var key: String {
        switch self {
        case .claim: "s"
        case .deal, .noSet: "d"
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
package struct ScreenLayout: Hashable, Sendable {
    let size: TerminalSize
    /// The rows above the table: the scoreboard and the status line.
    static let headerRows = 2
    /// The row below the table: the buttons.
    static let footerRows = 1
    /// While the deck still has cards, fewer cards than a deal of 12 keep the size 12 have (a
    /// taken set is refilled at once, so the table would only flicker larger between deals); more
    /// cards shrink them when they must. Once the deck is empty the cards left grow into the
    /// room the taken ones free (13×7 → 15×8 → 19×10 at 80×24), as the assignments ask.
    static let steadyCount = 12
    /// Below this the client shows only how large the terminal must be.
    static let smallest = TerminalSize(columns: 20, rows: 6)

    let tableArea: Rect
    /// Nil when the cards cannot fit at all: the screen is too small.
    let table: TableLayout?
    let deckPile: Rect?
    let buttons: [(button: ScreenButton, rect: Rect)]
    /// The form the buttons are written in.
    let buttonForm: ButtonForm
    /// The rows under the table kept for the last chat lines; nil when none could be spared.
    let chatStrip: Rect?

    /// Lays out `cardCount` cards and `buttons`; `deck` asks for a pile when it costs the cards
    /// nothing in size, `chatRows` for rows of chat under the table (as many as fit, up to that,
    /// each only when it costs the cards nothing in size), and `strip` for the pile's strip even at
    /// that cost (Set-Chain's chain lies there: a line of names in its place had no row of its own
    /// and was written over the cards).
    /// `deckEmpty` lets the cards grow as the table thins out (see `steadyCount`).
    init(size: TerminalSize, cardCount: Int, buttons: [ScreenButton], deck: Bool, chatRows: Int = 0, strip: Bool = false,
         deckEmpty: Bool = false) {
        self.size = size
        let steady = deckEmpty ? 0 : Self.steadyCount
        var area = Rect(column: 0, row: Self.headerRows, width: size.columns,
                        height: max(0, size.rows - Self.headerRows - Self.footerRows))
        var chatRect: Rect? = nil
        if chatRows > 0, let whole = TableLayout(area: area, count: cardCount, steady: steady) {
            for rows in stride(from: min(chatRows, area.height - 1), to: 0, by: -1) {
                let shorter = Rect(column: area.column, row: area.row, width: area.width, height: area.height - rows)
                guard TableLayout(area: shorter, count: cardCount, steady: steady)?.cardSize == whole.cardSize else { continue }
                chatRect = Rect(column: area.column, row: shorter.endRow, width: area.width, height: rows)
                area = shorter
                break
            }
        }
        chatStrip = chatRect
        tableArea = area
        let full = TableLayout(area: area, count: cardCount, steady: steady)
        var pile: Rect? = nil
        var chosen = full
        if deck, let full, cardCount > 0 {
            let size = full.cardSize
            // The pile takes a strip on the right: a card, a blank column each side.
            let stripWidth = size.width + 2
            let narrower = Rect(column: area.column, row: area.row, width: area.width - stripWidth, height: area.height)
            if narrower.width > 0, let squeezed = TableLayout(area: narrower, count: cardCount, steady: steady),
               squeezed.cardSize == size {
                chosen = squeezed
                pile = Rect(column: narrower.endColumn + 1, row: area.row + (area.height - size.height) / 2,
                            width: size.width, height: size.height)
            } else if strip, narrower.width > 0, let squeezed = TableLayout(area: narrower, count: cardCount, steady: steady) {
                let smaller = squeezed.cardSize
                chosen = squeezed
                pile = Rect(column: narrower.endColumn + 1, row: area.row + (area.height - smaller.height) / 2,
                            width: smaller.width, height: smaller.height)
            }
        }
        table = chosen
        deckPile = pile
        buttonForm = Self.form(for: buttons, width: size.columns)
        self.buttons = Self.place(buttons, form: buttonForm, row: size.rows - 1, width: size.columns)
    }

    /// How the buttons are written: as roomy as the row allows, keeping the keys down to 40 columns.
    enum ButtonForm: CaseIterable, Hashable, Sendable {
        /// " Deal 3 d ": the title, then its key.
        case full
        /// "d Deal": the key, then a short word.
        case short
        /// " d ": the key alone.
        case key
    }

    /// The short word of a button, for narrow rows.
    static func shortTitle(of button: ScreenButton) -> String {
        switch button {
        case .claim: "Set"
        case .deal: "Deal"
        case .noSet: "No set?"
        case .newGame: "New"
        default: button.title
        }
    }

    /// The text of a button in a form.
    static func text(of button: ScreenButton, form: ButtonForm) -> String {
        switch form {
        case .full: " \(button.title) \(button.key) "
        case .short: "\(button.key) \(shortTitle(of: button))"
        case .key: " \(button.key) "
        }
    }

    /// The form the row uses for `buttons` in `width` columns.
    static func form(for buttons: [ScreenButton], width: Int) -> ButtonForm {
        for form in ButtonForm.allCases {
            // The full form keeps a blank column at the left edge; the tighter ones start at 0.
            let start = form == .full ? 1 : 0
            if start + buttons.map({ text(of: $0, form: form).count }).reduce(0, +) + buttons.count - 1 <= width { return form }
        }
        return .key
    }

    private static func place(_ buttons: [ScreenButton], form: ButtonForm, row: Int, width: Int) -> [(button: ScreenButton, rect: Rect)] {
        guard row >= Self.headerRows else { return [] }
        var column = form == .full ? 1 : 0
        var result: [(button: ScreenButton, rect: Rect)] = []
        for button in buttons {
            let length = text(of: button, form: form).count
            guard column + length <= width else { break }
            result.append((button, Rect(column: column, row: row, width: length, height: 1)))
            column += length + 1
        }
        return result
    }


    /// Whether the buttons show their keys (they always do, in every form).
    var buttonsShowKeys: Bool { !buttons.isEmpty }

    /// The smallest terminal that shows `cardCount` cards with the fewest rows at a width of
    /// `columns` (or, when no width that narrow will do, the narrowest that will): the size "too
    /// small" asks for. The cards are then the smallest, 5×3, and may touch.
    package static func minimumSize(cardCount: Int, columns: Int) -> TerminalSize {
        let count = max(1, min(81, cardCount))
        let card = CardSize(height: CardSize.minimumHeight)
        let floor = TerminalSize(columns: 20, rows: 6)
        var best: TerminalSize? = nil, narrowest: TerminalSize? = nil
        for rows in 1...count {
            let gridColumns = (count + rows - 1) / rows
            guard (gridColumns - 1) * rows < count else { continue }
            let size = TerminalSize(columns: max(floor.columns, gridColumns * card.width),
                                    rows: max(floor.rows, rows * card.height + headerRows + footerRows))
            if size.columns <= columns, best.map({ size.rows < $0.rows }) ?? true { best = size }
            if narrowest.map({ size.columns < $0.columns }) ?? true { narrowest = size }
        }
        return best ?? narrowest ?? floor
    }

    /// The button under a cell.
    func button(column: Int, row: Int) -> ScreenButton? {
        buttons.first { $0.rect.contains(column: column, row: row) }?.button
    }

    /// The card index under a cell.
    func cardIndex(column: Int, row: Int) -> Int? {
        table?.cardIndex(column: column, row: row)
    }

    package static func == (lhs: ScreenLayout, rhs: ScreenLayout) -> Bool {
        lhs.size == rhs.size && lhs.table == rhs.table && lhs.deckPile == rhs.deckPile && lhs.chatStrip == rhs.chatStrip
            && lhs.buttons.map(\.button) == rhs.buttons.map(\.button) && lhs.buttons.map(\.rect) == rhs.buttons.map(\.rect)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(size.columns)
        hasher.combine(size.rows)
        hasher.combine(table)
        hasher.combine(deckPile)
    }
}
