import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The variants on screen: UltraSet picks four, Set-Chain shows its chain apart and lets it be
/// touched by label and by click, and help and the wait explain the variant.
@Suite struct VariantScreenTests {
    func view(_ variant: Variant, chain: [Card] = [], phase: MatchPhase = .playing) -> MatchView {
        var view = ClientFixtures.view(phase: phase)
        view.variant = variant
        view.chain = chain
        return view
    }

    /// The chain's cards lie in the strip: apart from the table, inside its area, each showing
    /// its label; no line of names stands in for them.
    func expectChainInTheStrip(_ app: ClientApp, _ chain: [Card]) throws {
        let rects = try #require(ChainStrip.rects(layout: app.layout, count: chain.count))
        let table = try #require(app.layout.table)
        let screen = app.compose(at: 0)
        #expect(!screen.textLines.joined().contains("chain: "))
        for (index, rect) in rects.enumerated() {
            #expect(table.cardRects.allSatisfy { !$0.intersects(rect) } && app.layout.tableArea.contains(rect))
            let label = try #require(app.state.labels.label(of: chain[index]))
            #expect(String((0..<label.count).map { screen[rect.column + 1 + $0, rect.row].character }) == label)
        }
    }

    func selects(_ effects: [ClientEffect]) -> [Card] {
        effects.compactMap { if case .send(.act(.select(let card), _, _)) = $0 { card } else { nil } }
    }

    /// UltraSet's second chance asks for its own pick: it said "find a set".
    @Test func ultraSetsSecondChanceAsksForAnUltra() {
        var app = ClientFixtures.app(view(.ultra), size: TerminalSize(columns: 80, rows: 24))
        let window = Window(kind: .secondChance, holder: .first, opened: Instant(milliseconds: 1_000), deadline: Instant(milliseconds: 11_000))
        _ = app.receive(ClientFixtures.event(.rules(.windowOpened(window)), seq: 6), at: 10)
        let status = app.compose(at: 11).textLines[1]
        #expect(status.contains("your second chance: find an ultra") && !status.contains("a set"), "'\(status)'")
        // The window's own line, once the news is gone, said "pick a set".
        let later = app.compose(at: 5_000).textLines.joined(separator: "\n")
        #expect(later.contains("Your second chance: pick an ultra") && !later.contains("pick a set"), "'\(later)'")
    }

    @Test func inUltraSetAPlayerSelectsFourCardsAndNoMore() {
        var app = ClientFixtures.app(view(.ultra))
        for index in 0..<5 { _ = app.perform(.toggle(index), at: 0) }
        #expect(app.state.mySelection == Array(Card.all.prefix(4)))
        let screen = app.compose(at: 0).textLines
        #expect(screen[0].contains("UltraSet"))
        var fresh = ClientFixtures.app(view(.ultra))
        #expect(fresh.compose(at: 0).textLines[1].contains("Spot an ultra?"))
        _ = fresh.perform(.help, at: 0)
        let help = fresh.compose(at: 0).textLines.joined(separator: "\n")
        #expect(help.contains("then pick four cards"))
        #expect(help.contains("UltraSet: pick four cards that split into two pairs"))
    }

    /// With the table full at 80×24 the chain's cards are 5×3: the caption must not hide the
    /// first one's label or a hint's mark, or that card cannot be told by its key.
    @Test func aNarrowChainCardKeepsItsLabelAndHintMarkUnderTheCaption() throws {
        let chain = Array(Card.all.suffix(3))
        var full = ClientFixtures.view(cards: 78, mode: .solo)
        full.variant = .chain
        full.chain = chain
        var app = ClientFixtures.app(full, size: TerminalSize(columns: 80, rows: 24))
        app.state.hint = [chain[0]]
        let rects = try #require(ChainStrip.rects(layout: app.layout, count: 3))
        #expect(rects[0].width < 13, "the case at hand: cards too narrow for the caption beside the label")
        let screen = app.compose(at: 0)
        for (index, rect) in rects.enumerated() {
            let label = try #require(app.state.labels.label(of: chain[index]))
            let drawn = String((0..<label.count).map { screen[rect.column + 1 + $0, rect.row].character })
            #expect(drawn == label, "chain card \(index) shows its label")
        }
        #expect(screen[rects[0].endColumn - 2, rects[0].row].character == "?", "the hint's mark shows")
        #expect(screen.textLines.joined().contains("chain"))
    }

