extension Card: CustomStringConvertible {
    /// A readable name such as "2 striped green diamonds".
    package var name: String {
        let shapeWord = number == .one ? shape.singular : shape.plural
        return "\(number.count) \(shading.word) \(colour.word) \(shapeWord)"
    }

    package var description: String { name }

    /// Parses a name as produced by `name`; case and extra spaces are forgiven, and a singular or
    /// plural shape is accepted with any count.
    package init?(name: String) {
        let words = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard words.count == 4,
              let count = Int(words[0]), (1...3).contains(count), let number = Number(rawValue: count - 1),
              let shading = Shading.allCases.first(where: { $0.word == words[1] }),
              let colour = Colour.allCases.first(where: { $0.word == words[2] }),
              let shape = Shape.allCases.first(where: { $0.singular == words[3] || $0.plural == words[3] })
        else { return nil }
        self.init(number, shading, colour, shape)
    }
}
