/// The escape sequences the client sends to the terminal; nothing else is ever written raw.
package enum EscapeCode: Hashable, Sendable {
    case enterAlternateScreen
    case leaveAlternateScreen
    case hideCursor
    case showCursor
    /// Button reporting (1000) in SGR encoding (1006), which has no 223-column limit.
    case enableMouse
    case disableMouse
    case clearScreen
    case resetStyle
    /// Cursor position, 0-based here, 1-based on the wire.
    case moveCursor(column: Int, row: Int)
    case style(CellStyle)

    private static let esc = "\u{1B}"

    /// The bytes to write, as a string.
    var sequence: String {
        switch self {
        case .enterAlternateScreen: Self.esc + "[?1049h"
        case .leaveAlternateScreen: Self.esc + "[?1049l"
        case .hideCursor: Self.esc + "[?25l"
        case .showCursor: Self.esc + "[?25h"
        case .enableMouse: Self.esc + "[?1000h" + Self.esc + "[?1006h"
        case .disableMouse: Self.esc + "[?1006l" + Self.esc + "[?1000l"
        case .clearScreen: Self.esc + "[2J"
        case .resetStyle: Self.esc + "[0m"
        case .moveCursor(let column, let row): Self.esc + "[\(row + 1);\(column + 1)H"
        case .style(let style): style.sgr
        }
    }

    /// What to write when the UI starts: alternate screen, no cursor, mouse on, clean slate.
    package static let startSession: String =
        [EscapeCode.enterAlternateScreen, .hideCursor, .enableMouse, .resetStyle, .clearScreen]
            .map(\.sequence).joined()

    /// What to write on every exit path, undoing `startSession` in reverse order.
    package static let endSession: String =
        [EscapeCode.resetStyle, .disableMouse, .showCursor, .leaveAlternateScreen]
            .map(\.sequence).joined()
}
