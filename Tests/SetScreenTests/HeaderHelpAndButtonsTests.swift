import SetRules
import SetWire
import Testing
@testable import SetScreen

/// What the rows around the table promise: a Hint button only where a hint can be had, help whose
/// sample labels are on the table's cards, and a header that cuts long names before any score.
@Suite struct HeaderHelpAndButtonsTests {
    static func screen(_ app: ClientApp) -> [String] { app.compose(at: 0).textLines }

    // MARK: The duel's Hint button

    /// The standard duel turns hints off: its button row has no Hint (greyed, it never worked),
    /// and its help lists no hint key; a duel whose rules allow hints shows both.
    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 40, rows: 12), TerminalSize(columns: 120, rows: 40)])
    func aDuelWithoutHintsShowsNoHintButtonNorKey(size: TerminalSize) {
        var app = ClientFixtures.app(ClientFixtures.view(), size: size)
        #expect(!app.layout.buttons.contains { $0.button == .hint })
        #expect(!Self.screen(app)[size.rows - 1].contains("Hint"), "\(Self.screen(app)[size.rows - 1])")
        _ = app.perform(.help, at: 0)
        let help = Self.screen(app).joined(separator: "\n")
        #expect(!help.contains("c hint") && !help.contains("│ c "), "\(help)")

        var hints = ClientFixtures.view()
        hints.rules.hintsInDuel = true
        var allowed = ClientFixtures.app(hints, size: size)
        #expect(allowed.layout.buttons.contains { $0.button == .hint })
        #expect(Self.screen(allowed)[size.rows - 1].contains("Hint"))
        _ = allowed.perform(.help, at: 0)
        let allowedHelp = Self.screen(allowed).joined(separator: "\n")
        #expect(allowedHelp.contains("c hint") || allowedHelp.contains("│ c "), "\(allowedHelp)")
    }

    @Test func soloKeepsItsHintButton() {
        let app = ClientFixtures.app(ClientFixtures.view(mode: .solo), size: TerminalSize(columns: 80, rows: 24))
        #expect(app.layout.buttons.contains { $0.button == .hint })
    }

    // MARK: The help's sample labels

    static let fifteen = Array(Card.all.prefix(15))

    /// A solo table of 15 from which the set labelled 1, 2 and 3 was taken: twelve cards that keep
    /// the labels 4 … g.
    static func afterASetFromFifteen(size: TerminalSize) -> ClientApp {
        var app = ClientFixtures.app(ClientFixtures.view(cards: 15, mode: .solo), size: size)
        let taken = Array(fifteen.prefix(3)), rest = Array(fifteen.dropFirst(3))
        _ = app.receive(ClientFixtures.event(.rules(.setTaken(seat: .first, cards: taken, points: 3, score: 3)), seq: 6), at: 0)
        _ = app.receive(ClientFixtures.event(.rules(.tableChanged(removed: taken, added: [], table: rest, deckCount: 66)), seq: 7), at: 0)
        return app
    }

    /// The help named the first twelve labels by count ("1 2 3 4 5 6 7 8 9 0 a b"): after a set
    /// from fifteen, 1, 2 and 3 were on no card. Now the first three labels the cards hold.
    @Test func theHelpsSampleLabelsAreOnTheTablesCards() throws {
        var app = Self.afterASetFromFifteen(size: TerminalSize(columns: 120, rows: 40))
        _ = app.perform(.help, at: 0)
        let lines = Self.screen(app)
        let row = try #require(lines.first { $0.contains("touch the card with that label") })
        #expect(row.contains("4 5 6 …"), "\(row)")
        #expect(!row.contains("1 2 3"), "\(row)")
        // The sample fits the keys' column: its text starts where the other rows' do.
        let move = try #require(lines.first { $0.contains("move the cursor") })
        #expect(row.range(of: "touch the card")?.lowerBound.utf16Offset(in: row) == move.range(of: "move the cursor")?.lowerBound.utf16Offset(in: move),
                "\(row)\n\(move)")
        let onCards = Swift.Set(app.state.view?.table.compactMap { app.state.labels.label(of: $0) } ?? [])
        #expect(["4", "5", "6"].allSatisfy(onCards.contains))
    }

    @Test func theCompactHelpSamplesTheTablesLabelsToo() {
        var app = Self.afterASetFromFifteen(size: TerminalSize(columns: 40, rows: 12))
        _ = app.perform(.help, at: 0)
        let help = Self.screen(app).joined(separator: "\n")
        #expect(help.contains("4 5 6 … touch that card"), "\(help)")
    }

    @Test func withNoCardLabelledTheSampleIsTheFirstKeys() {
        var view = ClientFixtures.view(cards: 0, phase: .over)
        view.table = []
        let app = ClientFixtures.app(view)
        #expect(Overlays.labelSample(app.state) == "1 2 3 …")
    }

    // MARK: Long names in the header

    static let longNames = ("Bartholomew-Featherstone", "Maximiliana-Wolfeschlegl")

    static func duel(ratings: Bool) -> MatchView {
        var view = ClientFixtures.view()
        view.players = [PlayerInfo(seat: .first, name: longNames.0, present: true, score: 42, rating: ratings ? 1500 : nil, provisional: ratings),
                        PlayerInfo(seat: .second, name: longNames.1, present: true, score: -17, rating: ratings ? 1623 : nil)]
        return view
    }

    /// Two names of 24 characters (the most the server takes): both scores stay on the row, the
    /// names are cut with "…" only as far as needed, and whole where they fit.
    @Test(arguments: [(TerminalSize(columns: 80, rows: 24), true), (TerminalSize(columns: 80, rows: 24), false),
                      (TerminalSize(columns: 60, rows: 20), true), (TerminalSize(columns: 60, rows: 20), false)] as [(TerminalSize, Bool)])
    func longNamesAreCutBeforeAnyScoreIsDropped(size: TerminalSize, ratings: Bool) throws {
        let app = ClientFixtures.app(Self.duel(ratings: ratings), size: size)
        let header = Self.screen(app)[0]
        #expect(header.displayWidth <= size.columns)
        // Each player's score right after the name (and rating), in that order.
        let mine = try #require(header.range(of: ratings ? " 1500? 42" : " 42"), "\(header)")
        let theirs = try #require(header.range(of: ratings ? " 1623 −17" : " −17"), "\(header)")
        #expect(mine.upperBound <= theirs.lowerBound, "\(header)")
        #expect(header.contains("Bartho") && header.contains("Maxim"), "\(header)")
        let whole = header.contains(Self.longNames.0) && header.contains(Self.longNames.1)
        #expect(whole || header.contains("…"), "a cut name says so: \(header)")
    }

    @Test func namesThatFitAreNotCut() {
        let header = Self.screen(ClientFixtures.app(Self.duel(ratings: true), size: TerminalSize(columns: 120, rows: 40)))[0]
        #expect(header.contains(Self.longNames.0 + " (you) 1500? 42") && header.contains(Self.longNames.1 + " 1623 −17"), "\(header)")
        #expect(!header.contains("…"))
    }

    // MARK: The leave box's promise

    /// A local duel's journal reaches the disk at its first deal, before any move (the server's
    /// join keeps the journal of a duel it deals; LocalTableTests resumes one where nobody moved).
    /// So the leave box, shown only once the game is dealt, rightly says the game is kept; on the
    /// start box nothing is dealt, and q leaves at once without that promise.
    @Test func theLeaveBoxPromisesAKeptGameOnlyOnceItIsDealt() {
        var waiting = ClientFixtures.view(cards: 0, phase: .waiting)
        waiting.players = [ClientFixtures.players[0]]
        waiting.deck = 0
        var start = ClientTrustTests.app(ClientTrustTests.local(), view: waiting)
        #expect(start.input(.key(.character("q")), at: 0) == [.quit(status: 0, message: nil)])
        #expect(start.state.overlay == nil)

        var dealt = ClientTrustTests.app(ClientTrustTests.local(start: nil), view: ClientFixtures.view())
        _ = dealt.input(.key(.character("q")), at: 0)
        #expect(dealt.state.overlay == .confirmQuit)
        let text = Self.screen(dealt).joined(separator: "\n")
        #expect(text.contains("Your game is kept"), "\(text)")
    }
}
