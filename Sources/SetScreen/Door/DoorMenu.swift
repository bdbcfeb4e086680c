import SetRules
import SetWire

/// The menu an ssh player meets with no command: the way back to a game left waiting, a quick
/// duel, a duel against a bot, a solo game, the variant, the live matches to watch, the colours,
/// the player's name, their standing and the leaderboard. Pure: keys and clicks in, a choice out, a
/// grid to draw.
package struct DoorMenu: Equatable, Sendable {
    /// One line of the menu.
    package enum Item: Int, CaseIterable, Sendable {
        case resume, quickDuel, botDuel, solo, variant, watch, colours, name, standing, lobby, arenas, quit

        /// The key that picks it, shown before its line: digits stay the same whether or not a
        /// game waits, so a player's fingers (and scripts) learn them once.
        var key: Character {
            switch self {
            case .resume: "0"
            case .arenas: "a"
            case .quit: "q"
            default: Character(String(rawValue))
            }
        }
    }

    /// How cards show their colour: ssh passes no NO_COLOR, so the menu asks.
    package enum Colours: String, CaseIterable, Sendable {
        /// Colours as the terminal has them.
        case full
        /// Colours and a letter for each (colour-blind letters).
        case letters
        /// No colour at all, as NO_COLOR asks locally.
        case none
    }

    /// What the player picked.
    package enum Choice: Equatable, Sendable {
        case resume
        case quickDuel
        case bot(level: String)
        case solo
        case watch
        /// Play under this name from now on (typed in the menu, not yet checked with the server).
        case rename(String)
        /// The player's profile and games, and the leaderboard.
        case standing
        /// The lobby: who is here, with ratings, to challenge or be challenged by; open seats and live duels.
        case lobby
        /// The arenas running or starting, to pick one from (`offer` lists them).
        case arenas
        /// Join this arena and play its duels.
        case arena(String)
        case quit
    }

    package private(set) var selected = Item.quickDuel
    package private(set) var variant = Variant.classic
    /// The bot levels a player may pick, by name, and the one picked.
    package let levels: [String]
    package private(set) var level: Int
    package private(set) var colours = Colours.full
    /// Who the player is, in the title ("key-AbC123", "guest-4821").
    package private(set) var name: String
    /// The game this key left unfinished, in a few words ("your quick duel"); nil when none waits.
    package private(set) var waiting: String?
    /// Whether the player may choose a name: a key keeps one, a guest has nothing to keep it by.
    package let canRename: Bool
    /// The name being typed; nil while the player is not typing one.
    package private(set) var draft: String?
    /// A line under the items: what became of the last choice ("You play as ann from now on.").
    package var note: String?
    /// A page shown instead of the items (a profile, the leaderboard); any key goes back.
    package var page: [String]?
    /// The arenas offered after `.arenas`, with how long until each starts or ends (seconds);
    /// a digit joins one, any other key goes back.
    package private(set) var arenas: [OfferedArena]?
    /// The last item was chosen by its shortcut (a digit or a letter): the Enter a player types
    /// after it, as in a numbered menu, belongs to it, and is dropped by the menu or by the game
    /// the choice started (`ClientOptions.dropsLeadingEnter`) rather than acted on.
    package private(set) var awaitsEnterAfterShortcut = false

    /// An arena offered to join: its name, and its line in words.
    package struct OfferedArena: Hashable, Sendable {
        package let name: String
        package let line: String
    }

    package init(name: String, levels: [String], waiting: String? = nil, canRename: Bool = true) {
        self.name = name
        self.levels = levels.isEmpty ? ["easy"] : levels
        self.waiting = waiting
        self.canRename = canRename
        level = 0
        if waiting != nil { selected = .resume }
    }

    /// The lines shown, in order: the way back only when a game waits, the name only for a key.
    package var items: [Item] {
        Item.allCases.filter { item in
            switch item {
            case .resume: waiting != nil
            case .name: canRename
            default: true
            }
        }
    }

    /// The menu after a rename the server's rules allow: the title says the new name.
    package mutating func renamed(to name: String) {
        self.name = name
        note = "You play as \(name) from now on."
    }

    /// The menu again after a game it started: the game left waiting, if any, offered first, and
    /// `note` (the new rating) under the items.
    package mutating func returned(waiting: String?, note: String?) {
        self.waiting = waiting
        if waiting != nil { selected = .resume } else if selected == .resume { selected = .quickDuel }
        self.note = note
        awaitsEnterAfterShortcut = false
    }

    /// Offers the arenas a player may join (running or starting), as the server listed them at
    /// its time `serverNow`; none is a page that says so.
    package mutating func offer(_ listed: [ArenaSummary], serverNow: Int64) {
        arenas = listed.filter { $0.state != .finished }.prefix(9).map { summary in
            let when = switch summary.state {
            case .starting: "starts in \(Self.minutes(summary.startsAt - serverNow))"
            case .running, .finished: "\(Self.minutes(summary.endsAt - serverNow)) left"
            }
            let leader = summary.leader.map { ", \(ServerText.printable($0)) leads" } ?? ""
            let players = "\(summary.players) player\(summary.players == 1 ? "" : "s")"
            return OfferedArena(name: summary.arena, line: "\(summary.arena) · \(summary.variant.title), \(summary.rated ? "rated" : "casual") · \(when) · \(players)\(leader)")
        }
    }

    /// "7:05" from milliseconds, never below 0:00.
    static func minutes(_ ms: Int64) -> String {
        let seconds = max(0, (ms + 999) / 1_000)
        return "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    /// Takes one key or click; returns the choice once one is made.
    package mutating func input(_ event: InputEvent) -> Choice? {
        if awaitsEnterAfterShortcut, case .key(let key) = event {
            awaitsEnterAfterShortcut = false
            if key == .enter { return nil }
        }
        if let offered = arenas {
            guard case .key(let key) = event else { return nil }
            arenas = nil
            if case .character(let typed) = key, let digit = typed.wholeNumberValue, offered.indices.contains(digit - 1) {
                return .arena(offered[digit - 1].name)
            }
            return nil
        }
        if page != nil {
            if case .key = event { page = nil }
            return nil
        }
        if draft != nil { return type(event) }
        switch event {
        case .key(let key): return press(key)
        case .mouse(let mouse):
            guard mouse.button == .left, mouse.kind == .press, let item = item(atRow: mouse.row) else { return nil }
            selected = item
            return activate()
        }
    }

    private mutating func press(_ key: Key) -> Choice? {
        switch key {
        case .up, .character("k"): move(-1)
        case .down, .character("j"), .tab: move(1)
        case .left, .character("h"): change(-1)
        case .right, .character("l"): change(1)
        case .enter, .character(" "): return activate()
        // Esc is "back" everywhere else (the name, a page, a game's boxes): here, where there is
        // nothing to go back to, it does nothing rather than end the ssh session.
        case .character("q"), .ctrl("c"), .ctrl("d"): return .quit
        case .character(let typed):
            guard let item = items.first(where: { $0.key == typed }) else { return nil }
            selected = item
            awaitsEnterAfterShortcut = true
            return activate()
        default: break
        }
        return nil
    }

    /// A key while the name is typed: letters go in, Enter asks for it, Esc gives up.
    private mutating func type(_ event: InputEvent) -> Choice? {
        guard case .key(let key) = event, let typed = draft else { return nil }
        switch key {
        case .enter:
            draft = nil
            let wanted = String(typed.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            return wanted.isEmpty || wanted == name ? nil : .rename(wanted)
        case .escape, .ctrl("c"):
            draft = nil
        case .backspace:
            draft = String(typed.dropLast())
        case .character(let character) where typed.count < ClientMessageDecoder.maxNameLength:
            draft = typed + String(character)
        default: break
        }
        return nil
    }

    private mutating func move(_ step: Int) {
        let shown = items
        let index = shown.firstIndex(of: selected) ?? 0
        selected = shown[(index + step + shown.count) % shown.count]
    }

    private mutating func change(_ step: Int) {
        switch selected {
        case .botDuel: level = (level + step + levels.count) % levels.count
        case .variant:
            let all = Variant.allCases
            let index = all.firstIndex(of: variant) ?? 0
            variant = all[(index + step + all.count) % all.count]
        case .colours:
            let all = Colours.allCases
            let index = all.firstIndex(of: colours) ?? 0
            colours = all[(index + step + all.count) % all.count]
        case .resume, .quickDuel, .solo, .watch, .name, .standing, .lobby, .arenas, .quit: break
        }
    }

    private mutating func activate() -> Choice? {
        note = nil
        switch selected {
        case .resume: return .resume
        case .quickDuel: return .quickDuel
        case .botDuel: return .bot(level: levels[level])
        case .solo: return .solo
        case .watch: return .watch
        case .standing: return .standing
        case .lobby: return .lobby
        case .arenas: return .arenas
        case .quit: return .quit
        case .name:
            draft = ""
            return nil
        case .variant, .colours:
            change(1)
            return nil
        }
    }

    /// The text of an item's line.
    func label(_ item: Item) -> String {
        switch item {
        case .resume: "Back to \(waiting ?? "your game")"
        case .quickDuel: "Quick duel: play whoever is waiting"
        case .botDuel: "Duel a bot            < \(levels[level]) >"
        case .solo: "Solo game"
        case .variant: "Variant               < \(variant.title) >"
        case .watch: "Watch a live match"
        case .colours: "Colours               < \(colours.rawValue) >"
        case .name: draft.map { "Your name: \($0)_" } ?? "Your name             \(name)"
        case .standing: canRename ? "Your profile, your games, the leaderboard" : "The leaderboard"
        case .lobby: "Who is here: players, challenges, open seats, live duels"
        case .arenas: "Arenas: timed tournaments to join"
        case .quit: "Quit"
        }
    }

    /// The terminal's height, which says where the items start: `MenuLoop` sets it before
    /// each frame, so a click finds the line drawn under it.
    package var rows = 24

    /// The first row of the items: the title and who you are come before, with room to breathe
    /// where the terminal is tall enough, packed at its top where it is not; on a terminal too
    /// low for the title and every item (12 rows, a game waiting) the items start at the top.
    var firstItemRow: Int { Self.firstItemRow(rows: rows, items: items.count) }

    static func firstItemRow(rows: Int, items: Int) -> Int { rows >= 16 ? 4 : (rows > items ? 1 : 0) }

    func item(atRow row: Int) -> Item? {
        let shown = items
        return shown.indices.contains(row - firstItemRow) ? shown[row - firstItemRow] : nil
    }

    /// The menu drawn on a terminal of `size`: left-aligned at a small margin, so that each
    /// row's position, which clicks depend on, is the same at every size.
    package func render(size: TerminalSize) -> ScreenBuffer {
        var screen = ScreenBuffer(size: size)
        let margin = size.columns >= 60 ? 4 : 1
        let shown = items
        let first = Self.firstItemRow(rows: size.rows, items: shown.count)
        let title = page == nil && first <= 1 ? "Set, over ssh: you play as \(name)" : "Set, over ssh"
        if first > 0 || page != nil || arenas != nil {
            screen.write(title, column: margin, row: first <= 1 ? 0 : 1, style: CellStyle(bold: true))
        }
        if let arenas {
            let top = first <= 1 ? 1 : 3
            let lines = arenas.isEmpty ? ["No arenas are running or starting."]
                : arenas.enumerated().map { "\($0.offset + 1). \($0.element.line)" }
            for (index, line) in lines.enumerated() where top + index < size.rows - 1 {
                screen.write(LobbyView.fit(line, size.columns - margin), column: margin, row: top + index)
            }
            let keys = arenas.isEmpty ? "Any key: back to the menu" : "1-\(arenas.count) join that arena, any other key: back"
            screen.write(keys, column: margin, row: size.rows - 1, style: CellStyle(dim: true))
            return screen
        }
        if let page {
            // The answers are up to 80 columns wide, as `setgame profile` prints them: the margin
            // gives way before they are cut.
            let column = size.columns >= 80 + margin ? margin : 0
            let top = first <= 1 ? 1 : 3
            for (index, line) in page.enumerated() where top + index < size.rows - 1 {
                screen.write(line, column: column, row: top + index)
            }
            screen.write("Any key: back to the menu", column: margin, row: size.rows - 1, style: CellStyle(dim: true))
            return screen
        }
        if first > 1 { screen.write("You play as \(name).", column: margin, row: 2) }
        for (index, item) in shown.enumerated() {
            let chosen = item == selected
            let line = "\(item.key). \(label(item))"
            screen.write((chosen ? "> " : "  ") + line, column: margin - 1 < 0 ? 0 : margin - 1, row: first + index,
                         style: chosen ? CellStyle(reverse: true) : .plain)
        }
        let below = first + shown.count + 1
        let help = draft != nil ? "Type your name, Enter keep it, Esc give up" : "Up/Down choose, Left/Right change, Enter go, q quit"
        screen.write(help, column: margin, row: below, style: CellStyle(dim: true))
        // Wrapped at spaces to the screen's width: a server's refusal ran past 60 columns, cut.
        for (index, line) in Notice.wrap(note ?? "", width: size.columns - margin - 1).enumerated() where below + 2 + index < size.rows {
            screen.write(line, column: margin, row: below + 2 + index, style: CellStyle(bold: true))
        }
        return screen
    }
}
