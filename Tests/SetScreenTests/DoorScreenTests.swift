import Foundation
import SetClient
import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The client as the ssh door runs it: commands a friend pastes are the door's own, its bot
/// duel pauses while the player reads, and the words fit an 80×24 terminal.
@Suite struct DoorScreenTests {
    static let door = "ssh -p 2222 set@203.0.113.5"
    static let small = TerminalSize(columns: 80, rows: 24)

    static func configuration(botBeside: Bool = false) -> ClientOptions {
        var configuration = ClientFixtures.configuration()
        configuration.name = "key-2Bi5wK"
        configuration.command = "ssh"
        configuration.door = door
        configuration.rejoinHint = "ssh in again to come back"
        configuration.botBeside = botBeside ? BotBeside(start: {}, hold: { _ in }) : nil
        return configuration
    }

    static func app(_ configuration: ClientOptions, view: MatchView, size: TerminalSize = small, role: Role = .player) -> ClientApp {
        var app = ClientApp(state: ClientState(options: configuration, size: size))
        _ = app.start(at: 0)
        _ = app.connected(at: 0)
        _ = app.receive(.welcome(server: "t", versions: [1], time: 1_000, limits: ServerLimits()), at: 0)
        if role == .spectator {
            _ = app.receive(.matches([], next: nil, id: nil), at: 0)
            return app
        }
        _ = app.receive(.joined(role: .player, match: view.match, mode: view.mode, seat: .first, token: "tok", resumed: false, id: nil), at: 0)
        _ = app.receive(.snapshot(view), at: 0)
        return app
    }

    static func text(_ app: ClientApp, at now: Int64 = 0) -> String { app.compose(at: now).textLines.joined(separator: "\n") }

    /// An event of the door duel's match.
    static func event(_ body: EventBody, seq: Int) -> ServerMessage {
        .event(WireEvent(match: "bot-3f9a0b12", seq: seq, time: 1_000, body: body))
    }

    /// The lines inside the box whose title is `title`, without its border.
    static func box(_ title: String, in app: ClientApp) -> [String] {
        let rows = app.compose(at: 0).textLines.map { Array($0) }
        let titled = Array("─ " + title)
        guard let top = rows.firstIndex(where: { String($0).contains(String(titled)) }),
              let at = rows[top].indices.first(where: { Array(rows[top][$0...].prefix(titled.count)) == titled }),
              let left = rows[top][..<at].lastIndex(of: "╭"), let right = rows[top][at...].firstIndex(of: "╮") else { return [] }
        var lines: [String] = []
        for row in rows[(top + 1)...] {
            guard row.count > right, row[left] == "│" else { break }
            lines.append(String(row[(left + 1)..<right]).trimmingCharacters(in: .whitespaces))
        }
        return lines
    }

    static func doorDuel(_ variant: Variant = .classic) -> MatchView {
        var view = ClientFixtures.view()
        view.match = "bot-3f9a0b12"
        view.variant = variant
        view.players = [PlayerInfo(seat: .first, name: "key-2Bi5wK", present: true, score: 12, rating: 1500, provisional: true),
                        PlayerInfo(seat: .second, name: "bot-easy", present: true, score: 9, rating: 1432, provisional: true)]
        view.roundTripMs = [41, 3]
        view.spectators = 1
        return view
    }

    /// A duel that is back after the menu's "0": the Enter typed after the digit is dropped, not
    /// a Set! that would cost the player ten points; the next Enter claims, and so does a first
    /// Enter where the menu was left without a shortcut.
    @Test func theEnterAfterTheMenusDigitIsNotASetInADuelThatIsBack() {
        var configuration = Self.configuration()
        configuration.dropsLeadingEnter = true
        var app = Self.app(configuration, view: Self.doorDuel())
        let claim = ClientEffect.send(.act(.claim, seat: nil, seen: Self.doorDuel().seq))
        #expect(app.input(.key(.enter), at: 0).isEmpty)
        #expect(app.input(.key(.enter), at: 0) == [claim])
        var another = Self.app(configuration, view: Self.doorDuel())
        _ = another.input(.key(.right), at: 0)
        #expect(another.input(.key(.enter), at: 0) == [claim], "only the first key, if it is Enter, is dropped")
        var plain = Self.app(Self.configuration(), view: Self.doorDuel())
        #expect(plain.input(.key(.enter), at: 0) == [claim])
    }

    // MARK: Item 1, the invitation

