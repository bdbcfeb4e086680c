/// How many symbols a card shows.
public enum Number: Int, CaseIterable, Sendable {
    case one, two, three

    /// The count as a plain integer, 1–3.
    public var count: Int { rawValue + 1 }
}

/// The outline of a card's symbols.
public enum Shape: Int, CaseIterable, Sendable {
    case diamond, squiggle, oval

    public var singular: String { ["diamond", "squiggle", "oval"][rawValue] }
    public var plural: String { singular + "s" }
}

/// How a card's symbols are filled.
public enum Shading: Int, CaseIterable, Sendable {
    case solid, striped, open

    public var word: String { ["solid", "striped", "open"][rawValue] }
}

/// The ink a card's symbols are printed in.
public enum Colour: Int, CaseIterable, Sendable {
    case red, green, purple

    public var word: String { ["red", "green", "purple"][rawValue] }
}
