import SetRules
import SetWire

/// The lobby screen drawn from a `LobbyState`: who is here with variant and rating, the open
/// seats and the live duels (numbered, the pick marked, scrolled to keep it in sight), a
/// challenge to answer with its seconds left, and the keys. Lines are cut at a word, with "…",
/// never inside one; the keys wrap at words. Pure: state, size and local time in, a grid out.
package enum LobbyView {
    /// The lobby at `size` as it stands at local time `now`.
    package static func render(_ state: LobbyState, size: TerminalSize, at now: Int64) -> ScreenBuffer {
        var screen = ScreenBuffer(size: size)
        let width = size.columns
        guard width > 0, size.rows > 0 else { return screen }
        let margin = width >= 60 ? 2 : 0
        let inner = width - margin
        screen.write(fit("Who is here: you are \(state.me), \(state.variant.title)", inner), column: margin, row: 0,
                     style: CellStyle(bold: true))

        // The notices in the order they happened: the newest last, just above the keys.
        var notices: [(order: Int, lines: [(String, CellStyle)])] = []
        for (index, notice) in state.incoming.enumerated() where index < 2 {
            let provisional = state.players.first { $0.name.lowercased() == notice.from.lowercased() }?.provisional ?? false
            let text = "\(notice.from) (\(rating(notice.rating, provisional: provisional))) challenges you to \(notice.variant.title), "
                + "\(state.secondsLeft(notice, at: now)) s left:" + (index == 0 ? " a accept, n decline" : " next after this one")
            notices.append((state.incomingOrder[notice.from.lowercased()] ?? 0,
                            wrap(text, inner).map { ($0, CellStyle(bold: true, reverse: index == 0)) }))
        }
        if state.incoming.count > 2 {
            notices.append((state.incomingOrder.values.max() ?? 0, [("and \(state.incoming.count - 2) more challenges", CellStyle(bold: true))]))
        }
        if let outgoing = state.outgoing {
            notices.append((state.noteOrder, wrap("Waiting for \(outgoing.to) to answer your \(outgoing.variant.title) challenge, "
                                                  + "\(state.secondsLeft(outgoing, at: now)) s left.", inner).map { ($0, CellStyle(bold: true)) }))
        } else if let note = state.note {
            notices.append((state.noteOrder, wrap(note, inner).map { ($0, CellStyle(bold: true)) }))
        }
        var bottom = notices.sorted { $0.order < $1.order }.flatMap(\.lines)
        bottom += wrap(keys, inner).map { ($0, CellStyle(dim: true)) }
        // The list keeps at least three rows; the keys give way first on a tiny screen.
        let listTop = size.rows >= 12 ? 2 : 1
        bottom = Array(bottom.prefix(max(0, size.rows - listTop - 3)))
        let firstBottom = size.rows - bottom.count
        for (index, (text, style)) in bottom.enumerated() { screen.write(text, column: margin, row: firstBottom + index, style: style) }

        let (lines, pickedLine) = listLines(state, width: inner)
        let room = firstBottom - listTop - (size.rows >= 12 ? 1 : 0)
        for (index, line) in window(lines, picked: pickedLine, room: room).enumerated() {
            screen.write(line.text, column: margin, row: listTop + index, style: line.style)
        }
        return screen
    }

    /// The keys, in words.
    static let keys = "Up/Down or a number: pick. Enter: challenge the player, take the seat or watch the duel. "
        + "d quick duel, a accept, n decline, r refresh, q quit"

    /// One line of the list.
    struct Line: Equatable {
        var text: String
        var style = CellStyle.plain
    }

    /// The list's lines, headings included, and which line is the picked row.
    static func listLines(_ state: LobbyState, width: Int) -> ([Line], Int?) {
        let picked = state.pickedIndex
        var lines: [Line] = []
        var pickedLine: Int?
        var number = 0
        func add(_ text: String) {
            let chosen = picked == number
            if chosen { pickedLine = lines.count }
            number += 1
            let label = (chosen ? "> " : "  ") + "\(number).".padding(toLength: 4) + text
            lines.append(Line(text: fit(label, width), style: chosen ? CellStyle(reverse: true) : .plain))
        }
        func heading(_ text: String) { lines.append(Line(text: fit(text, width), style: CellStyle(bold: true))) }
        func empty(_ text: String) { lines.append(Line(text: fit("    " + text, width), style: CellStyle(dim: true))) }

        heading("Players here")
        if state.others.isEmpty { empty("nobody else yet: d waits for the next comer") }
        for entry in state.others { add(player(entry)) }
        heading("Open seats")
        if state.openSeats.isEmpty { empty("none") }
        for listing in state.openSeats { add(pad(listing.name, 14) + " " + players(listing) + variant(listing)) }
        heading("Live duels")
        if state.liveDuels.isEmpty { empty("none just now") }
        for listing in state.liveDuels {
            add(pad(listing.name, 14) + " " + players(listing) + variant(listing)
                + (listing.spectators > 0 ? "  \(listing.spectators) watching" : ""))
        }
        return (lines, pickedLine)
    }

    /// A rating as the lobby shows it everywhere (Protocol.md, "The lobby and challenges"):
    /// "1712", "1500?" while provisional, "new" with none (a guest, or no game in the variant).
    static func rating(_ rating: Int?, provisional: Bool) -> String {
        rating.map { "\($0)" + (provisional ? "?" : "") } ?? "new"
    }

    /// "ann             Classic    1712?".
    static func player(_ entry: LobbyEntry) -> String {
        pad(entry.name, 16) + " " + pad(entry.variant.title, 10) + " " + rating(entry.rating, provisional: entry.provisional)
    }

    /// "ann 1623? 30 vs bob new 12": each player's rating, then the score.
    static func players(_ listing: MatchListing) -> String {
        listing.players.map { player in
            player.name + " " + rating(player.rating, provisional: player.provisional)
                + (listing.phase == .waiting ? "" : " \(player.score)")
        }.joined(separator: " vs ")
    }

    /// `text` padded to `width` cells, or whole when it is wider: a column gives way before a name is cut.
    static func pad(_ text: String, _ width: Int) -> String {
        text.displayWidth >= width ? text : text.padding(toLength: width)
    }

    private static func variant(_ listing: MatchListing) -> String {
        listing.variant == .classic ? "" : "  " + listing.variant.title
    }

    /// The lines that fit in `room` rows, scrolled so the picked one shows, with a marker where
    /// more lie above or below.
    static func window(_ lines: [Line], picked: Int?, room: Int) -> [Line] {
        guard room > 0 else { return [] }
        guard lines.count > room else { return lines }
        guard room >= 3 else { return Array(lines[max(0, (picked ?? 0) - room + 1)...].prefix(room)) }
        let shown = room - 2
        let target = picked ?? 0
        let offset = min(max(0, target - shown + 1), lines.count - shown)
        let below = lines.count - offset - shown
        let more = CellStyle(dim: true)
        return [Line(text: offset > 0 ? "  ↑ \(offset) more" : "", style: more)] + lines[offset..<(offset + shown)]
            + [Line(text: below > 0 ? "  ↓ \(below) more" : "", style: more)]
    }

    /// `text` in `width` cells: whole, or cut after its last word that fits, with "…".
    static func fit(_ text: String, _ width: Int) -> String {
        guard text.displayWidth > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        let head = DisplayWidth.prefix(text, cells: width - 1)
        // Cut at the last space when the cut would fall inside a word.
        let next = text.dropFirst(head.count).first
        if let next, next != " ", let space = head.lastIndex(of: " "), head[..<space].contains(where: { $0 != " " }) {
            return String(head[..<space]).trimmingTrailingSpaces + "…"
        }
        return head.trimmingTrailingSpaces + "…"
    }

    /// `text` broken at spaces into lines of at most `width` cells; a word longer than a line is
    /// cut with "…".
    static func wrap(_ text: String, _ width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ").map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if candidate.displayWidth <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = word.displayWidth <= width ? word : fit(word, width)
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
