import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The screen at the sizes people use, down to 40×12: readable notices, a help box that fits,
/// buttons that keep their keys, a deal that is refused when the cards could not be shown.
@Suite struct ScreenSizeTests {
    static let sizes = [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 100, rows: 30),
                        TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60),
                        TerminalSize(columns: 40, rows: 12)]
    static let small = TerminalSize(columns: 40, rows: 12)
    static let standard = TerminalSize(columns: 80, rows: 24)

    static func window(_ kind: WindowKind, _ holder: Seat) -> Window {
        Window(kind: kind, holder: holder, opened: Instant(milliseconds: 1_000), deadline: Instant(milliseconds: 11_000))
    }

    @Test(arguments: sizes)
    func twelveCardsAreDrawnWholeWithTheirArtTier(size: TerminalSize) throws {
        let app = ClientFixtures.app(ClientFixtures.view(), size: size)
        let screen = app.compose(at: 0)
        let table = try #require(app.layout.table, "\(size)")
        let interior = TerminalSize(columns: table.cardSize.width - 2, rows: table.cardSize.height - 2)
        let tier = SymbolTier.forInterior(interior)
        for (index, rect) in table.cardRects.enumerated() {
            #expect(app.layout.tableArea.contains(rect))
            for (column, row) in [(rect.column, rect.row), (rect.endColumn - 1, rect.endRow - 1)] {
                #expect(ClientFixtures.corners.contains(screen[column, row].character), "card \(index) at \(size)")
            }
            // The inside is exactly the card's art at this size.
            let art = CardArt.symbolCharacters(Card.all[index], tier: tier, interior: interior)
            if case .drawn = tier {
                for (row, line) in art.enumerated() {
                    let drawn = (0..<line.count).map { screen[rect.column + 1 + $0, rect.row + 1 + row].character }
                    #expect(drawn == line, "card \(index) row \(row) at \(size)")
                }
            }
        }
        if size.columns >= 80 {
            guard case .drawn = tier else { Issue.record("\(size) draws no shapes"); return }
        }
    }

    @Test(arguments: sizes)
    func buttonsKeepTheirKeysDownTo40Columns(size: TerminalSize) {
        let app = ClientFixtures.app(ClientFixtures.view(), size: size)
        let bottom = app.compose(at: 0).textLines[size.rows - 1]
        #expect(app.layout.buttons.map(\.button) == ClientApp.buttons(for: app.state), "every button placed at \(size)")
        for (button, rect) in app.layout.buttons {
            let text = String(Array(bottom)[rect.column..<rect.endColumn])
            #expect(text.contains(button.key), "\(button) shows its key at \(size): '\(text)'")
        }
        #expect(app.layout.buttonForm == (size.columns >= 60 ? .full : .short))
    }

    @Test(arguments: sizes)
    func theDeckCountStaysInsideThePile(size: TerminalSize) throws {
        for cards in [12, 15, 21] {
            var view = ClientFixtures.view(cards: cards)
            view.deck = 69
            let app = ClientFixtures.app(view, size: size)
            guard let pile = app.layout.deckPile else { continue }
            let screen = app.compose(at: 0)
            let border = (pile.column..<pile.endColumn).flatMap { [screen[$0, pile.row], screen[$0, pile.endRow - 1]] }
                + (pile.row..<pile.endRow).flatMap { [screen[pile.column, $0], screen[pile.endColumn - 1, $0]] }
            #expect(border.allSatisfy { "╭╮╰╯─│".contains($0.character) || " deck".contains($0.character) }, "\(size) \(cards)")
            #expect(screen.textLines[pile.row + pile.height / 2].contains("69"), "\(size) \(cards)")
        }
    }

    @Test(arguments: sizes)
    func theCursorFrameIsObviousAtEverySize(size: TerminalSize) throws {
        var app = ClientFixtures.app(ClientFixtures.view(), size: size)
        _ = app.input(.key(.right), at: 0)
        let rect = try #require(app.layout.table?.cardRects[app.state.cursor])
        let screen = app.compose(at: 0)
        for column in rect.column..<rect.endColumn {
            #expect(screen[column, rect.row].style.reverse && screen[column, rect.endRow - 1].style.reverse, "\(size)")
        }
        let other = try #require(app.layout.table?.cardRects[app.state.cursor == 0 ? 1 : 0])
        #expect(!screen[other.column, other.row].style.reverse)
        // Reverse video is an attribute, not a colour: the cursor shows without colour too.
        let plain = ClientFixtures.app(ClientFixtures.view(), size: size, theme: .noColor)
        var moved = plain
        _ = moved.input(.key(.right), at: 0)
        #expect(moved.compose(at: 0)[rect.column + 1, rect.row].style.reverse)
    }

    // MARK: Notices at 80 columns

    /// Each notice that matters with the busiest status it can meet; the full text must show.
    static let notices: [(name: String, events: [EventBody], notice: String)] = [
        ("set taken while a window runs", [.rules(.windowOpened(window(.secondChance, .second))),
                                           .rules(.setTaken(seat: .second, cards: Array(Card.all.prefix(3)), points: 24, score: 41))],
         "bob took a set: +24"),
        ("not a set with its penalty", [.rules(.windowOpened(window(.claim, .first))),
                                        .rules(.notASet(seat: .first, cards: Array(Card.all.prefix(3)), penalty: 10, score: 32))],
         "not a set: −10"),
        ("second chance", [.rules(.windowOpened(window(.secondChance, .first)))], "your second chance: find a set"),
        ("grace period", [.rules(.penalised(seat: .first, reason: .dealtWithSetOnTable, points: 15, score: 27)),
                          .rules(.windowOpened(window(.dealGrace, .first)))],
         "free look: a wrong trio costs nothing now"),
        ("a deal's penalty and its cards", [.rules(.penalised(seat: .first, reason: .dealtWithSetOnTable, points: 15, score: 27)),
                                            .rules(.tableChanged(removed: [], added: Array(Card.all[12..<15]),
                                                                 table: Array(Card.all.prefix(15)), deckCount: 66)),
                                            .rules(.windowOpened(window(.dealGrace, .second)))],
         "there was a set: −15 · three more cards"),
        ("deck empty", [.rules(.windowOpened(window(.dealGrace, .second))),
                        .rules(.tableChanged(removed: [], added: Array(Card.all[12..<15]), table: Array(Card.all.prefix(15)), deckCount: 0))],
         "deck empty"),
    ]

    @Test(arguments: 0..<notices.count)
    func noticesThatMatterAreNeverCutAt80Columns(index: Int) {
        let scenario = Self.notices[index]
        var app = ClientFixtures.app(ClientFixtures.view(), size: Self.standard)
        for (offset, body) in scenario.events.enumerated() {
            _ = app.receive(ClientFixtures.event(body, seq: 6 + offset), at: 100)
        }
        let status = app.compose(at: 200).textLines[1]
        #expect(status.contains(scenario.notice), "\(scenario.name): '\(status)'")
        #expect(!status.contains("…"), "\(scenario.name): nothing is cut")
        if app.state.view?.window != nil {
            // The countdown stays: its time and bar.
            #expect(status.contains(" s ") && (status.contains("█") || status.contains("░")), "\(scenario.name): '\(status)'")
            let holder = app.state.who(app.state.view!.window!.holder)
            #expect(status.hasPrefix(" \(holder)") || status.contains(holder == "you" ? "Your" : holder), "whose countdown: '\(status)'")
        }
    }

    @Test func aNoticeBesideAShortStatusKeepsBoth() {
        let row = Notice.fitStatusRow(main: [Span(" Spot a set?")], notice: [Span("deck empty")], width: 80)
        #expect(row.main.width == 12 && row.notice.width == 10 && row.noticeColumn == 69)
        let cut = Notice.fitStatusRow(main: [Span(" x")], notice: [Span(String(repeating: "n", count: 50))], width: 40)
        #expect(cut.main.isEmpty && cut.notice.width == 40 && cut.notice[0].text.hasSuffix("…"))
        #expect(Notice.wrap("make the terminal at least 40×12", width: 12) == ["make the", "terminal at", "least 40×12"])
        // A status alone, too wide, says it was cut: "each feature all a" read as the whole line.
        let bold = CellStyle(bold: true)
        let alone = Notice.fitStatusRow(main: [Span(" Spot a set? ", bold), Span("3 cards, each feature all alike or all different")], notice: [], width: 40)
        #expect(alone.main.width == 40 && alone.main.map(\.text).joined() == " Spot a set? 3 cards, each feature all …")
        #expect(alone.main.first == Span(" Spot a set? ", bold))
        #expect(Notice.fitStatusRow(main: [Span(" Spot a set?")], notice: [], width: 40).main == [Span(" Spot a set?")])
    }

    // MARK: Small terminals

    @Test func dealIsRefusedWhenTheCardsCouldNoLongerBeShown() {
        // 40×12 shows 24 cards at the smallest size, not 27.
        var full = ClientFixtures.app(ClientFixtures.view(cards: 24), size: Self.small)
        #expect(full.layout.table != nil)
        #expect(full.perform(.deal, at: 0).isEmpty, "nothing sent")
        let status = full.compose(at: 1).textLines[1]
        #expect(status.contains("make the terminal larger, or take a set"), "'\(status)'")
        var roomy = ClientFixtures.app(ClientFixtures.view(cards: 24), size: Self.standard)
        #expect(roomy.perform(.deal, at: 0) == [.send(.act(.deal, seat: nil))])
        var twelve = ClientFixtures.app(ClientFixtures.view(cards: 12), size: Self.small)
        #expect(twelve.perform(.deal, at: 0) == [.send(.act(.deal, seat: nil))])
        var wide = ClientFixtures.app(ClientFixtures.view(cards: 81 - 3), size: TerminalSize(columns: 70, rows: 14))
        _ = wide.perform(.deal, at: 0)
        #expect(wide.compose(at: 1).textLines[1].contains("no room for 3 more cards: make the terminal larger, or take a set"))
    }

    @Test func tooSmallSaysTheMinimumSize() {
        let tiny = ClientFixtures.app(ClientFixtures.view(), size: TerminalSize(columns: 19, rows: 5)).compose(at: 0)
        let words = tiny.textLines.joined(separator: " ").split(separator: " ")
        #expect(words.suffix(3) == ["at", "least", "20×12"], "\(tiny.textLines)")
        let short = ClientFixtures.app(ClientFixtures.view(), size: TerminalSize(columns: 40, rows: 8))
        #expect(short.layout.table == nil)
        let text = short.compose(at: 0).textLines.joined(separator: " ")
        #expect(text.contains("at least 30×9"), "\(text)")
        // The size it names really shows the table.
        let enough = ClientFixtures.app(ClientFixtures.view(), size: TerminalSize(columns: 30, rows: 9))
        #expect(enough.layout.table != nil)
        for count in [3, 12, 21, 27, 81] {
            let size = ScreenLayout.minimumSize(cardCount: count, columns: 80)
            #expect(ScreenLayout(size: size, cardCount: count, buttons: [], deck: false).table != nil, "\(count) at \(size)")
        }
    }

    @Test(arguments: sizes, [12, 18])
    func theHelpBoxFitsAndShowsTheLegend(size: TerminalSize, cards: Int) throws {
        var app = ClientFixtures.app(ClientFixtures.view(cards: cards), size: size)
        _ = app.perform(.help, at: 0)
        let screen = app.compose(at: 0)
        let area = app.layout.tableArea
        let lines = HelpBox.lines(app.state, cardSize: app.layout.table?.cardSize, width: area.width - 4, rows: area.height - 2)
        #expect(lines.count <= area.height - 2 && lines.allSatisfy { $0.width <= area.width - 4 }, "\(size): nothing cut")
        let text = screen.textLines.joined(separator: "\n")
        for word in ["diamond", "squiggle", "oval", "solid", "striped", "open", "R red", "G green", "P purple", "quit"] {
            #expect(text.contains(word), "\(word) at \(size)")
        }
        let cardSize = try #require(app.layout.table?.cardSize)
        let tier = SymbolTier.forInterior(TerminalSize(columns: cardSize.width - 2, rows: cardSize.height - 2))
        if case .drawn = tier {
            // The legend draws each shape exactly as a card of this size does, row by row.
            for shape in Shape.allCases {
                let rows = try #require(CardArt.symbolCells(shape, .solid, cardSize: cardSize)).map { String($0) }
                var card = ScreenBuffer(size: TerminalSize(columns: cardSize.width, rows: cardSize.height))
                CardArt.draw(Card(.one, .solid, .red, shape), in: card.bounds, into: &card)
                let drawn = card.textLines.joined(separator: "\n")
                #expect(rows.allSatisfy { drawn.contains($0) } && rows.contains { $0.contains { $0 != " " } }, "\(shape) at \(size)")
                #expect(screen.textLines.indices.contains { top in
                    rows.indices.allSatisfy { top + $0 < screen.textLines.count && screen.textLines[top + $0].contains(rows[$0]) }
                }, "\(shape) drawn in the legend at \(size)")
            }
        } else {
            #expect(text.contains("◆◈◇ diamond"))
        }
    }

    @Test func theKeysOfTheHelpFitA40x12Terminal() {
        // Every key: a duel whose rules allow hints (the standard duel's help offers none).
        var view = ClientFixtures.view()
        view.rules.hintsInDuel = true
        var app = ClientFixtures.app(view, size: Self.small)
        _ = app.perform(.help, at: 0)
        let text = app.compose(at: 0).textLines.joined(separator: "\n")
        for key in ["s Set!", "d deal 3", "c hint", "p pass", "r rematch", "? help", "Esc close", "q quit", "arrows move"] {
            #expect(text.contains(key), "\(key)\n\(text)")
        }
    }
}

