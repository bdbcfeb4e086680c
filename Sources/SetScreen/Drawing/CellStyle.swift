/// How one cell is drawn: colours and the text attributes terminals agree on.
package struct CellStyle: Hashable, Sendable {
    var foreground: TerminalColor
    var background: TerminalColor
    var bold: Bool
    var dim: Bool
    var reverse: Bool
    var underline: Bool

    init(foreground: TerminalColor = .default, background: TerminalColor = .default,
                bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// Default colours, no attributes.
    static let plain = CellStyle()

    /// The full SGR sequence for this style. It starts from a reset ("0") so that the result never
    /// depends on whatever style the terminal had before.
    var sgr: String {
        var parameters = ["0"]
        if bold { parameters.append("1") }
        if dim { parameters.append("2") }
        if underline { parameters.append("4") }
        if reverse { parameters.append("7") }
        if foreground != .default { parameters.append(foreground.foregroundParameters) }
        if background != .default { parameters.append(background.backgroundParameters) }
        return "\u{1B}[" + parameters.joined(separator: ";") + "m"
    }
}

/// One character cell: a grapheme and its style. A double-width grapheme takes its cell and the
/// next one, which is then its tail: the terminal draws nothing there of its own.
struct Cell: Hashable, Sendable {
    var character: Character
    var style: CellStyle
    /// The right half of the double-width character in the cell before.
    var isWideTail = false

    init(_ character: Character, style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }

    /// The right half of a double-width character drawn in `style`.
    static func wideTail(_ style: CellStyle) -> Cell {
        var cell = Cell(" ", style: style)
        cell.isWideTail = true
        return cell
    }

    /// A space in the plain style: what a cleared terminal shows.
    static let blank = Cell(" ")
}
