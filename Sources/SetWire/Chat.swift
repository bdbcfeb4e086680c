import SetRules

/// The two conversations of a match. Players talk in theirs, which spectators read; spectators
/// talk in theirs, which the players may read only once no game is being played, so nobody
/// coaches a player.
package enum ChatRoom: String, CaseIterable, Sendable {
    case players
    case spectators

    /// The room a role writes in: each writes only in its own.
    package init(of role: Role) {
        self = role == .player ? .players : .spectators
    }
}

/// One line said in a match, as everyone who may read it is sent it.
package struct ChatLine: Hashable, Sendable {
    package var match: String
    package var room: ChatRoom
    package var name: String
    /// The speaker's seat; nil for a spectator.
    package var seat: Seat?
    package var text: String
    /// Server time, in milliseconds on its monotonic clock.
    package var time: Int64

    package init(match: String, room: ChatRoom, name: String, seat: Seat?, text: String, time: Int64) {
        self.match = match
        self.room = room
        self.name = name
        self.seat = seat
        self.text = text
        self.time = time
    }

    /// Who spoke: a player, or a spectator.
    package var role: Role { seat == nil ? .spectator : .player }
}

/// What a chat line may hold, and the one way a server makes any text into one.
package enum ChatText {
    /// The widest line, in terminal cells: the width of a line a person reads at once.
    package static let maxColumns = 200

    /// `text` as it may be said: passed through `ServerText.printable` (no escapes, no controls,
    /// no format characters), its characters that show nothing (`VisibleText.isBlank`: Hangul
    /// fillers, a lone variation selector) taken as spaces, its runs of spaces made one and its
    /// ends trimmed; refused when nothing visible is left. A line wider than `maxColumns` is
    /// refused, not cut, so nobody's words are changed without their knowing.
    package static func said(_ text: String) -> Result<String, WireError> {
        var line = ""
        var space = false
        for character in ServerText.printable(text) {
            if VisibleText.isBlank(character) {
                space = !line.isEmpty
                continue
            }
            if space { line.append(" ") }
            space = false
            line.append(character)
        }
        guard !line.isEmpty else {
            return .failure(WireError(.badField, "A chat line needs some printable text.", details: ["field": "text"]))
        }
        let width = line.displayWidth
        guard width <= maxColumns else {
            return .failure(WireError(.badField, "A chat line is at most \(maxColumns) columns; this one is \(width).",
                                      details: ["field": "text"]))
        }
        return .success(line)
    }
}
