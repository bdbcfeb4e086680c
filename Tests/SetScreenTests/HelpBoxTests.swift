import SetClient
import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The help box at the sizes a newcomer meets: the shapes as drawn (never glyphs while a drawn
/// size fits), the mouse and the command that lets others watch.
@Suite struct HelpBoxTests {
    static let watch = CommandHint(lead: "Others can watch with:",
                                   command: "/home/ann/setgame/.build/debug/setgame watch 127.0.0.1:36057 duel-1")

    static func help(_ variant: Variant = .classic, mode: Mode = .duel, phase: MatchPhase = .playing, cards: Int = 12,
                     size: TerminalSize) -> [String] {
        var view = ClientFixtures.view(cards: cards, mode: mode, phase: phase)
        view.variant = variant
        var app = ClientFixtures.app(view, size: size)
        app.state.options.watchLead = watch.lead
        app.state.options.watchCommand = watch.command
        app.state.options.local = LocalMatch(onStart: {}, onHold: { _ in })
        _ = app.perform(.help, at: 0)
        return app.compose(at: 0).textLines
    }

    /// The card size whose three solid shapes the screen shows, each row under the one above.
    static func drawnLegendSize(_ screen: [String]) -> CardSize? {
        CardSize.all.reversed().first { size in
            Shape.allCases.allSatisfy { shape in
                guard let rows = CardArt.symbolCells(shape, .solid, cardSize: size)?.map({ String($0) }) else { return false }
                return screen.indices.contains { top in
                    rows.indices.allSatisfy { top + $0 < screen.count && screen[top + $0].contains(rows[$0]) }
                }
            }
        }
    }

    static let cases: [(name: String, variant: Variant, mode: Mode, phase: MatchPhase, cards: Int)] = [
        ("classic duel", .classic, .duel, .playing, 12), ("solo", .classic, .solo, .playing, 12),
        ("chain", .chain, .duel, .playing, 12), ("ultra", .ultra, .duel, .playing, 12),
        ("game over, table empty", .classic, .duel, .over, 0), ("game over, six large cards", .classic, .solo, .over, 6),
        ("junior, 15 cards", .junior, .duel, .playing, 15),
    ]

    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 60, rows: 20)], 0..<cases.count)
    func theHelpDrawsTheShapesAndNamesTheMouseAndTheWatchCommand(size: TerminalSize, index: Int) {
        let scenario = Self.cases[index]
        let screen = Self.help(scenario.variant, mode: scenario.mode, phase: scenario.phase, cards: scenario.cards, size: size)
        let text = screen.joined(separator: "\n")
        let name = "\(scenario.name) at \(size.columns)×\(size.rows)"
        // The legend shows the symbols as a table of 12 draws them there: shapes at 80×24, the
        // glyphs of 9×5 cards at 60×20.
        let dealt = ClientFixtures.app(ClientFixtures.view(), size: size).layout.table?.cardSize
        if let dealt, CardArt.symbolCells(.oval, .solid, cardSize: dealt) != nil {
            #expect(Self.drawnLegendSize(screen) != nil, "\(name): shapes as drawn\n\(text)")
            #expect(!text.contains("◆◈◇"), "\(name): no glyph legend")
        } else {
            #expect(size.columns == 60 && dealt == TableLayout.smallestReadable, "\(name): 12 cards are 9×5 only at 60×20")
            #expect(text.contains("◆◈◇ diamond"), "\(name): the glyphs the cards show\n\(text)")
        }
        for word in ["diamond", "squiggle", "oval", "solid", "striped", "open", "Mouse: click a card", "q quit"] {
            #expect(text.contains(word), "\(name): \(word)\n\(text)")
        }
        // At 80×24 the command is whole on its own line; a 60×20 box with a variant's rule
        // may have no room left for it.
        if size.columns >= 80 {
            #expect(text.contains("Others can watch with:"), "\(name)\n\(text)")
            #expect(screen.contains { $0.contains(Self.watch.command) }, "\(name): the watch command")
        }
        if scenario.variant != .classic {
            #expect(text.contains("\(scenario.variant.title):"), "\(name): the variant's rule")
        }
    }

    @Test func cardsThatShowGlyphsGetAGlyphLegend() {
        let screen = Self.help(cards: 81, size: TerminalSize(columns: 80, rows: 24)).joined(separator: "\n")
        #expect(screen.contains("◆◈◇ diamond"), "\(screen)")
        #expect(screen.contains("Mouse: click a card"))
    }

    @Test func aTableThatFitsItsLegendShowsItsOwnSize() throws {
        let screen = Self.help(size: TerminalSize(columns: 80, rows: 24))
        #expect(Self.drawnLegendSize(screen) == CardSize(height: 7))
        let wide = Self.help(size: TerminalSize(columns: 120, rows: 40))
        let app = ClientFixtures.app(ClientFixtures.view(), size: TerminalSize(columns: 120, rows: 40))
        #expect(Self.drawnLegendSize(wide) == app.layout.table?.cardSize)
        #expect(wide.joined().contains("s or Enter"), "room for every key in full")
    }
}
