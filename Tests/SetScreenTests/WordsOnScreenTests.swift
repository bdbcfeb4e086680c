import SetRules
import SetWire
import Testing
@testable import SetScreen

/// Issue 23 items 1–4: the words on screen are the variant's own, a refused pick says why, and no
/// two parts of one screen contradict each other.
@Suite struct WordsOnScreenTests {
    static let small = TerminalSize(columns: 80, rows: 24)

    /// A local duel on its start box (the bot joins at the first key), in `variant`.
    static func startBox(_ variant: Variant, size: TerminalSize = small) -> ClientApp {
        var view = ClientFixtures.view(cards: 0, phase: .waiting)
        view.players = [ClientFixtures.players[0]]
        view.variant = variant
        view.deck = 0
        return ClientTrustTests.app(ClientTrustTests.local(), view: view, size: size)
    }

    static func text(_ app: ClientApp, at now: Int64 = 0) -> String { app.compose(at: now).textLines.joined(separator: "\n") }

    /// The screen's words with the box's borders and line breaks read as spaces, so a wrapped
    /// sentence can be looked for whole.
    static func prose(_ app: ClientApp) -> String {
        text(app).map { "│╭╮╰╯─\n".contains($0) ? " " : String($0) }.joined()
            .split(separator: " ").joined(separator: " ")
    }

    // MARK: 1. Each variant's own rule

    @Test(arguments: Variant.allCases)
    func theStartBoxTeachesTheVariantsOwnRule(variant: Variant) {
        let app = Self.startBox(variant)
        let prose = Self.prose(app)
        #expect(prose.contains(variant.rule), "\(prose)")
        for other in Variant.allCases where other.rule != variant.rule {
            #expect(!prose.contains(other.rule))
        }
    }

    // MARK: 2. A refused pick says why

    /// Cards 0, 1 and 3 of the fixture's table: one solid red, one solid green, one striped red
    /// diamond: the colour breaks first.
    static let wrongTrio = [Card.all[0], Card.all[1], Card.all[3]]

    @Test(arguments: [(Role.player, Seat.first), (.player, .second), (.spectator, .first)] as [(Role, Seat)])
    func aWrongTrioSaysWhichFeatureBrokeItToEveryone(role: Role, picker: Seat) {
        for size in [Self.small, TerminalSize(columns: 120, rows: 40)] {
            var app = ClientFixtures.app(ClientFixtures.view(), size: size, role: role)
            let event = ClientFixtures.event(.rules(.notASet(seat: picker, cards: Self.wrongTrio, penalty: 10, score: 32)), seq: 6)
            _ = app.receive(event, at: 0)
            let status = app.compose(at: 0).textLines[1]
            #expect(status.contains("colour: two red, one green"), "\(status)")
            #expect(status.contains("not a set: −10"), "\(status)")
        }
    }

    @Test func setChainSaysARealSetWithoutTheChainCardIsRefusedForThatNotAsNotASet() {
        var view = ClientFixtures.view()
        view.variant = .chain
        view.chain = Array(Card.all.suffix(3))
        let realSet = Array(Card.all.prefix(3))
        #expect(SetLogic.isSet(realSet))
        for role in [Role.player, .spectator] {
            var app = ClientFixtures.app(view, role: role)
            _ = app.receive(ClientFixtures.event(.rules(.notASet(seat: .first, cards: realSet, penalty: 10, score: 32)), seq: 6), at: 0)
            let status = app.compose(at: 0).textLines[1]
            #expect(status.contains("a set here uses exactly one chain card"), "\(status)")
            #expect(!status.contains("not a set"), "\(status)")
        }
        // Solo shows the refused trio until the next touch: its line says the same.
        var solo = view
        solo.mode = .solo
        solo.players = [ClientFixtures.players[0]]
        solo.shown = Match.ShownTrio(cards: realSet, isSet: false)
        let status = ClientFixtures.app(solo).compose(at: 0).textLines[1]
        #expect(status.contains("a set here uses exactly one chain card"), "\(status)")
        #expect(!status.contains("Not a set"), "\(status)")
    }