    @Test func theChainIsDrawnApartInThePilesStripWithLabelsAfterTheTable() throws {
        let chain = Array(Card.all.suffix(3))
        var app = ClientFixtures.app(view(.chain, chain: chain))
        let layout = app.layout
        let rects = try #require(ChainStrip.rects(layout: layout, count: 3))
        let table = try #require(layout.table)
        let screen = app.compose(at: 0)
        let labels = CardLabels(count: 15)
        for (index, rect) in rects.enumerated() {
            #expect(table.cardRects.allSatisfy { !$0.intersects(rect) }, "apart from the table")
            #expect(layout.tableArea.contains(rect))
            #expect(ClientFixtures.corners.contains(screen[rect.endColumn - 1, rect.endRow - 1].character))
            let label = try #require(labels.label(for: 12 + index))
            let drawn = String((0..<label.count).map { screen[rect.column + 1 + $0, rect.row].character })
            #expect(drawn == label, "chain card \(index) shows the label after the table's")
        }
        #expect(screen.textLines.joined().contains(" chain "))
        #expect(screen.textLines[0].contains("Set-Chain") && screen.textLines[0].contains("deck 69"))

        // Its label touches it (calling "Set!" first, as any touch does), and so does a click.
        let key = try #require(labels.label(for: 13))
        var effects: [ClientEffect] = []
        for character in key { effects += app.perform(.label(character), at: 0) }
        #expect(selects(effects) == [chain[1]])
        #expect(app.state.shownSelection == [chain[1]])
        let context = app.inputContext
        let click = InputEvent.mouse(MouseEvent(button: .left, kind: .press, column: rects[2].column + 2, row: rects[2].row + 1))
        #expect(InputMapper.command(for: click, in: context) == .toggle(14))
    }

    @Test func withoutAStripTheChainIsOneLineOfNames() {
        let chain = Array(Card.all.suffix(3))
        let app = ClientFixtures.app(view(.chain, chain: chain), size: TerminalSize(columns: 160, rows: 10))
        let text = app.compose(at: 0).textLines.joined(separator: "\n")
        #expect(ChainStrip.rects(layout: app.layout, count: 3) == nil, "this screen has no strip beside the table")
        #expect(text.contains("chain: "))
        #expect(text.contains(chain[0].name.prefix(10)))
    }

