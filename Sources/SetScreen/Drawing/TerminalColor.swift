/// A terminal colour: the terminal's own default, one of the 16 named ANSI colours, or an index
/// into the 256-colour palette.
enum TerminalColor: Hashable, Sendable {
    case `default`
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow
    case brightBlue, brightMagenta, brightCyan, brightWhite
    case indexed(UInt8)

    /// The 16 named colours in palette order (0–15).
    static let named: [TerminalColor] = [
        .black, .red, .green, .yellow, .blue, .magenta, .cyan, .white,
        .brightBlack, .brightRed, .brightGreen, .brightYellow,
        .brightBlue, .brightMagenta, .brightCyan, .brightWhite,
    ]

    /// The SGR parameters that select this colour as foreground, e.g. "31" or "38;5;160".
    var foregroundParameters: String { parameters(base: 30, brightBase: 90, extended: 38) }

    /// The SGR parameters that select this colour as background, e.g. "41" or "48;5;160".
    var backgroundParameters: String { parameters(base: 40, brightBase: 100, extended: 48) }

    private func parameters(base: Int, brightBase: Int, extended: Int) -> String {
        switch self {
        case .default: return String(base + 9)
        case .indexed(let index): return "\(extended);5;\(index)"
        default:
            // Named colours use the short codes every terminal knows, not the 256-colour form.
            let slot = TerminalColor.named.firstIndex(of: self)!
            return String(slot < 8 ? base + slot : brightBase + slot - 8)
        }
    }
}
