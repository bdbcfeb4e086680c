import SetRules

/// The menu an ssh player meets with no command: a quick duel, a duel against a bot, a solo
/// game, the variant, the live matches to watch. Pure: keys and clicks in, a choice out, a grid
/// to draw.
package struct DoorMenu: Equatable, Sendable {
    /// One line of the menu.
    package enum Item: Int, CaseIterable, Sendable {
        case quickDuel, botDuel, solo, variant, watch, colours, quit
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
        case quickDuel
        case bot(level: String)
        case solo
        case watch
        case quit
    }

    package private(set) var selected = Item.quickDuel
    package private(set) var variant = Variant.classic
    /// The bot levels a player may pick, by name, and the one picked.
    package let levels: [String]
    package private(set) var level: Int
    package private(set) var colours = Colours.full
    /// Who the player is, in the title ("key-AbC123", "guest-4821").
    package let name: String

    package init(name: String, levels: [String]) {
        self.name = name
        self.levels = levels.isEmpty ? ["easy"] : levels
        level = 0
    }

    /// Takes one key or click; returns the choice once one is made.
    package mutating func input(_ event: InputEvent) -> Choice? {
        switch event {
        case .key(let key): return press(key)
        case .mouse(let mouse):
            guard mouse.button == .left, mouse.kind == .press, let item = Self.item(atRow: mouse.row) else { return nil }
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
        case .character(let digit):
            guard let number = digit.wholeNumberValue, let item = Item(rawValue: number - 1) else { return nil }
            selected = item
            return activate()
        default: break
        }
        return nil
    }

    private mutating func move(_ step: Int) {
        let count = Item.allCases.count
        selected = Item(rawValue: (selected.rawValue + step + count) % count) ?? .quickDuel
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
        case .quickDuel, .solo, .watch, .quit: break
        }
    }

    private mutating func activate() -> Choice? {
        switch selected {
        case .quickDuel: return .quickDuel
        case .botDuel: return .bot(level: levels[level])
        case .solo: return .solo
        case .watch: return .watch
        case .quit: return .quit
        case .variant, .colours:
            change(1)
            return nil
        }
    }

    /// The text of an item's line.
    func label(_ item: Item) -> String {
        switch item {
        case .quickDuel: "Quick duel: play whoever is waiting"
        case .botDuel: "Duel a bot            < \(levels[level]) >"
        case .solo: "Solo game"
        case .variant: "Variant               < \(variant.title) >"
        case .watch: "Watch a live match"
        case .colours: "Colours               < \(colours.rawValue) >"
        case .quit: "Quit"
        }
    }

    /// The first row of the items: the title and who you are come before.
    static let firstItemRow = 4

    static func item(atRow row: Int) -> Item? { Item(rawValue: row - firstItemRow) }

    /// The menu drawn on a terminal of `size`: left-aligned at a small margin, so that each
    /// row's position, which clicks depend on, is the same at every size.
    package func render(size: TerminalSize) -> ScreenBuffer {
        var screen = ScreenBuffer(size: size)
        let margin = size.columns >= 60 ? 4 : 1
        screen.write("Set, over ssh", column: margin, row: 1, style: CellStyle(bold: true))
        screen.write("You play as \(name).", column: margin, row: 2)
        for item in Item.allCases {
            let chosen = item == selected
            let line = "\(item.rawValue + 1). \(label(item))"
            screen.write((chosen ? "> " : "  ") + line, column: margin - 1 < 0 ? 0 : margin - 1, row: Self.firstItemRow + item.rawValue,
                         style: chosen ? CellStyle(reverse: true) : .plain)
        }
        let help = "Up/Down choose, Left/Right change, Enter go, q quit"
        screen.write(help, column: margin, row: Self.firstItemRow + Item.allCases.count + 1, style: CellStyle(dim: true))
        return screen
    }
}
