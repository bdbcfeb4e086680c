import SetRules
import SetWire
import Testing
@testable import SetScreen

/// Issue 23, items 5, 8 and 9: the game forgives a newcomer. Reading a box pauses a local duel, a
/// new solo game is asked for twice, and solo's deal says what it claims and what it costs.
@Suite struct ForgivingTests {
    static let standard = TerminalSize(columns: 80, rows: 24)

    static func text(_ app: ClientApp, at now: Int64 = 0) -> String { app.compose(at: now).textLines.joined(separator: "\n") }

    /// Twelve cards without a set among them (a cap, built greedily): a solo deal there is right.
    static let noSetTable: [Card] = {
        var table: [Card] = []
        for card in Card.all where table.count < 12 && !Variant.classic.hasCombination(table: table + [card]) {
            table.append(card)
        }
        return table
    }()

    // MARK: 5. The leave box pauses a local duel

    @Test func theLeaveBoxHoldsTheLocalBotWhileOpen() {
        var app = ClientTrustTests.app(ClientTrustTests.local(start: nil), view: ClientFixtures.view())
        #expect(app.input(.key(.character("q")), at: 0) == [.holdLocal(true)], "the bot must not score while the player reads")
        #expect(app.state.overlay == .confirmQuit)
        // The bot steps out to pause the match: the row says why.
        _ = app.receive(ClientFixtures.event(.presence(seat: .second, present: false, forfeitAt: 9_000_000), seq: 6), at: 0)
        #expect(app.compose(at: 0).textLines[1].contains("Paused while you decide"))
        #expect(app.input(.key(.escape), at: 0) == [.holdLocal(false)], "staying lets the bot play on")
        // From the help to the leave box the bot stays held: no release in between.
        #expect(app.input(.key(.character("?")), at: 0) == [.holdLocal(true)])
        #expect(app.input(.key(.character("q")), at: 0).isEmpty)
        #expect(app.state.overlay == .confirmQuit)
        // Leaving ends the program: nothing to release.
        #expect(app.input(.key(.character("q")), at: 0) == [.quit(status: 0, message: nil)])
        var remote = ClientFixtures.app(ClientFixtures.view())
        #expect(remote.input(.key(.character("q")), at: 0).isEmpty, "a match on a server has someone to be unfair to")
        #expect(remote.state.overlay == .confirmQuit)
    }

    // MARK: 8. A new solo game asks first

    @Test func aNewSoloGameMidGameAsksFirst() {
        var app = ClientFixtures.app(ClientFixtures.view(mode: .solo), size: Self.standard)
        #expect(app.input(.key(.character("r")), at: 0).isEmpty, "nothing is thrown away at once")
        #expect(app.state.overlay == .confirmNewGame)
        let box = Self.text(app)
        #expect(box.contains("Start a new game?") && box.contains("42 points, 69 cards in the deck"), "\(box)")
        #expect(box.contains("y new game") && box.contains("Esc keep playing"), "\(box)")
        #expect(app.input(.key(.escape), at: 0).isEmpty, "keeping the game sends nothing")
        #expect(app.state.overlay == nil)
        _ = app.input(.key(.character("r")), at: 0)
        #expect(app.input(.key(.character("n")), at: 0).isEmpty)
        #expect(app.state.overlay == nil)
        _ = app.input(.key(.character("r")), at: 0)
        #expect(app.input(.key(.character("y")), at: 0) == [.send(.act(.rematch, seat: nil))])
        #expect(app.state.overlay == nil)
        // The button asks the same way.
        let button = app.layout.buttons.first { $0.button == .newGame }!.rect
        #expect(app.input(.mouse(MouseEvent(button: .left, kind: .press, column: button.column, row: button.row)), at: 0).isEmpty)
        #expect(app.state.overlay == .confirmNewGame)
        #expect(app.input(.key(.enter), at: 0) == [.send(.act(.rematch, seat: nil))])
    }

    @Test func aNewSoloGameAfterTheEndNeedsNoQuestion() {
        var over = ClientFixtures.view(mode: .solo, phase: .over)
        over.result = MatchResult(reason: .noSetsLeft, by: nil, scores: [42], winner: nil)
        var app = ClientFixtures.app(over)
        #expect(app.input(.key(.character("r")), at: 0) == [.send(.act(.rematch, seat: nil))])
        // A duel's rematch is unchanged: no box.
        var duel = ClientFixtures.app(ClientFixtures.view(phase: .over))
        #expect(duel.input(.key(.character("r")), at: 0) == [.send(.act(.rematch, seat: nil))])
    }