    @Test func theWaitingScreenInvitesWithTheDoorsOwnCommand() {
        let app = Self.app(Self.configuration(), view: ClientFixtures.view(cards: 0, phase: .waiting))
        let screen = Self.text(app)
        #expect(screen.contains("A friend can join with:"))
        #expect(screen.contains("ssh -p 2222 set@203.0.113.5 join duel-1"))
        #expect(!screen.contains("--name") && !screen.contains("7380"), "nothing of the TCP client's command")
        var noted = Self.configuration()
        noted.inviteNote = "No ssh key? guest@ in place of set@."
        let withNote = Self.text(Self.app(noted, view: ClientFixtures.view(cards: 0, phase: .waiting)))
        #expect(withNote.contains("No ssh key? guest@ in place of set@."))
    }

    @Test func theTcpClientStillInvitesWithItsOwn() {
        let app = Self.app(ClientFixtures.configuration(), view: ClientFixtures.view(cards: 0, phase: .waiting))
        #expect(Self.text(app).contains("setgame join 127.0.0.1:7380 --match duel-1 --name friend"))
    }

    /// An accepted challenge's duel seats only its two tokens: a friend's join would be refused
    /// `match_full`, so the wait invites nobody and says whose the other seat is.
    @Test func aChallengesDuelInvitesNoFriend() {
        var configuration = ClientFixtures.configuration()
        configuration.reservedSeat = true
        let screen = Self.text(Self.app(configuration, view: ClientFixtures.view(cards: 0, phase: .waiting)))
        #expect(!screen.contains("A friend can join") && !screen.contains("--name friend"), "\(screen)")
        #expect(screen.contains("Waiting for your opponent") && screen.contains("kept for them"), "\(screen)")
    }

    @Test func theWatchListNamesTheDoorNotTheServer() {
        var configuration = Self.configuration()
        configuration.role = .spectator
        let app = Self.app(configuration, view: ClientFixtures.view(), role: .spectator)
        let screen = Self.text(app)
        #expect(screen.contains("Live matches on ssh -p 2222 set@203.0.113.5"))
        #expect(!screen.contains("127.0.0.1:7380"))
    }

    /// Item 5's smallest part: whoever picks a match to watch sees the players' ratings.
    @Test func theWatchListShowsRatings() {
        var configuration = Self.configuration()
        configuration.role = .spectator
        var app = Self.app(configuration, view: ClientFixtures.view(), role: .spectator)
        let live = MatchListing(name: "duel-4", mode: .duel, phase: .playing,
                                players: [PlayerInfo(seat: .first, name: "fayzer", present: true, score: 12, rating: 1712),
                                          PlayerInfo(seat: .second, name: "guest-4821", present: true, score: 9)], spectators: 0)
        _ = app.receive(.matches([live], next: nil, id: nil), at: 0)
        #expect(Self.text(app).contains("fayzer 1712 12 vs guest-4821 new 9"))
    }

    // MARK: Item 3, a way back only to a game that waits

    /// The server frees a duel its only player left: its seat is forgotten, so the door's menu does
    /// not offer a game that is gone. A duel someone came to keeps its seat for the seat wait.
    @Test func leavingADuelNobodyCameToForgetsItsSeat() {
        var alone = ClientFixtures.view(cards: 0, phase: .waiting)
        alone.players = [ClientFixtures.players[0]]
        var app = Self.app(Self.configuration(), view: alone)
        #expect(app.input(.key(.character("q")), at: 0) == [.saveToken(nil), .quit(status: 0, message: nil)])
        var playing = Self.app(Self.configuration(), view: ClientFixtures.view())
        _ = playing.input(.key(.character("q")), at: 0)
        #expect(playing.input(.key(.character("q")), at: 0).contains(.saveToken(nil)) == false)
    }

    // MARK: Item 2, the door's bot pauses

    /// A pause is for reading: while help or the leave box holds the bot, the cards are not drawn
    /// around the box (with every clock stopped, a player could look for a set at leisure); they
    /// are back when it closes.
    @Test func theCardsAreHiddenWhileTheBotIsHeld() {
        var app = Self.app(Self.configuration(botBeside: true), view: Self.doorDuel())
        func cardCorners() -> Int { Self.text(app).filter { $0 == "╭" }.count }
        #expect(cardCorners() >= 12)
        _ = app.input(.key(.character("?")), at: 0)
        #expect(cardCorners() <= 1, "the help box's own corner only")
        _ = app.input(.key(.escape), at: 0)
        #expect(cardCorners() >= 12)
        _ = app.input(.key(.character("q")), at: 0)
        #expect(app.state.overlay == .confirmQuit)
        #expect(cardCorners() <= 1)
        var remote = Self.app(Self.configuration(), view: Self.doorDuel())
        _ = remote.input(.key(.character("?")), at: 0)
        #expect(Self.text(remote).filter { $0 == "╭" }.count >= 2, "a duel against a person goes on: its cards stay")
    }