@Suite struct CelebrationTests {
    static let trio = Array(Card.all.prefix(3))
    static let fresh = Array(Card.all[12..<15])

    static func takeASet(_ app: inout ClientApp, by seat: Seat, at now: Int64) {
        _ = app.receive(ClientFixtures.event(.rules(.setTaken(seat: seat, cards: trio, points: 24, score: 66)), seq: 6), at: now)
        _ = app.receive(ClientFixtures.event(.rules(.tableChanged(removed: trio, added: fresh, table: fresh + Array(Card.all[3..<12]),
                                                                  deckCount: 66)), seq: 7), at: now)
    }

    @Test(arguments: [Seat.first, .second])
    func aTakenSetIsCelebratedThenFliesToTheTakersScore(seat: Seat) throws {
        var app = ClientFixtures.app(ClientFixtures.view(), size: ScreenSizeTests.standard, animation: true, at: 0)
        _ = app.tick(at: 5_000)
        let before = app.layout.table!.cardRects
        Self.takeASet(&app, by: seat, at: 5_000)
        let party = app.compose(at: 5_000 + Motion.flourishDuration / 4).textLines.joined(separator: "\n")
        #expect(party.ranges(of: "SET!").count == 3, "\(party)")
        #expect(party.contains("╔"), "matched cards wear double borders")
        // The new cards wait for the celebration; the taken ones then fly to the taker's score.
        let target = try #require(ScreenComposer.scoreTarget(of: seat, state: app.state))
        let board = app.compose(at: 5_000).textLines[0]
        let scoreColumn = Array(board).indices.filter { Array(board)[$0] == "6" && Array(board)[$0 + 1] == "6" }.first
        #expect(target.row < 0, "just above the screen, behind the scoreboard")
        #expect(abs(target.column + target.width / 2 - (scoreColumn ?? -99)) <= 1, "\(target) under the score in '\(board)'")
        let flying = app.state.motion.sprites(at: 5_000 + Motion.flourishDuration + Motion.flightDuration / 2)
            .filter { Self.trio.contains($0.card) }
        #expect(flying.count == 3)
        let inFlight = app.compose(at: 5_000 + Motion.flourishDuration + Motion.flightDuration / 2)
        for sprite in flying {
            #expect(inFlight[sprite.rect.column, sprite.rect.row + sprite.rect.height - 1].character == "╚" || sprite.rect.row < 2,
                    "still marked as the set on its way: \(sprite.rect)")
            let start = before[Self.trio.firstIndex(of: sprite.card)!]
            #expect(sprite.rect.row < start.row, "rising towards the score")
        }
        let done = 5_000 + Motion.flourishDuration + Motion.flightDuration + Motion.enterDuration + 3 * Motion.dealStagger
        let settled = app.compose(at: done).textLines.joined(separator: "\n")
        #expect(!settled.contains("SET!"))
        #expect(!app.state.motion.isAnimating(at: done))
    }

    /// A name of wide characters takes two cells a character: the flight still ends under the
    /// score, which stands that many cells further right.
    @Test func aTakenSetFliesToTheScoreBehindAWideName() throws {
        var view = ClientFixtures.view()
        view.players[0].name = "山田太郎"
        let app = ClientFixtures.app(view, size: ScreenSizeTests.standard, animation: true, at: 0)
        let board = app.compose(at: 0)
        let width = ScreenSizeTests.standard.columns
        for seat in [Seat.first, .second] {
            let score = String(view.players[seat.rawValue].score)
            let target = try #require(ScreenComposer.scoreTarget(of: seat, state: app.state))
            // The cell where this seat's score begins: after its name, on the scoreboard row.
            let name = seat == .first ? "山" : view.players[1].name.prefix(1)
            let nameColumn = try #require((0..<width).first { board[$0, 0].character == Character(String(name)) })
            let scoreColumn = try #require((nameColumn..<width).first { column in
                score.enumerated().allSatisfy { column + $0.offset < width && board[column + $0.offset, 0].character == $0.element }
            })
            #expect(abs(target.column + target.width / 2 - scoreColumn) <= score.count, "\(seat): \(target) under column \(scoreColumn)")
        }
    }

    @Test func withoutAnimationTheTableIsExactAtOnce() throws {
        var app = ClientFixtures.app(ClientFixtures.view(), size: ScreenSizeTests.standard, animation: false, at: 0)
        Self.takeASet(&app, by: .first, at: 5_000)
        let screen = app.compose(at: 5_000)
        let sprites = app.state.motion.sprites(at: 5_000)
        let rects = try #require(app.layout.table).cardRects
        #expect(sprites.map(\.card).sorted() == app.state.view!.table.sorted())
        for sprite in sprites { #expect(sprite.rect == rects[app.state.view!.table.firstIndex(of: sprite.card)!]) }
        #expect(!screen.textLines.joined().contains("SET!"))
        #expect(!app.state.motion.isAnimating(at: 5_000))
    }
}
