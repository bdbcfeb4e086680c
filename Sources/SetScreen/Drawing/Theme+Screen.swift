/// The styles of the screen around the cards: status texts, buttons, highlights. Without colour
/// they fall back to bold, dim and reverse, so nothing depends on colour.
extension Theme {
    func colour(_ index: UInt8) -> TerminalColor { usesColor ? .indexed(index) : .default }

    /// A notice in its tone.
    func style(for tone: Notice.Tone) -> CellStyle {
        switch tone {
        case .good: CellStyle(foreground: colour(34), bold: true)
        case .bad: CellStyle(foreground: colour(196), bold: true)
        case .info: CellStyle(foreground: colour(75))
        }
    }

    /// Secondary text.
    var quiet: CellStyle { CellStyle(foreground: colour(245), dim: !usesColor) }
    /// My own name and score.
    var mine: CellStyle { CellStyle(bold: true) }
    /// Whoever holds the window.
    var holder: CellStyle { CellStyle(foreground: colour(214), bold: true, reverse: !usesColor) }
    /// A button that works now.
    var button: CellStyle { CellStyle(reverse: true) }
    /// A button that would do nothing now.
    var disabledButton: CellStyle { CellStyle(foreground: colour(240), dim: true) }
    /// The key on a button.
    var buttonKey: CellStyle { CellStyle(bold: true, reverse: true, underline: true) }
    /// The border of boxes over the table.
    var panel: CellStyle { CellStyle(foreground: colour(75), bold: true) }
    /// A highlighted row in a list.
    var highlight: CellStyle { CellStyle(bold: true, reverse: true) }
    /// The cursor's pointers beside a card.
    var cursor: CellStyle { CellStyle(foreground: colour(226), bold: true) }
    /// The frame of the card under the keyboard cursor: reversed, so it shows as a solid bar.
    var cursorFrame: CellStyle { CellStyle(foreground: colour(226), bold: true, reverse: true) }
    /// Connection marks.
    var online: CellStyle { CellStyle(foreground: colour(34)) }
    var offline: CellStyle { CellStyle(foreground: colour(196), bold: true) }
}
