import SetRules
import SetWire
import Testing
@testable import SetScreen

@Suite struct ScreenComposerTests {
    static let sizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40),
                        TerminalSize(columns: 200, rows: 60)]

    @Test(arguments: sizes, [3, 12, 21, 81])
    func everyCardIsDrawnWholeApartAndInside(size: TerminalSize, cards: Int) throws {
        let app = ClientFixtures.app(ClientFixtures.view(cards: cards), size: size)
        let screen = app.compose(at: 0)
        let layout = app.layout
        let table = try #require(layout.table, "\(size) \(cards)")
        #expect(table.cardRects.count == cards)
        let labels = CardLabels(count: cards)
        for (index, rect) in table.cardRects.enumerated() {
            #expect(layout.tableArea.contains(rect), "card \(index) at \(rect) leaves the table area")
            #expect(rect.width == 2 * rect.height - 1, "every card has the same shape")
            #expect(rect.width == table.cardSize.width && rect.height == table.cardSize.height)
            for (column, row) in [(rect.column, rect.row), (rect.endColumn - 1, rect.row),
                                  (rect.column, rect.endRow - 1), (rect.endColumn - 1, rect.endRow - 1)] {
                #expect(ClientFixtures.corners.contains(screen[column, row].character), "card \(index) corner at \(column),\(row)")
            }
            let label = try #require(labels.label(for: index))
            let drawn = String((0..<label.count).map { screen[rect.column + 1 + $0, rect.row].character })
            #expect(drawn == label, "card \(index) shows its label")
            for other in table.cardRects[(index + 1)...] { #expect(!rect.intersects(other)) }
        }
        if let pile = layout.deckPile {
            #expect(layout.tableArea.contains(pile))
            #expect(table.cardRects.allSatisfy { !$0.intersects(pile) })
        }
    }

    @Test(arguments: sizes)
    func statusShowsPlayersScoresDeckAndButtons(size: TerminalSize) {
        // A duel whose rules allow hints: every button (the standard duel shows no Hint).
        var view = ClientFixtures.view()
        view.rules.hintsInDuel = true
        let screen = ClientFixtures.app(view, size: size).compose(at: 0).textLines
        #expect(screen[0].contains("alice (you) 42"))
        #expect(screen[0].contains("bob 17"))
        #expect(screen[0].contains("deck 69"))
        #expect(screen[0].contains("2 watching"))
        #expect(screen[1].contains("Spot a set?"))
        let buttons = screen[size.rows - 1]
        for word in ["Set!", "Deal 3", "Hint", "Pass", "Help", "Quit"] { #expect(buttons.contains(word), "\(word) at \(size)") }
    }

    @Test func windowCountdownFollowsTheServerClock() {
        var app = ClientFixtures.app(ClientFixtures.view())
        // The server's clock runs 1 000 ms ahead of ours (welcome at local 0 said 1 000).
        let window = Window(kind: .claim, holder: .second, opened: Instant(milliseconds: 1_000), deadline: Instant(milliseconds: 6_000))
        _ = app.receive(ClientFixtures.event(.rules(.windowOpened(window)), seq: 6), at: 0)
        #expect(app.compose(at: 1_800).textLines[1].contains("bob called Set!: wait  3.2 s"))
        #expect(app.compose(at: 4_950).textLines[1].contains("0.1 s"))
        #expect(app.state.opponentSelection.isEmpty)
    }

    @Test func noticesSayWhatHappened() {
        var app = ClientFixtures.app(ClientFixtures.view())
        let trio = Array(Card.all.prefix(3))
        _ = app.receive(ClientFixtures.event(.rules(.setTaken(seat: .second, cards: trio, points: 24, score: 41)), seq: 6), at: 0)
        #expect(app.compose(at: 10).textLines[1].contains("bob took a set: +24"))
        _ = app.receive(ClientFixtures.event(.rules(.notASet(seat: .first, cards: trio, penalty: 10, score: 32)), seq: 7), at: 100)
        #expect(app.compose(at: 110).textLines[1].contains("not a set: −10"))
        #expect(app.compose(at: 110).textLines[0].contains("alice (you) 32"))
        #expect(!app.compose(at: 10_000).textLines[1].contains("not a set"), "notices fade")
    }

    @Test func selectionsLookDifferentFromEachOther() throws {
        var app = ClientFixtures.app(ClientFixtures.view())
        let window = Window(kind: .claim, holder: .first, opened: Instant(milliseconds: 1_000), deadline: Instant(milliseconds: 6_000))
        _ = app.receive(ClientFixtures.event(.rules(.windowOpened(window)), seq: 6), at: 0)
        _ = app.receive(ClientFixtures.event(.rules(.selectionChanged(seat: .first, selection: [Card.all[0]])), seq: 7), at: 0)
        let screen = app.compose(at: 0)
        let rects = try #require(app.layout.table).cardRects
        #expect(screen[rects[0].column, rects[0].row].character == "┏", "my selection is heavy")
        #expect(screen[rects[1].column, rects[1].row].character == "╭")
    }

    /// A box's line wider than a small terminal is wrapped at its spaces, keeping each piece's
    /// style: the game-over box at 40×12 showed "bot-easy asked for a rematch · r rem" and lost
    /// how to quit.
    @Test func aBoxLineTooWideForTheTerminalIsWrapped() {
        let key = CellStyle(bold: true)
        let line = [Span("bot-easy asked for a rematch · "), Span("r", key), Span(" rematch   "), Span("q", key), Span(" quit   "),
                    Span("Esc", key), Span(" see the table")]
        let wrapped = Panel.wrapped(line, width: 30)
        #expect(wrapped.allSatisfy { $0.width <= 30 })
        #expect(wrapped.map { $0.map(\.text).joined() } == ["bot-easy asked for a rematch ·", "r rematch   q quit   Esc see", "the table"])
        #expect(wrapped[1].first == Span("r", key) && wrapped[1].contains(Span("Esc", key)))
        #expect(Panel.wrapped([Span("short")], width: 30) == [[Span("short")]])
        var view = ClientFixtures.view(phase: .over)
        view.result = MatchResult(reason: .noSetsLeft, by: nil, scores: [5, 3], winner: .first)
        view.rematchAsked = [.second]
        let app = ClientFixtures.app(view, size: TerminalSize(columns: 40, rows: 16))
        let text = app.compose(at: 0).textLines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("quit") && text.contains("see the table"), "\(app.compose(at: 0).textLines.joined(separator: "\n"))")
    }

    @Test func dealingAfterTheGameIsOverSaysSoInsteadOfAlerting() {
        var view = ClientFixtures.view(phase: .over)
        view.deck = 0
        var app = ClientFixtures.app(view, size: TerminalSize(columns: 80, rows: 24))
        #expect(app.perform(.deal, at: 0).isEmpty)
        let text = app.compose(at: 0).textLines.joined()
        #expect(!text.contains("The deck is empty"))
        #expect(text.contains("the game is over"))
    }

    @Test func deckEmptyAlertThenDisabledDealButton() {
        var view = ClientFixtures.view()
        view.deck = 0
        var app = ClientFixtures.app(view, size: TerminalSize(columns: 80, rows: 24))
        let effects = app.perform(.deal, at: 0)
        #expect(effects.isEmpty, "nothing is sent for an empty deck")
        #expect(app.compose(at: 0).textLines.joined().contains("The deck is empty"))
        _ = app.perform(.dismiss, at: 0)
        let screen = app.compose(at: 0)
        #expect(!screen.textLines.joined().contains("The deck is empty"))
        let deal = app.layout.buttons.first { $0.button == .deal }!.rect
        #expect(screen[deal.column + 1, deal.row].style == Theme.standard.disabledButton)
        #expect(screen.textLines[0].contains("deck empty"))
    }

    @Test func helpListsEveryKey() {
        var app = ClientFixtures.app(ClientFixtures.view())
        _ = app.perform(.help, at: 0)
        let text = app.compose(at: 0).textLines.joined(separator: "\n")
        for key in ["1 2 3 …", "hjkl", "space", "s or Enter", "Set!", "│ d ", "│ p ", "│ r ", "│ ? ",
                    "│ Esc ", "Ctrl-C"] {
            #expect(text.contains(key), "help mentions \(key)\n\(text)")
        }
        // Issue 23: the standard duel has hints off, so its help does not offer the key; a duel
        // whose rules allow hints, and solo, do.
        #expect(!text.contains("│ c "), "\(text)")
        var hints = ClientFixtures.view()
        hints.rules.hintsInDuel = true
        for view in [hints, ClientFixtures.view(mode: .solo)] {
            var app = ClientFixtures.app(view)
            _ = app.perform(.help, at: 0)
            #expect(app.compose(at: 0).textLines.joined(separator: "\n").contains("│ c "))
        }
    }

    @Test func matchOverShowsWinnerScoresAndCheckedSeed() throws {
        var view = ClientFixtures.view(phase: .over)
        view.commitment = SeedCommitment.commitment(for: 1234)
        view.seed = 1234
        view.result = MatchResult(reason: .noSetsLeft, by: nil, scores: [42, 17], winner: .first)
        let text = ClientFixtures.app(view).compose(at: 0).textLines.joined(separator: "\n")
        #expect(text.contains("You win!"))
        #expect(text.contains("alice 42   bob 17"))
        #expect(text.contains("seed 1234 ✓ matches the promised deal"))
        // The commitment too, whole where the box holds it: what a friend checks a claimed result against.
        #expect(text.contains("commitment \(SeedCommitment.commitment(for: 1234))"), "\(text)")
        let narrow = ClientFixtures.app(view, size: TerminalSize(columns: 60, rows: 20)).compose(at: 0).textLines.joined(separator: "\n")
        let cut = try #require(narrow.split(separator: "\n").first { $0.contains("commitment ") })
        #expect(cut.contains("commitment \(SeedCommitment.commitment(for: 1234).prefix(16))") && cut.contains("… │"), "\(narrow)")
        #expect(text.contains("r rematch"))
        view.commitment = SeedCommitment.commitment(for: 99)
        #expect(ClientFixtures.app(view).compose(at: 0).textLines.joined().contains("✗ does NOT match"))
    }

    @Test func spectatorPicksFromTheList() {
        var app = ClientApp(state: ClientState(options: ClientFixtures.configuration(role: .spectator), size: TerminalSize(columns: 80, rows: 24)))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        let greeted = app.receive(.welcome(server: "t", versions: [1], time: 0, limits: ServerLimits()), at: 0)
        #expect(greeted.contains(.send(.list())))
        _ = app.receive(.matches([MatchListing(name: "duel-1", mode: .duel, phase: .playing, players: ClientFixtures.players, spectators: 0),
                                  MatchListing(name: "duel-2", mode: .duel, phase: .waiting, players: [], spectators: 1)], next: nil, id: nil), at: 0)
        let screen = app.compose(at: 0).textLines
        #expect(screen.contains { $0.contains("1  duel-1") && $0.contains("alice new 42 vs bob new 17") })
        #expect(screen.contains { $0.contains("2  duel-2") })
        _ = app.input(.key(.down), at: 0)
        let joined = app.input(.key(.enter), at: 0)
        #expect(joined == [.send(.join(JoinRequest(role: .spectator, name: "alice", match: "duel-2")))])
    }

    @Test func colourblindAndNoColourShowLetters() throws {
        let app = ClientFixtures.app(ClientFixtures.view(), theme: .noColor)
        let screen = app.compose(at: 0)
        let rect = try #require(app.layout.table).cardRects[0]
        #expect(screen[rect.endColumn - 2, rect.endRow - 1].character == "R")
        for row in 0..<screen.size.rows {
            for column in 0..<screen.size.columns {
                let style = screen[column, row].style
                #expect(style.foreground == .default && style.background == .default)
            }
        }
    }
}

extension ScreenComposerTests {
    /// The wait before an away player's seat is forfeited reads as a clock while that reads at a
    /// glance; a year's wait (a local game's) is said in days, not as "525599:48".
    @Test(arguments: [(119_000, "forfeit in 1:59"), (90 * 60_000, "forfeit in 1:30:00"),
                      (365 * 24 * 3_600_000, "forfeit in 365 days")] as [(Int64, String)])
    func anAwayPlayersForfeitCountdownReadsAtAGlance(wait: Int64, shown: String) {
        var view = ClientFixtures.view()
        view.players[1].present = false
        // The fixture's server clock reads 1,000 ms when the app's reads 0.
        view.forfeitAt = 1_000 + wait
        let app = ClientFixtures.app(view, role: .spectator)
        let status = app.compose(at: 0).textLines[1]
        #expect(status.contains("bob is away: the match waits, \(shown)"), "\(status)")
    }
}