    /// At 80×24 a chain beside 15 cards still has its strip, at the cost of the cards' size: the
    /// line of names that stood in for it had no row and was written over the last cards.
    @Test func theChainKeepsItsStripAt80x24WhenTheTableGrows() throws {
        let chain = Array(Card.all.suffix(3))
        var fifteen = ClientFixtures.view(cards: 15, mode: .solo)
        fifteen.variant = .chain
        fifteen.chain = chain
        let app = ClientFixtures.app(fifteen, size: TerminalSize(columns: 80, rows: 24))
        try expectChainInTheStrip(app, chain)
        let table = try #require(app.layout.table)
        var classic = fifteen
        classic.variant = .classic
        classic.chain = []
        #expect(ClientFixtures.app(classic, size: TerminalSize(columns: 80, rows: 24)).layout.table?.cardSize == table.cardSize
                    || ClientFixtures.app(classic, size: TerminalSize(columns: 80, rows: 24)).layout.deckPile == nil,
                "without a chain nothing changes: the pile still comes only for free")
    }

    /// Set-Chain at 80×24 with 8 cards left and the deck empty (issue 45): the chain stays cards in
    /// the strip, not a line of names cut at the screen's edge, and none of it is left around
    /// the game-over box.
    @Test func withEightCardsLeftTheChainKeepsItsStripAndLeavesAtGameOver() throws {
        let chain = Array(Card.all.suffix(3))
        var eight = ClientFixtures.view(cards: 8, mode: .solo)
        eight.variant = .chain
        eight.deck = 0
        eight.chain = chain
        var app = ClientFixtures.app(eight, size: TerminalSize(columns: 80, rows: 24))
        try expectChainInTheStrip(app, chain)
        let over = MatchResult(reason: .noSetsLeft, by: nil, scores: [30], winner: .first)
        _ = app.receive(ClientFixtures.event(.gameOver(over, seed: 1), seq: 6), at: 10)
        let end = app.compose(at: 5_000).textLines.joined(separator: "\n")
        #expect(!end.contains("chain") && !end.contains("▞▀▚"), "the chain's open ovals are gone: \(end)")
    }

    /// Where no strip fits, the line of names fits the screen: each card shortened to its number,
    /// glyph and colour rather than the last ones cut at the edge.
    @Test func theLineOfNamesFitsTheScreen() {
        let chain = [Card(.three, .striped, .purple, .squiggle), Card(.two, .striped, .purple, .squiggle), Card(.one, .striped, .purple, .squiggle)]
        let app = ClientFixtures.app(view(.chain, chain: chain), size: TerminalSize(columns: 100, rows: 10))
        #expect(ChainStrip.rects(layout: app.layout, count: 3) == nil, "the case at hand: no strip")
        let line = app.compose(at: 0).textLines.first { $0.contains("chain: ") } ?? ""
        #expect(line.contains("3◧ purple") && line.trimmingCharacters(in: .whitespaces).hasSuffix("1◧ purple"), "'\(line)'")
    }

    /// A hint whose set uses a chain card marks it in the line of names too: a hint that points
    /// at nothing on screen helps nobody.
    @Test func withoutAStripAHintedChainCardIsMarked() throws {
        let chain = Array(Card.all.suffix(3))
        var app = ClientFixtures.app(view(.chain, chain: chain), size: TerminalSize(columns: 160, rows: 10))
        app.state.hint = [chain[1]]
        let text = app.compose(at: 0).textLines.joined(separator: "\n")
        let hinted = try #require(app.state.labels.label(of: chain[1])), plain = try #require(app.state.labels.label(of: chain[0]))
        #expect(text.contains("[\(hinted)]? \(chain[1].name)"))
        #expect(text.contains("[\(plain)] \(chain[0].name)"))
    }

    @Test func theWaitForAnOpponentAndTheHelpExplainTheVariant() {
        for variant in [Variant.junior, .chain] {
            var waiting = view(variant, phase: .waiting)
            waiting.players = [ClientFixtures.players[0]]
            var app = ClientFixtures.app(waiting)
            #expect(app.compose(at: 0).textLines.joined(separator: " ").contains(String(variant.summary.prefix(30))))
            _ = app.perform(.help, at: 0)
            #expect(app.compose(at: 0).textLines.joined(separator: " ").contains(String(variant.summary.prefix(30))))
        }
        var classic = ClientFixtures.app(ClientFixtures.view())
        _ = classic.perform(.help, at: 0)
        #expect(!classic.compose(at: 0).textLines.joined().contains("Classic:"), "the classic game needs no legend")
    }

    @Test func theSpectatorsMatchListNamesTheVariant() {
        var app = ClientApp(state: ClientState(options: ClientFixtures.configuration(role: .spectator), size: TerminalSize(columns: 100, rows: 24)))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        _ = app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 0)
        _ = app.receive(.matches([MatchListing(name: "u", mode: .duel, phase: .playing, players: ClientFixtures.players,
                                               spectators: 0, variant: .ultra),
                                  MatchListing(name: "c", mode: .duel, phase: .waiting, players: [], spectators: 0)], next: nil, id: nil), at: 0)
        let screen = app.compose(at: 0).textLines
        #expect(screen.contains { $0.contains("1  u") && $0.contains("UltraSet  alice new 42 vs bob new 17") })
        #expect(screen.contains { $0.contains("2  c") && !$0.contains("Classic") })
    }

    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40)])
    func theHelpBoxPutsTheVariantBesideTheCardLegendAtEverySize(size: TerminalSize) {
        var app = ClientFixtures.app(view(.chain), size: size)
        _ = app.perform(.help, at: 0)
        let text = app.compose(at: 0).textLines.joined(separator: " ")
        #expect(text.contains("Set-Chain: after the first set"), "\(size)")
        #expect(text.contains("solid"), "the card legend is still there")
    }
}