    @Test func ultraSetsWrongFourSaysNotAnUltraAndWhy() {
        var view = ClientFixtures.view()
        view.variant = .ultra
        let four = Array(Card.all.prefix(4))
        let fault = UltraLogic.whyNot(four)
        #expect(fault != nil)
        var app = ClientFixtures.app(view)
        _ = app.receive(ClientFixtures.event(.rules(.notASet(seat: .first, cards: four, penalty: 10, score: 32)), seq: 6), at: 0)
        let status = app.compose(at: 0).textLines[1]
        #expect(status.contains("not an ultra: −10 · \(fault?.text ?? "?")"), "\(status)")
    }

    // MARK: 3. No contradictions

    @Test func beforeTheFirstDealTheHeaderWaitsForNobodyAndHasNoEmptyDeck() {
        let board = Self.startBox(.classic).compose(at: 0).textLines[0]
        #expect(!board.contains("waiting for an opponent"), "\(board)")
        #expect(!board.contains("deck empty"), "\(board)")
        // A server duel still waits for its opponent, but its deck is not empty either: not dealt yet.
        var waiting = ClientFixtures.view(cards: 0, phase: .waiting)
        waiting.players = [ClientFixtures.players[0]]
        waiting.deck = 0
        let server = ClientFixtures.app(waiting).compose(at: 0).textLines[0]
        #expect(server.contains("waiting for an opponent") && !server.contains("deck empty"), "\(server)")
    }

    @Test func theStartBoxSaysPressAnyKeyOnce() {
        for variant in Variant.allCases {
            let text = Self.text(Self.startBox(variant)).lowercased()
            #expect(text.ranges(of: "press any key").count == 1, "\(text)")
        }
        // A kept game's box says it resumes, as its status row did.
        var kept = ClientFixtures.view()
        kept.players[1].present = false
        kept.forfeitAt = 100_000
        let app = ClientTrustTests.app(ClientTrustTests.local(), view: kept, size: Self.small)
        let text = Self.text(app)
        #expect(text.lowercased().ranges(of: "press any key").count == 1, "\(text)")
        #expect(text.contains("Press any key to resume"), "\(text)")
    }

    @Test func aNoticeThatTheOpponentHoldsTheWindowGoesWithThatWindow() {
        var view = ClientFixtures.view()
        let claim = Window(kind: .claim, holder: .second, opened: Instant(milliseconds: 1_000), deadline: Instant(milliseconds: 6_000))
        view.window = claim
        var app = ClientFixtures.app(view, size: Self.small)
        _ = app.perform(.toggle(0), at: 0)
        #expect(app.compose(at: 0).textLines[1].contains("bob holds the window"))
        let chance = Window(kind: .secondChance, holder: .first, opened: Instant(milliseconds: 1_100), deadline: Instant(milliseconds: 6_100))
        _ = app.receive(ClientFixtures.event(.rules(.windowClosed(claim, .decided)), seq: 6, time: 1_100), at: 100)
        _ = app.receive(ClientFixtures.event(.rules(.windowOpened(chance)), seq: 7, time: 1_100), at: 100)
        let status = app.compose(at: 200).textLines[1]
        #expect(status.contains("4.9 s"), "\(status)")
        #expect(!status.contains("holds the window"), "\(status)")
    }

    @Test func spectatorsOfASoloGameAreNotToldNobodyHoldsTheTable() {
        let status = ClientFixtures.app(ClientFixtures.view(mode: .solo), role: .spectator).compose(at: 0).textLines[1]
        #expect(!status.contains("Nobody holds the table"), "\(status)")
        #expect(status.contains("alice plays alone"), "\(status)")
    }

