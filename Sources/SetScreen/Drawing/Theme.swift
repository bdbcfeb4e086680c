import SetRules

/// The colours and line styles that give cards and their states a look, in one place. The three
/// card inks are 256-colour indices picked for a contrast of about 4–5:1 on both black and white
/// backgrounds, so no player's terminal theme hides one of them.
package struct Theme: Hashable, Sendable {
    /// Whether colour is used at all; off for NO_COLOR, where letters carry the colour instead.
    var usesColor: Bool
    /// Whether each card also shows its colour as a letter (R, G, P), for colour-blind players.
    var colorblind: Bool

    init(usesColor: Bool = true, colorblind: Bool = false) {
        self.usesColor = usesColor
        self.colorblind = colorblind
    }

    /// Full colour, no letters.
    static let standard = Theme()
    /// Colour plus letters.
    static let colorblindFriendly = Theme(colorblind: true)
    /// No colour anywhere (the NO_COLOR convention); letters instead.
    static let noColor = Theme(usesColor: false)

    /// The theme for an environment: NO_COLOR set (to anything) turns colour off.
    package static func from(environment: [String: String], colorblind: Bool = false) -> Theme {
        Theme(usesColor: environment["NO_COLOR"].map(\.isEmpty) ?? true, colorblind: colorblind)
    }

    /// True when cards carry their colour as a letter.
    var showsColourLetters: Bool { colorblind || !usesColor }

    /// The 256-colour index of a card ink: red 160, green 28, purple 129.
    static func paletteIndex(of colour: Colour) -> UInt8 {
        switch colour {
        case .red: 160
        case .green: 28
        case .purple: 129
        }
    }

    /// The letter that names a card's colour.
    static func letter(for colour: Colour) -> Character {
        switch colour {
        case .red: "R"
        case .green: "G"
        case .purple: "P"
        }
    }

    /// The style for a card's symbols.
    func ink(for colour: Colour) -> CellStyle {
        usesColor ? CellStyle(foreground: .indexed(Self.paletteIndex(of: colour))) : .plain
    }

    /// The line set of a card's border; different for every state that matters without colour.
    func borderLines(for appearance: CardAppearance) -> BoxLines {
        switch appearance {
        case .normal, .faceDown, .hinted: .rounded
        case .selected, .mismatched: .heavy
        case .matched: .double
        case .opponentSelected: .dashed
        }
    }

    /// The style of a card's border.
    func borderStyle(for appearance: CardAppearance) -> CellStyle {
        let colour: TerminalColor
        switch appearance {
        case .normal: return .plain
        case .faceDown: return CellStyle(dim: true)
        case .selected: colour = .indexed(172)
        case .opponentSelected: colour = .indexed(37)
        case .matched: colour = .indexed(34)
        case .mismatched: colour = .indexed(196)
        case .hinted: colour = .indexed(33)
        }
        return CellStyle(foreground: usesColor ? colour : .default, bold: true)
    }

    /// A mark on the top border that tells states apart when line sets are shared or colour is off.
    func mark(for appearance: CardAppearance) -> Character? {
        switch appearance {
        case .matched: "✓"
        case .mismatched: "✗"
        case .hinted: "?"
        case .opponentSelected: "•"
        case .normal, .selected, .faceDown: nil
        }
    }

    /// The style of the selection label on a card's top border.
    func labelStyle(for appearance: CardAppearance) -> CellStyle {
        CellStyle(bold: true, reverse: appearance == .selected)
    }

    /// The pattern and style of a card's back.
    var backStyle: (pattern: Character, style: CellStyle) {
        ("▚", usesColor ? CellStyle(foreground: .indexed(61)) : CellStyle(dim: true))
    }
}
