import SetWire

/// Lines printed outside the screen (the banner before it, the words after it), wrapped at word
/// boundaries to the terminal's width: left to the terminal, an 80-column line broke a watch
/// command mid-word ("…:36057 d" / "uel"). A command a person copies is never broken: one that
/// does not fit after its words gets a line of its own, bare (without quotes), so the whole line
/// runs as printed.
package enum PrintedLines {
    /// `lines` wrapped to `width` columns; `command` is how this program is started ("setgame",
    /// or its path), which is how a printed command is told from words.
    package static func wrap(_ lines: [String], width: Int, command: String) -> [String] {
        lines.flatMap { wrap($0, width: width, command: command) }
    }

    /// One piece that is never broken: a word, a quoted span, or a command.
    private struct Piece {
        var text: String
        /// The command itself when the piece is a quoted command: what its own line shows.
        var bare: String?
    }

    static func wrap(_ line: String, width: Int, command: String) -> [String] {
        guard width > 0, DisplayWidth.of(line) > width else { return [line] }
        var result: [String] = [], current = ""
        func flush() {
            if !current.isEmpty { result.append(current) }
            current = ""
        }
        for piece in pieces(of: line, command: command) {
            if current.isEmpty || DisplayWidth.of(current) + 1 + DisplayWidth.of(piece.text) <= width {
                if current.isEmpty, let bare = piece.bare, DisplayWidth.of(piece.text) > width {
                    result.append(bare)
                } else {
                    current += (current.isEmpty ? "" : " ") + piece.text
                }
                continue
            }
            flush()
            if let bare = piece.bare {
                result.append(bare)
            } else {
                current = piece.text
            }
        }
        flush()
        return result
    }

    /// The line's unbreakable pieces. An unquoted command runs to the end of the line ("watch
    /// with: setgame watch …"); a quoted span runs to its closing quote.
    private static func pieces(of line: String, command: String) -> [Piece] {
        let words = line.split(separator: " ").map(String.init)
        var pieces: [Piece] = [], index = 0
        while index < words.count {
            let word = words[index], rest = words[index...].joined(separator: " ")
            // Not at the start: "setgame play: cannot start …" is the program speaking.
            if index > 0, rest == command || rest.hasPrefix(command + " ") {
                pieces.append(Piece(text: rest))
                break
            }
            if word.hasPrefix("'"),
               let end = word.dropFirst().contains("'") ? index : words[(index + 1)...].firstIndex(where: { $0.contains("'") }) {
                let span = words[index...end].joined(separator: " ")
                let inside = span.dropFirst().prefix { $0 != "'" }
                let isCommand = inside == command || inside.hasPrefix(command + " ")
                pieces.append(Piece(text: span, bare: isCommand ? String(inside) : nil))
                index = end + 1
                continue
            }
            pieces.append(Piece(text: word))
            index += 1
        }
        return pieces
    }
}
