/// `setgame cards`: the gallery of all 81 cards at one terminal size.
package struct CardsOptions: Equatable, Sendable {
    /// The terminal size to draw for, columns × rows; nil: the terminal the command runs in.
    package var columns: Int?
    package var rows: Int?
    package var colorblind = false

    package init(columns: Int? = nil, rows: Int? = nil, colorblind: Bool = false) {
        self.columns = columns
        self.rows = rows
        self.colorblind = colorblind
    }
}

extension Commands {
    /// The sizes `--size` accepts: the smallest screen the client draws at all, up to very large.
    static let sizeColumns = 20...1_000, sizeRows = 6...1_000

    package static let cards = CommandSpec(
        "cards", "Print all 81 cards as they are drawn on a table of 12 in a terminal of a given size: a gallery of the symbols.",
        options: [
            OptionSpec("size", "WxH", "the terminal size to draw for, e.g. 80x24 (default: this terminal)"),
            OptionSpec("colorblind", nil, "also show each card's colour as a letter (NO_COLOR shows letters, not colours)"),
        ])

    static func cardsOptions(_ parsed: ParsedArguments) throws(UsageError) -> CardsOptions {
        let values = OptionValues(parsed, command: cards.name)
        var options = CardsOptions(colorblind: values.flag("colorblind"))
        if let text = values.text("size") {
            let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" }).map(String.init)
            guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
                  sizeColumns.contains(columns), sizeRows.contains(rows) else {
                throw UsageError("--size takes COLUMNSxROWS from \(sizeColumns.lowerBound)x\(sizeRows.lowerBound) to "
                                 + "\(sizeColumns.upperBound)x\(sizeRows.upperBound), such as 80x24, not '\(text)'", command: cards.name)
            }
            options.columns = columns
            options.rows = rows
        }
        return options
    }
}
