import SetRules
import SetWire

/// The arena screen drawn from an `ArenaScreen`: a title with the clock, the standings (rank,
/// name, score, streak, games, rating, whom each plays; the player's own line highlighted and
/// always in sight), the top boards, the last duel's end and the keys; once over, the final
/// standings with the winner(s) and each player's performance. Columns give way on a narrow
/// screen, names are cut with "…", nothing overlaps. Pure: state, size and local time in, a grid out.
package enum ArenaStandingsView {
    /// The arena at `size` as it stands at local time `now`.
    package static func render(_ screen: ArenaScreen, size: TerminalSize, at now: Int64) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        let width = size.columns
        guard width > 0, size.rows > 0 else { return buffer }
        let margin = width >= 60 ? 2 : 0
        let inner = width - margin
        var top: [(String, CellStyle)] = [(LobbyView.fit(title(screen, at: now), inner), CellStyle(bold: true))]
        if let winners = screen.results?.winners, !winners.isEmpty {
            top.append((LobbyView.fit((winners.count == 1 ? "Winner: " : "Winners: ") + winners.joined(separator: ", "), inner), CellStyle(bold: true)))
        } else if let mine = screen.mine {
            top.append((LobbyView.fit(you(mine, screen), inner), .plain))
        }

        var bottom: [(String, CellStyle)] = []
        if case .playing(let pairing) = screen.stage {
            bottom += LobbyView.wrap("Playing \(pairing.opponent) in \(pairing.match)…", inner).map { ($0, CellStyle(bold: true)) }
        }
        if let last = screen.lastDuel, !screen.finished { bottom += LobbyView.wrap(last, inner).map { ($0, CellStyle(bold: true)) } }
        if let note = screen.note { bottom += LobbyView.wrap(note, inner).map { ($0, CellStyle(bold: true)) } }
        bottom += LobbyView.wrap(keys(screen), inner).map { ($0, CellStyle(dim: true)) }
        // The standings keep at least four rows (heading, leader, a gap, the player's own); the rest gives way first.
        bottom = Array(bottom.suffix(max(0, size.rows - top.count - 5)))
        top = Array(top.prefix(max(1, size.rows - 1)))

        let boards = screen.finished ? [] : boardLines(screen, width: inner)
        let middle = size.rows - top.count - bottom.count - 1  // a blank row under the title
        let boardRows = boards.isEmpty || middle < 12 ? (middle >= 8 && !boards.isEmpty ? min(2, boards.count) + 1 : 0) : min(boards.count, 4) + 1
        let tableRows = max(0, middle - boardRows)

        var row = 0
        for (text, style) in top where row < size.rows {
            buffer.write(text, column: margin, row: row, style: style)
            row += 1
        }
        row += 1
        let columns = Column.fitting(inner, final: screen.finished)
        for line in tableLines(screen, columns: columns, room: tableRows, width: inner) {
            guard row < size.rows else { break }
            buffer.write(line.text, column: margin, row: row, style: line.style)
            row += 1
        }
        if boardRows > 0 {
            buffer.write(LobbyView.fit("Boards", inner), column: margin, row: row, style: CellStyle(bold: true))
            for (index, text) in boards.prefix(boardRows - 1).enumerated() {
                buffer.write(text, column: margin, row: row + 1 + index, style: .plain)
            }
        }
        let firstBottom = size.rows - bottom.count
        for (index, (text, style)) in bottom.enumerated() { buffer.write(text, column: margin, row: firstBottom + index, style: style) }
        return buffer
    }

    /// "Arena friday · Classic, rated · 7:32 left".
    static func title(_ screen: ArenaScreen, at now: Int64) -> String {
        guard let arena = screen.arena else { return "Arena \(screen.arenaName): joining…" }
        let kind = "\(arena.variant.title), \(arena.rated ? "rated" : "casual")"
        switch screen.clock(at: now) {
        case (.starting, let left)?: return "Arena \(arena.arena) · \(kind) · starts in \(minutes(left))"
        case (.running, let left)?: return "Arena \(arena.arena) · \(kind) · \(minutes(left)) left"
        default:
            guard screen.finished else { return "Arena \(arena.arena) · \(kind) · time is up, the last duels finish" }
            return "Arena \(arena.arena) is over · \(kind) · final standings"
        }
    }

    /// "7:05".
    static func minutes(_ seconds: Int64) -> String {
        let rest = seconds % 60
        return "\(seconds / 60):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// "You: 3rd of 12, 9 points, 2 wins in a row: your next win counts double."
    static func you(_ mine: ArenaEntry, _ screen: ArenaScreen) -> String {
        let of = screen.arena?.standings.count ?? 0
        var text = "You: #\(mine.rank) of \(of), \(mine.score) point\(mine.score == 1 ? "" : "s")"
        if mine.fire {
            text += ", \(mine.streak) wins in a row: your next win counts double"
        } else if mine.streak > 0 {
            text += ", \(mine.streak) win\(mine.streak == 1 ? "" : "s") in a row"
        }
        if mine.paused { text += " · paused" }
        return text + "."
    }

    /// The keys, in words.
    static func keys(_ screen: ArenaScreen) -> String {
        if screen.finished { return "q quit" }
        if screen.watching { return "The top board shows once a duel is under way. q quit" }
        if case .playing = screen.stage { return "The duel is on: its screen has the keys." }
        let pause = screen.mine?.paused == true ? "p resume" : "p pause"
        return "\(pause), l leave the arena (your points stay), q quit"
    }

    /// A column of the standings.
    enum Column: CaseIterable {
        case rank, name, score, streak, games, rating, playing, performance

        var heading: String {
            switch self {
            case .rank: "#"
            case .name: "Player"
            case .score: "Score"
            case .streak: "Streak"
            case .games: "Games"
            case .rating: "Rating"
            case .playing: "Playing"
            case .performance: "Perf"
            }
        }

        /// Cells, the separating space included; the last column takes the rest (the name's is
        /// the most it takes: it gives way on a narrow screen, `nameWidth`).
        var width: Int {
            switch self {
            case .rank: 4
            case .name: 25
            case .score: 6
            case .streak: 7
            case .games: 6
            case .rating: 7
            case .playing: 10
            case .performance: 5
            }
        }

        /// The columns that fit `width`, dropped in the order that matters least first.
        static func fitting(_ width: Int, final: Bool) -> [Column] {
            var columns: [Column] = final ? [.rank, .name, .score, .games, .rating, .performance]
                : [.rank, .name, .score, .streak, .games, .rating, .playing]
            for dropped in [Column.games, .rating, .streak, .performance, .playing]
            where columns.map(\.width).reduce(0, +) - Column.name.width + minName > width {
                columns.removeAll { $0 == dropped }
            }
            return columns
        }

        /// The fewest cells a name gets before a column is dropped.
        static let minName = 11

        /// The name column's cells at `width`: what the other columns leave, at most `Column.name.width`.
        static func nameWidth(_ columns: [Column], in width: Int) -> Int {
            let others = columns.filter { $0 != .name }.map(\.width).reduce(0, +)
            return max(2, min(Column.name.width, width - others))
        }
    }

    /// The standings' lines: a heading, then as many players as fit, the player's own always
    /// among them (after a "…" row when it lies below the window).
    static func tableLines(_ screen: ArenaScreen, columns: [Column], room: Int, width: Int) -> [LobbyView.Line] {
        guard room > 0 else { return [] }
        let entries = screen.results?.standings ?? screen.arena?.standings ?? []
        let nameWidth = Column.nameWidth(columns, in: width)
        var lines = [LobbyView.Line(text: cut(row(columns.map(\.heading), columns, nameWidth: nameWidth), width), style: CellStyle(dim: true))]
        if entries.isEmpty {
            lines.append(LobbyView.Line(text: LobbyView.fit("nobody has joined yet", width), style: CellStyle(dim: true)))
            return Array(lines.prefix(room))
        }
        let shown = room - 1
        guard shown > 0 else { return lines }
        let mineIndex = entries.firstIndex { screen.isMe($0.name) }
        // Rows by index in the standings; -1 is a "… N more" row for those left out there.
        var picked: [Int]
        if entries.count <= shown {
            picked = Array(entries.indices)
        } else if let mine = mineIndex, mine >= shown - 1 {
            let tail = mine == entries.count - 1 ? [-1, mine] : [-1, mine, -1]
            picked = shown > tail.count ? Array(entries.indices.prefix(shown - tail.count)) + tail : (shown >= 2 ? [0, mine] : [mine])
        } else {
            picked = Array(entries.indices.prefix(shown - 1)) + [-1]
        }
        for (position, index) in picked.enumerated() {
            guard index >= 0 else {
                // The rows this gap stands for: up to the next one shown, or to the end.
                let next = picked.dropFirst(position + 1).first ?? entries.count
                let skipped = next - (picked[..<position].last ?? -1) - 1
                lines.append(LobbyView.Line(text: LobbyView.fit("  … \(skipped) more", width), style: CellStyle(dim: true)))
                continue
            }
            let entry = entries[index]
            let text = cut(row(columns.map { cell($0, entry, screen) }, columns, nameWidth: nameWidth), width)
            lines.append(LobbyView.Line(text: screen.isMe(entry.name) ? text.padding(toLength: width) : text,
                                        style: screen.isMe(entry.name) ? CellStyle(bold: true, reverse: true) : .plain))
        }
        return lines
    }

    /// One row: each text in its column, cut with "…" when longer; the last column takes what is left.
    static func row(_ texts: [String], _ columns: [Column], nameWidth: Int) -> String {
        var line = ""
        for (index, (text, column)) in zip(texts, columns).enumerated() {
            if index == columns.count - 1 {
                line += text
            } else {
                let width = column == .name ? nameWidth : column.width
                line += cut(text, width - 1).padding(toLength: width)
            }
        }
        return line
    }

    /// `text` in `width` cells: whole, or its first cells and "…" (a table cuts inside a word: its
    /// columns stay where they are).
    static func cut(_ text: String, _ width: Int) -> String {
        guard text.displayWidth > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var head = DisplayWidth.prefix(text, cells: width - 1)
        while head.last == " " { head.removeLast() }
        return head + "…"
    }

    /// What a player's line says in `column`.
    static func cell(_ column: Column, _ entry: ArenaEntry, _ screen: ArenaScreen) -> String {
        switch column {
        case .rank: return "\(entry.rank)"
        case .name: return entry.name + (entry.bot ? " (bot)" : "")
        case .score: return "\(entry.score)"
        case .streak: return entry.fire ? "\(entry.streak) ×2" : (entry.streak > 0 ? "\(entry.streak)" : "")
        case .games: return "\(entry.games)"
        case .rating: return LobbyView.rating(entry.rating, provisional: entry.provisional)
        case .performance: return entry.performance.map(String.init) ?? ""
        case .playing:
            if let match = entry.playing {
                let board = screen.arena?.boards.first { $0.match == match }
                let opponent = board?.players.first { $0.lowercased() != entry.name.lowercased() }
                return opponent.map { "vs \($0)" } ?? "playing"
            }
            return entry.paused ? "paused" : ""
        }
    }

    /// "1. ann 2 – bob 1", top board first.
    static func boardLines(_ screen: ArenaScreen, width: Int) -> [String] {
        (screen.arena?.boards ?? []).enumerated().map { index, board in
            let sides = zip(board.players, board.scores).map { "\($0) \($1)" }
            return LobbyView.fit("  \(index + 1). " + sides.joined(separator: " – "), width)
        }
    }
}
