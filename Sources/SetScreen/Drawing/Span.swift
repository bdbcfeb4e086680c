import SetWire

/// A run of text in one style: the unit the composer builds lines from.
struct Span: Hashable, Sendable {
    var text: String
    var style: CellStyle

    init(_ text: String, _ style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }
}

extension Array where Element == Span {
    /// How many cells the spans take, measured by display width.
    var width: Int { reduce(0) { $0 + $1.text.displayWidth } }
}

extension ScreenBuffer {
    /// Writes spans left to right from a position, stopping before `limit`; returns the column after.
    @discardableResult
    mutating func write(_ spans: [Span], column: Int, row: Int, limit: Int? = nil) -> Int {
        let end = limit ?? size.columns
        var c = column
        for span in spans {
            for character in span.text {
                let shown: Character = character.isPrintable ? character : " "
                let width = shown.cellWidth
                if width == 0 { continue }
                // A wide character that would straddle the limit is left out, not cut in half.
                guard c + width <= end else { return c }
                put(shown, column: c, row: row, style: span.style)
                c += width
            }
        }
        return c
    }

    /// Writes spans centred in a rectangle's row.
    mutating func writeCentred(_ spans: [Span], in rect: Rect, row: Int) {
        let column = rect.column + max(0, (rect.width - spans.width) / 2)
        write(spans, column: column, row: row, limit: rect.endColumn)
    }
}

/// A box with a title and lines of text, centred on the screen: help, alerts, the result.
struct Panel {
    var title: String
    var lines: [[Span]]
    var border: CellStyle

    /// Draws the panel centred in `area`, clearing what is under it; returns its rectangle. A
    /// line wider than the area can show is wrapped at its spaces (a small terminal lost the end
    /// of a box's key line: "r rematch   q quit   Esc  │").
    @discardableResult
    func draw(into buffer: inout ScreenBuffer, centredIn area: Rect) -> Rect {
        let room = max(1, area.width - 4)
        let lines = self.lines.flatMap { $0.width > room ? Self.wrapped($0, width: room) : [$0] }
        let inner = max(title.displayWidth + 4, lines.map(\.width).max() ?? 0)
        let width = min(area.width, inner + 4), height = min(area.height, lines.count + 2)
        let rect = Rect(column: area.column + (area.width - width) / 2, row: area.row + (area.height - height) / 2,
                        width: width, height: height)
        buffer.fill(rect)
        buffer.drawBox(rect, lines: .rounded, style: border)
        if !title.isEmpty {
            buffer.write([Span(" \(title) ", CellStyle(bold: true))], column: rect.column + 2, row: rect.row, limit: rect.endColumn - 2)
        }
        for (index, line) in lines.enumerated() where index < height - 2 {
            buffer.write(line, column: rect.column + 2, row: rect.row + 1 + index, limit: rect.endColumn - 2)
        }
        return rect
    }

    /// `line` in lines of at most `width` cells, broken at spaces, each piece keeping its style;
    /// a word longer than `width` stands on a line of its own (and is cut where it is drawn).
    static func wrapped(_ line: [Span], width: Int) -> [[Span]] {
        // Each word with the spaces before it, as styled pieces.
        var words: [(spaces: [Span], word: [Span])] = [([], [])]
        for span in line {
            for character in span.text {
                let isSpace = character == " "
                if isSpace, !words[words.count - 1].word.isEmpty { words.append(([], [])) }
                var pieces = isSpace ? words[words.count - 1].spaces : words[words.count - 1].word
                if pieces.last?.style == span.style { pieces[pieces.count - 1].text.append(character) } else { pieces.append(Span(String(character), span.style)) }
                if isSpace { words[words.count - 1].spaces = pieces } else { words[words.count - 1].word = pieces }
            }
        }
        var lines: [[Span]] = [], current: [Span] = []
        for (spaces, word) in words where !word.isEmpty {
            if !current.isEmpty, current.width + spaces.width + word.width > width {
                lines.append(current)
                current = word
            } else {
                current += (current.isEmpty ? [] : spaces) + word
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