    @Test func theNewGameBoxKeys() {
        let layout = ScreenLayout(size: Self.standard, cardCount: 12, buttons: [], deck: true)
        func map(_ key: Key) -> ClientCommand? {
            InputMapper.command(for: .key(key), in: InputContext(isPlayer: true, overlay: .confirmNewGame, layout: layout))
        }
        #expect(map(.character("y")) == .rematch && map(.enter) == .rematch && map(.character("r")) == .rematch)
        #expect(map(.character("n")) == .dismiss && map(.escape) == .dismiss)
        #expect(map(.character("1")) == nil && map(.character("d")) == nil, "a card or a deal does not slip through the box")
    }

    // MARK: 9. Solo's deal says "No set here?"

    @Test func soloDealIsNamedForWhatItClaims() {
        let solo = ClientFixtures.app(ClientFixtures.view(mode: .solo), size: Self.standard)
        let buttons = solo.compose(at: 0).textLines.last ?? ""
        #expect(buttons.contains("No set here? d"), "'\(buttons)'")
        #expect(!buttons.contains("Deal 3"))
        let duel = ClientFixtures.app(ClientFixtures.view(), size: Self.standard)
        #expect(duel.compose(at: 0).textLines.last?.contains("Deal 3 d") == true, "a duel deals as before")
        // The help says what being wrong costs, at the rules' own penalty.
        var help = ClientFixtures.app(ClientFixtures.view(mode: .solo), size: TerminalSize(columns: 120, rows: 50))
        _ = help.input(.key(.character("?")), at: 0)
        #expect(Self.text(help).contains("no set here? 3 more cards: free, or −15 if one was"), "\(Self.text(help))")
        // Narrow rows keep the meaning in the short form.
        let narrow = ClientFixtures.app(ClientFixtures.view(mode: .solo), size: TerminalSize(columns: 40, rows: 12))
        #expect(narrow.compose(at: 0).textLines.last?.contains("d No set?") == true, "'\(narrow.compose(at: 0).textLines.last ?? "")'")
    }

    @Test func aRightSoloDealIsSaidToBeRight() {
        var view = ClientFixtures.view(mode: .solo)
        view.table = Self.noSetTable
        #expect(view.table.count == 12)
        var app = ClientFixtures.app(view, size: Self.standard)
        #expect(app.input(.key(.character("d")), at: 0) == [.send(.act(.deal, seat: nil))])
        let fresh = Array(Card.all.filter { !view.table.contains($0) }.prefix(3))
        _ = app.receive(ClientFixtures.event(.rules(.tableChanged(removed: [], added: fresh, table: view.table + fresh,
                                                                  deckCount: view.deck - 3)), seq: 6), at: 10)
        #expect(app.compose(at: 11).textLines[1].contains("right, no set here: three more cards"))
    }

    @Test func aWrongSoloDealSaysASetWasThere() {
        // The first twelve cards hold a set (0, 1, 2 differ in one feature): the rules charge.
        var app = ClientFixtures.app(ClientFixtures.view(mode: .solo), size: Self.standard)
        _ = app.input(.key(.character("d")), at: 0)
        _ = app.receive(ClientFixtures.event(.rules(.penalised(seat: .first, reason: .dealtWithSetOnTable, points: 15, score: 27)), seq: 6), at: 10)
        _ = app.receive(ClientFixtures.event(.rules(.tableChanged(removed: [], added: Array(Card.all[12..<15]),
                                                                  table: Array(Card.all.prefix(15)), deckCount: 66)), seq: 7), at: 10)
        let status = app.compose(at: 11).textLines[1]
        #expect(status.contains("there was a set: −15") && !status.contains("right"), "'\(status)'")
    }

    @Test func aDealIsRefusedOnlyWhenTheScreenCouldNotShowIt() {
        // At 80×24 30 cards fit at 9×5, the smallest dealt into: the layout, not a count, decides.
        var all = ClientFixtures.app(ClientFixtures.view(cards: 27, mode: .solo), size: Self.standard)
        #expect(all.perform(.deal, at: 0) == [.send(.act(.deal, seat: nil))])
        var packed = ClientFixtures.app(ClientFixtures.view(cards: 30, mode: .solo), size: Self.standard)
        #expect(packed.perform(.deal, at: 0).isEmpty)
        // A terminal too short for three more is refused here, with nothing sent.
        var short = ClientFixtures.app(ClientFixtures.view(cards: 24, mode: .solo), size: TerminalSize(columns: 40, rows: 12))
        #expect(short.perform(.deal, at: 0).isEmpty)
        #expect(short.compose(at: 1).textLines[1].contains("make the terminal larger, or take a set"))
    }
}
