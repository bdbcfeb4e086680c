/// What a key or a click asks the client to do.
enum ClientCommand: Hashable, Sendable {
    /// Touch the card at a table index: select it, or deselect it.
    case toggle(Int)
    /// A key that may be (part of) a card's label.
    case label(Character)
    /// Move the cursor by columns and rows of the table grid.
    case move(columns: Int, rows: Int)
    /// Touch the card under the cursor (showing the cursor first if it was hidden).
    case toggleCursor
    /// Call "Set!".
    case claim
    case deal
    case hint
    case pass
    /// Ask for a rematch, or in solo a new game (asking first while one is being played).
    case rematch
    case resign
    /// Show or hide the help overlay.
    case help
    /// Close whatever overlay or half-typed label is open.
    case dismiss
    /// Quit, asking first in the middle of a duel.
    case quit
    /// Quit at once (Ctrl-C, or confirming).
    case quitNow
    /// Spectator's list: move the highlight.
    case pickerMove(Int)
    /// Spectator's list: watch the highlighted match, or the one at an index.
    case pick(Int?)
    /// The player is ready for a local match to begin.
    case start
    /// Take over a kept seat that another connection still holds.
    case takeOver
    /// Open the one-line chat input.
    case openChat
}

/// What the input mapper needs to know about the screen to read a key or a click.
struct InputContext: Hashable, Sendable {
    var isPlayer: Bool
    var overlay: Overlay?
    /// The spectator's match list is showing, with this many rows.
    var pickerRows: Int?
    /// How many of the list's rows are scrolled out of view above.
    var pickerScroll = 0
    var layout: ScreenLayout
    /// A local match waits for the player's first key.
    var awaitingStart: Bool
    /// Set-Chain: where the chain's cards are drawn; a click there touches the card after the table's.
    var chainRects: [Rect]

    init(isPlayer: Bool, overlay: Overlay? = nil, pickerRows: Int? = nil, layout: ScreenLayout, awaitingStart: Bool = false,
                chainRects: [Rect] = []) {
        self.chainRects = chainRects
        self.isPlayer = isPlayer
        self.overlay = overlay
        self.pickerRows = pickerRows
        self.layout = layout
        self.awaitingStart = awaitingStart
    }
}

/// Keys and clicks to commands: a pure function of the event and what is on screen.
///
/// Command keys: arrows or h/j/k/l move, space touches the card under the cursor, s or Enter calls
/// "Set!", d deals three, c shows a hint, p passes, r asks for a rematch (solo: a new game), ? shows
/// help, / opens the chat line, q or Ctrl-C quits, Esc closes what is open. Every other key may be a card's label.
enum InputMapper {
    static func command(for event: InputEvent, in context: InputContext) -> ClientCommand? {
        if event == .key(.ctrl("c")) { return .quitNow }
        switch event {
        case .key(let key): return command(for: key, in: context)
        case .mouse(let mouse): return command(for: mouse, in: context)
        }
    }

    /// The command for a picker row under the list's first row; the composer draws rows there.
    static let pickerFirstRow = ScreenLayout.headerRows + 2

    private static func command(for key: Key, in context: InputContext) -> ClientCommand? {
        if case .confirmTakeOver = context.overlay {
            switch key {
            case .character("y"), .enter: return .takeOver
            case .character("n"), .character("q"), .escape: return .quitNow
            default: return nil
            }
        }
        if let overlay = context.overlay {
            switch (overlay, key) {
            case (_, .character("q")): return overlay == .confirmQuit ? .quitNow : .quit
            case (.confirmQuit, .character("y")), (.confirmQuit, .enter): return .quitNow
            case (.confirmQuit, .character("x")): return .resign
            case (.confirmNewGame, .character("y")), (.confirmNewGame, .enter), (.confirmNewGame, .character("r")): return .rematch
            case (.help, .character("?")), (_, .escape), (_, .enter), (_, .character(" ")), (.confirmQuit, .character("n")), (.confirmNewGame, .character("n")),
                 (.deckEmpty, .character("d")):
                return .dismiss
            default: return nil
            }
        }
        if context.pickerRows != nil {
            switch key {
            case .up, .character("k"): return .pickerMove(-1)
            case .down, .character("j"): return .pickerMove(1)
            case .enter, .character(" "): return .pick(nil)
            case .character("?"): return .help
            case .character("q"): return .quit
            case .character(let c):
                guard let digit = c.wholeNumberValue, digit >= 1 else { return nil }
                return .pick(digit - 1)
            default: return nil
            }
        }
        if context.awaitingStart {
            switch key {
            case .character("?"): return .help
            case .character("q"): return .quit
            default: return .start
            }
        }
        switch key {
        case .left, .character("h"): return .move(columns: -1, rows: 0)
        case .right, .character("l"): return .move(columns: 1, rows: 0)
        case .up, .character("k"): return .move(columns: 0, rows: -1)
        case .down, .character("j"): return .move(columns: 0, rows: 1)
        case .character("?"): return .help
        case .character("q"): return .quit
        case .escape: return .dismiss
        case .character("/"): return .openChat
        default: break
        }
        guard context.isPlayer else { return nil }
        switch key {
        case .character(" "): return .toggleCursor
        case .character("s"), .enter: return .claim
        case .character("d"): return .deal
        case .character("c"): return .hint
        case .character("p"): return .pass
        case .character("r"): return .rematch
        case .character(let c): return .label(c)
        default: return nil
        }
    }

    private static func command(for mouse: MouseEvent, in context: InputContext) -> ClientCommand? {
        guard mouse.kind == .press else { return nil }
        if mouse.button == .wheelUp || mouse.button == .wheelDown {
            return context.pickerRows != nil && context.overlay == nil ? .pickerMove(mouse.button == .wheelUp ? -1 : 1) : nil
        }
        guard mouse.button == .left else { return nil }
        if case .confirmTakeOver = context.overlay { return nil }
        if context.overlay != nil { return .dismiss }
        if let button = context.layout.button(column: mouse.column, row: mouse.row) { return command(for: button) }
        if context.awaitingStart { return .start }
        if let rows = context.pickerRows {
            let index = mouse.row - pickerFirstRow
            return index >= 0 && index + context.pickerScroll < rows ? .pick(index + context.pickerScroll) : nil
        }
        guard context.isPlayer else { return nil }
        if let index = context.layout.cardIndex(column: mouse.column, row: mouse.row) { return .toggle(index) }
        guard let link = context.chainRects.firstIndex(where: { $0.contains(column: mouse.column, row: mouse.row) }) else { return nil }
        return .toggle((context.layout.table?.cardRects.count ?? 0) + link)
    }

    /// What an on-screen button does.
    static func command(for button: ScreenButton) -> ClientCommand {
        switch button {
        case .claim: .claim
        case .deal, .noSet: .deal
        case .hint: .hint
        case .pass: .pass
        case .rematch, .newGame: .rematch
        case .help: .help
        case .quit: .quit
        }
    }
}
