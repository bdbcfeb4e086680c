/// How many symbols a card shows.
package enum Number: Int, CaseIterable, Sendable {
    case one, two, three

    /// The count as a plain integer, 1–3.
    package var count: Int { rawValue + 1 }
}

/// The outline of a card's symbols.
package enum Shape: Int, CaseIterable, Sendable {
    case diamond, squiggle, oval

    package var singular: String { ["diamond", "squiggle", "oval"][rawValue] }
    package var plural: String { singular + "s" }
}

/// How a card's symbols are filled.
package enum Shading: Int, CaseIterable, Sendable {
    case solid, striped, open

    package var word: String { ["solid", "striped", "open"][rawValue] }
}

/// The ink a card's symbols are printed in.
package enum Colour: Int, CaseIterable, Sendable {
    case red, green, purple

    package var word: String { ["red", "green", "purple"][rawValue] }
}
