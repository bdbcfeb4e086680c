import SetRules
import SetWire

/// The menu an ssh player meets with no command: the way back to a game left waiting, a quick
/// duel, a duel against a bot, a solo game, the variant, the live matches to watch, the colours,
/// the player's name, their standing and the leaderboard. Pure: keys and clicks in, a choice out, a
/// grid to draw.
package struct DoorMenu: Equatable, Sendable {
    /// One line of the menu.
    package enum Item: Int, CaseIterable, Sendable {
        case resume, quickDuel, botDuel, solo, variant, watch, colours, name, standing, lobby, quit

        /// The key that picks it, shown before its line: digits stay the same whether or not a
        /// game waits, so a player's fingers (and scripts) learn them once.
        var key: Character {
            switch self {
            case .resume: "0"
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
    }

    /// Takes one key or click; returns the choice once one is made.
    package mutating func input(_ event: InputEvent) -> Choice? {
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
        case .escape, .character("q"), .ctrl("c"), .ctrl("d"): return .quit
        case .character(let typed):
            guard let item = items.first(where: { $0.key == typed }) else { return nil }
            selected = item
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
        case .resume, .quickDuel, .solo, .watch, .name, .standing, .lobby, .quit: break
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
        case .quit: "Quit"
        }
    }

    /// The terminal's height, which says where the items start: `MenuLoop` sets it before
    /// each frame, so a click finds the line drawn under it.
    package var rows = 24

    /// The first row of the items: the title and who you are come before, with room to breathe
    /// where the terminal is tall enough, packed at its top where it is not (12 rows hold all).
    var firstItemRow: Int { rows >= 16 ? 4 : 1 }

    func item(atRow row: Int) -> Item? {
        let shown = items
        return shown.indices.contains(row - firstItemRow) ? shown[row - firstItemRow] : nil
    }

    /// The menu drawn on a terminal of `size`: left-aligned at a small margin, so that each
    /// row's position, which clicks depend on, is the same at every size.
    package func render(size: TerminalSize) -> ScreenBuffer {
        var screen = ScreenBuffer(size: size)
        let margin = size.columns >= 60 ? 4 : 1
        let first = size.rows >= 16 ? 4 : 1
        let title = page == nil && first == 1 ? "Set, over ssh: you play as \(name)" : "Set, over ssh"
        screen.write(title, column: margin, row: first == 1 ? 0 : 1, style: CellStyle(bold: true))
        if let page {
            // The answers are up to 80 columns wide, as `setgame profile` prints them: the margin
            // gives way before they are cut.
            let column = size.columns >= 80 + margin ? margin : 0
            let top = first == 1 ? 1 : 3
            for (index, line) in page.enumerated() where top + index < size.rows - 1 {
                screen.write(line, column: column, row: top + index)
            }
            screen.write("Any key: back to the menu", column: margin, row: size.rows - 1, style: CellStyle(dim: true))
            return screen
        }
        if first > 1 { screen.write("You play as \(name).", column: margin, row: 2) }
        let shown = items
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