    @Test func helpAndTheLeaveBoxHoldTheDoorsBot() {
        var app = Self.app(Self.configuration(botBeside: true), view: Self.doorDuel())
        #expect(app.input(.key(.character("?")), at: 0) == [.holdLocal(true)])
        #expect(Self.text(app).contains("The game is paused while this help is open"))
        _ = app.receive(Self.event(.presence(seat: .second, present: false, forfeitAt: 120_000), seq: 6), at: 0)
        #expect(app.compose(at: 0).textLines[1].contains("Paused while you read the help"))
        #expect(!Self.text(app).contains("bot-easy left"), "the bot steps out to pause: no news")
        #expect(app.input(.key(.escape), at: 0) == [.holdLocal(false)])
        #expect(app.input(.key(.character("q")), at: 0) == [.holdLocal(true)])
        #expect(app.state.overlay == .confirmQuit)
        #expect(app.input(.key(.escape), at: 0) == [.holdLocal(false)])
    }

    /// On a real server an away seat forfeits once its seat wait is spent: the bot comes back
    /// first, and stays for the rest of the game, so reading the help never wins a rated game.
    @Test func aHeldBotComesBackBeforeItsSeatWaitRunsOut() {
        var app = Self.app(Self.configuration(botBeside: true), view: Self.doorDuel())
        _ = app.input(.key(.character("?")), at: 0)
        let forfeitAt = app.state.clock.serverTime(at: 0) + 60_000
        _ = app.receive(Self.event(.presence(seat: .second, present: false, forfeitAt: forfeitAt), seq: 6), at: 0)
        #expect(app.tick(at: 44_000).contains(.holdLocal(false)) == false, "16 s before the forfeit the bot still waits")
        #expect(app.tick(at: 46_000).contains(.holdLocal(false)))
        _ = app.receive(Self.event(.presence(seat: .second, present: true, forfeitAt: nil), seq: 7), at: 46_000)
        #expect(app.input(.key(.escape), at: 47_000).isEmpty, "the bot is back already")
        #expect(app.input(.key(.character("?")), at: 48_000).isEmpty, "and is not held again this game")
    }

    /// A fresh door bot duel, its player seated alone, on the start box that says who they face.
    static func botDuelOnItsStartBox() -> ClientApp {
        var configuration = Self.configuration(botBeside: true)
        configuration.startBoxTitle = "You against the easy bot"
        var waiting = ClientFixtures.view(cards: 0, phase: .waiting)
        waiting.match = "bot-3f9a0b12"
        waiting.players = [PlayerInfo(seat: .first, name: "key-2Bi5wK", present: true, score: 0)]
        return Self.app(configuration, view: waiting)
    }

    /// A bot duel's bot joins at the player's first key, whatever it is: the Enter a newcomer
    /// types after the menu's "2" starts the duel and calls no Set!; once dealt, Enter is Set!.
    @Test func aBotDuelStartsAtTheFirstKeyWhichClaimsNothing() {
        var app = Self.botDuelOnItsStartBox()
        let box = Self.box("Ready?", in: app)
        #expect(box.contains("You against the easy bot") && box.contains("Press any key to start   q quit"), "\(box)")
        #expect(app.input(.key(.enter), at: 0) == [.startLocal], "the Enter starts the bot, and sends nothing")
        #expect(Self.box("Ready?", in: app).isEmpty)
        #expect(Self.text(app).contains("Dealing…"))
        _ = app.receive(.snapshot(Self.doorDuel()), at: 0)
        #expect(app.input(.key(.enter), at: 0).contains { if case .send(.act(.claim, _, _)) = $0 { true } else { false } })
    }

