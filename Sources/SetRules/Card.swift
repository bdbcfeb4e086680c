/// One of the 81 cards: a unique combination of the four features.
package struct Card: Hashable, Comparable, Sendable {
    package let number: Number
    package let shape: Shape
    package let shading: Shading
    package let colour: Colour

    package init(_ number: Number, _ shading: Shading, _ colour: Colour, _ shape: Shape) {
        self.number = number
        self.shape = shape
        self.shading = shading
        self.colour = colour
    }

    /// A stable id 0–80: the features read as the digits of a base-3 number.
    package var id: Int {
        number.rawValue * 27 + shape.rawValue * 9 + shading.rawValue * 3 + colour.rawValue
    }

    /// The card with the given id, or nil outside 0–80.
    package init?(id: Int) {
        guard (0..<81).contains(id) else { return nil }
        self.init(
            Number(rawValue: id / 27)!,
            Shading(rawValue: id / 3 % 3)!,
            Colour(rawValue: id % 3)!,
            Shape(rawValue: id / 9 % 3)!)
    }

    /// All 81 cards in id order.
    package static let all: [Card] = (0..<81).map { Card(id: $0)! }

    package static func < (lhs: Card, rhs: Card) -> Bool { lhs.id < rhs.id }
}
