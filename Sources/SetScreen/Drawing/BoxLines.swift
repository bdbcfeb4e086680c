/// The line sets used to draw boxes; each looks clearly different even without colour.
enum BoxLines: CaseIterable, Sendable {
    /// ╭─╮ │ ╰─╯
    case rounded
    /// ┏━┓ ┃ ┗━┛
    case heavy
    /// ╔═╗ ║ ╚═╝
    case double
    /// ╭┄╮ ┆ ╰┄╯
    case dashed

    /// Top-left, top-right, bottom-left, bottom-right, horizontal, vertical.
    var glyphs: (topLeft: Character, topRight: Character, bottomLeft: Character,
                        bottomRight: Character, horizontal: Character, vertical: Character) {
        switch self {
        case .rounded: ("╭", "╮", "╰", "╯", "─", "│")
        case .heavy: ("┏", "┓", "┗", "┛", "━", "┃")
        case .double: ("╔", "╗", "╚", "╝", "═", "║")
        case .dashed: ("╭", "╮", "╰", "╯", "┄", "┆")
        }
    }
}