    /// A bot the server turns away leaves nobody at "Dealing…" without a word: the screen says
    /// it could not take its seat, why, and how to leave; in a duel under way it is tried again.
    @Test func aBotTurnedAwayIsSaidWhereThePlayerWaits() {
        var app = Self.botDuelOnItsStartBox()
        #expect(app.input(.key(.enter), at: 0) == [.startLocal])
        app.botCouldNotJoin("bot-easy: the server refused to seat it: The server is full; try again later. (server_full)", at: 1_000)
        let text = Self.text(app)
        #expect(text.contains("The bot could not take its seat") && text.contains("(server_full)"), "\(text)")
        #expect(text.contains("Leave with q") && !text.contains("Dealing…"), "\(text)")
        #expect(app.state.notices.contains { $0.text == "the bot could not take its seat" && $0.tone == .bad })
        // A duel under way whose bot was turned away on its way back: asked again, once, before
        // its seat would forfeit (a rated win for nothing).
        var kept = Self.doorDuel()
        kept.players[1].present = false
        kept.forfeitAt = 61_000
        var playing = Self.app(Self.configuration(botBeside: true), view: kept)
        playing.botCouldNotJoin("bot-easy: the server refused to seat it: The server is full; try again later. (server_full)", at: 0)
        #expect(!playing.tick(at: 44_000).contains(.holdLocal(false)), "16 s before the forfeit the bot is not asked yet")
        #expect(playing.tick(at: 46_000).contains(.holdLocal(false)))
        #expect(!playing.tick(at: 47_000).contains(.holdLocal(false)), "once a game")
    }

    /// A kept duel comes back with its bot away and its seat wait running: a player who leaves
    /// the start box unanswered cannot win by the bot's forfeit, which starts it first.
    @Test func anUnansweredStartBoxStartsTheBotBeforeItsSeatWaitRunsOut() {
        var configuration = Self.configuration(botBeside: true)
        configuration.startBoxTitle = "You against the easy bot"
        var view = Self.doorDuel()
        view.players[1].present = false
        view.forfeitAt = 61_000
        var app = Self.app(configuration, view: view)
        #expect(Self.box("Ready?", in: app).contains("Press any key to resume   q quit"))
        #expect(app.tick(at: 44_000).contains(.startLocal) == false, "16 s before the forfeit the bot still waits")
        #expect(app.tick(at: 46_000).contains(.startLocal))
        #expect(!app.state.awaitingStart && Self.box("Ready?", in: app).isEmpty)
        #expect(app.tick(at: 47_000).contains(.startLocal) == false, "started once")
        #expect(app.input(.key(.character("?")), at: 48_000).isEmpty, "and not held again this game")
    }

    /// A seat that leaves ends its window as if passed: the bot, holding its claim when help
    /// opens, steps out only once its window is over, so reading the help never costs it 10 nor
    /// hands the player a second chance (issue 45).
    @Test func aBotHoldingItsClaimStepsOutOnlyWhenItsWindowIsOver() {
        var app = Self.app(Self.configuration(botBeside: true), view: Self.doorDuel())
        let claim = Window(kind: .claim, holder: .second, opened: Instant(milliseconds: 1_000), deadline: Instant(milliseconds: 6_000))
        _ = app.receive(Self.event(.rules(.windowOpened(claim)), seq: 6), at: 0)
        #expect(app.input(.key(.character("?")), at: 0).isEmpty, "the bot keeps its seat while its claim is open")
        #expect(app.state.overlay == .help)
        #expect(app.receive(Self.event(.rules(.windowClosed(claim, .decided)), seq: 7), at: 0) == [.holdLocal(true)])
        #expect(app.input(.key(.escape), at: 0) == [.holdLocal(false)])
    }

    // MARK: Item 6, words

    @Test func theLeaveBoxSaysItsSentenceWholeAt80x24() {
        var app = Self.app(Self.configuration(botBeside: true), view: Self.doorDuel())
        _ = app.input(.key(.character("q")), at: 0)
        let box = Self.box("Leave the match?", in: app)
        #expect(box.filter { !$0.isEmpty }.joined(separator: " ").hasPrefix("Your seat waits 2 minutes, then counts as forfeited: ssh in again to come back. q leave"),
                "\(box)")
    }

    @Test func aGuestIsNotPromisedASeat() {
        var configuration = Self.configuration()
        configuration.quitNote = "A guest's seat is not kept: leaving gives this game up."
        var app = Self.app(configuration, view: Self.doorDuel())
        _ = app.input(.key(.character("q")), at: 0)
        let screen = Self.text(app)
        #expect(screen.contains("A guest's seat is not kept"))
        #expect(!screen.contains("Your seat waits"))
    }

    @Test func aDoorDuelNamesItsVariantAt80x24() {
        let app = Self.app(Self.configuration(botBeside: true), view: Self.doorDuel(.ultra))
        let header = app.compose(at: 0).textLines[0]
        #expect(header.contains("UltraSet"), "header: \(header)")
        #expect(header.contains("key-2Bi5wK") && header.contains("bot-easy"))
    }
}