    /// A local game waits a year for its seats: a spectator of one on its start box reads that the
    /// match waits, not a year's countdown to a forfeit.
    @Test func spectatorsOfAGameKeptForAYearSeeNoForfeitCountdown() {
        var view = ClientFixtures.view()
        view.players[1].present = false
        view.forfeitAt = 1_000 + 364 * 24 * 3_600_000
        var app = ClientApp(state: ClientState(options: ClientFixtures.configuration(role: .spectator), size: Self.small))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        var limits = ServerLimits()
        limits.seatWaitMs = 365 * 24 * 3_600_000
        _ = app.receive(.welcome(server: "test", versions: [1], time: 1_000, limits: limits), at: 0)
        _ = app.receive(.joined(role: .spectator, match: view.match, mode: view.mode, seat: nil, token: nil, resumed: false, id: nil), at: 0)
        _ = app.receive(.snapshot(view), at: 0)
        let status = app.compose(at: 0).textLines[1]
        #expect(status.contains("bob is away: the match waits"), "\(status)")
        #expect(!status.contains("forfeit"), "\(status)")
    }

    /// The standard duel turns hints off: its help offers no hint key at any size, solo's does.
    @Test(arguments: [TerminalSize(columns: 60, rows: 20), small, TerminalSize(columns: 120, rows: 40)])
    func theDuelsHelpOffersNoHintKeyWhenHintsAreOff(size: TerminalSize) {
        for mode in [Mode.duel, .solo] {
            var app = ClientFixtures.app(ClientFixtures.view(mode: mode), size: size)
            _ = app.perform(.help, at: 0)
            let help = Self.text(app)
            let offers = help.contains("c hint") || help.contains("│ c ")
            #expect(offers == (mode == .solo), "\(mode) at \(size):\n\(help)")
        }
    }

    @Test func ultraSetsFlourishSaysUltra() {
        var view = ClientFixtures.view()
        view.variant = .ultra
        var app = ClientFixtures.app(view, size: Self.small, animation: true, at: 0)
        _ = app.tick(at: 5_000)
        let four = Array(Card.all.prefix(4)), fresh = Array(Card.all[12..<16])
        _ = app.receive(ClientFixtures.event(.rules(.setTaken(seat: .first, cards: four, points: 24, score: 66)), seq: 6), at: 5_000)
        _ = app.receive(ClientFixtures.event(.rules(.tableChanged(removed: four, added: fresh, table: fresh + Array(Card.all[4..<12]),
                                                                  deckCount: 65)), seq: 7), at: 5_000)
        let party = Self.text(app, at: 5_000 + Motion.flourishDuration / 4)
        #expect(party.ranges(of: "ULTRA!").count == 4, "\(party)")
        #expect(!party.contains("SET!"))
    }

    // MARK: 4. Words on leaving, and who watches

    @Test func quittingAFinishedGamePrintsItsResult() {
        var view = ClientFixtures.view(phase: .over)
        view.result = MatchResult(reason: .noSetsLeft, by: nil, scores: [42, 17], winner: .first)
        var app = ClientFixtures.app(view)
        let effects = app.input(.key(.character("q")), at: 0)
        #expect(effects.last == .quit(status: 0, message: "setgame: you win! · you 42, bob 17"))
    }

    /// The player's header at 80×24 keeps "· 1 watching", as the spectators' does: the match's
    /// name gives way first, since the player knows which match they play.
    @Test func thePlayerSeesWhoWatchesAt80Columns() {
        var view = ClientFixtures.view()
        view.match = "duel"
        view.variant = .ultra
        view.spectators = 1
        view.players[0].name = "player-one"
        view.players[1].name = "bot-easy"
        let player = ClientFixtures.app(view, size: Self.small).compose(at: 0).textLines[0]
        #expect(player.contains("1 watching"), "\(player)")
        #expect(player.contains("deck 69") && player.contains("UltraSet"), "\(player)")
    }
}
