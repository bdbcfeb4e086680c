import SetRules
import SetWire
import Testing
@testable import SetScreen

/// The ssh door's menu at 80×24, as a player meets it, and its keys and clicks.
@Suite struct DoorMenuTests {
    static func menu() -> DoorMenu { DoorMenu(name: "key-2Jrayl", levels: ["easy", "normal", "hard"]) }

    static func trimmed(_ screen: ScreenBuffer) -> [String] {
        screen.textLines.map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
    }

    @Test func itsLinesAt80x24() {
        let lines = Self.trimmed(Self.menu().render(size: TerminalSize(columns: 80, rows: 24)))
        #expect(Array(lines[0..<17]) == [
            "",
            "    Set, over ssh",
            "    You play as key-2Jrayl.",
            "",
            "   > 1. Quick duel: play whoever is waiting",
            "     2. Duel a bot            < easy >",
            "     3. Solo game",
            "     4. Variant               < Classic >",
            "     5. Watch a live match",
            "     6. Colours               < full >",
            "     7. Your name             key-2Jrayl",
            "     8. Your profile, your games, the leaderboard",
            "     9. Who is here: players, challenges, open seats, live duels",
            "     a. Arenas: timed tournaments to join",
            "     q. Quit",
            "",
            "    Up/Down choose, Left/Right change, Enter go, q quit",
        ])
        #expect(lines[17...].allSatisfy { $0.isEmpty })
    }

    /// A game chosen in the menu comes back to it: the game left waiting offered first, the new
    /// rating under the items; once nothing waits, the way back is gone.
    @Test func aGameComesBackToTheMenuWithItsRating() {
        var menu = Self.menu()
        menu.returned(waiting: "your quick duel", note: "Your Classic rating: 1512 (1 rated game).")
        var lines = Self.trimmed(menu.render(size: TerminalSize(columns: 80, rows: 24)))
        #expect(lines[4] == "   > 0. Back to your quick duel")
        #expect(lines.contains("    Your Classic rating: 1512 (1 rated game)."))
        menu.returned(waiting: nil, note: nil)
        lines = Self.trimmed(menu.render(size: TerminalSize(columns: 80, rows: 24)))
        #expect(lines[4] == "   > 1. Quick duel: play whoever is waiting")
        #expect(!lines.contains { $0.contains("Back to") || $0.contains("rating") })
    }

    /// A note longer than the screen is wide (the server's reason for refusing a name) is
    /// wrapped, never cut at the edge (issue 45, at 60 columns and below).
    @Test func aLongNoteIsWrappedAt60Columns() {
        var menu = Self.menu()
        let reason = "The name \"fayzer\" belongs to another player here; try \"fayzer2\"."
        menu.note = reason
        for columns in [60, 40] {
            let lines = Self.trimmed(menu.render(size: TerminalSize(columns: columns, rows: 24)))
            let shown = lines.drop { !$0.contains("The name") }.prefix { !$0.isEmpty }
            #expect(shown.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == reason, "\(columns): \(lines)")
            #expect(shown.allSatisfy { $0.count < columns })
        }
    }

    /// At the smallest terminal the items move up under the title, the way back to a waiting
    /// game included, and a click finds the line drawn under it; at 12 rows, where the title and
    /// all twelve items do not fit, the items take the top row too.
    @Test func itFitsAtTheSmallestTerminal() {
        var menu = DoorMenu(name: "key-2Jrayl", levels: ["easy"], waiting: "your quick duel")
        menu.rows = 13
        var lines = menu.render(size: TerminalSize(columns: 40, rows: 13)).textLines
        #expect(lines[0].contains("Set, over ssh: you play as key-2Jrayl"))
        #expect(lines[1].contains("0. Back to your quick duel"))
        #expect(lines[2].contains("1. Quick duel"))
        #expect(lines[12].contains("q. Quit"))
        #expect(menu.input(.mouse(MouseEvent(button: .left, kind: .press, column: 8, row: 4))) == .solo)
        menu.rows = 12
        lines = menu.render(size: TerminalSize(columns: 40, rows: 12)).textLines
        #expect(lines[0].contains("0. Back to your quick duel") && lines[10].contains("a. Arenas") && lines[11].contains("q. Quit"))
        #expect(menu.input(.mouse(MouseEvent(button: .left, kind: .press, column: 8, row: 5))) == .watch)
    }

    /// Arenas (issue 44): `a` asks for the list; the arenas running or starting are offered with
    /// their clocks, a digit joins one, any other key goes back to the menu.
    @Test func theArenasAreOfferedAndOneIsJoinedByItsDigit() {
        var menu = Self.menu()
        #expect(menu.input(.key(.character("a"))) == .arenas)
        menu.offer([ArenaSummary(header: ArenaHeader(arena: "friday", variant: .junior, rated: true, state: .running, endsAt: 450_000), startsAt: 0,
                                 players: 12, leader: "ann"),
                    ArenaSummary(header: ArenaHeader(arena: "done", variant: .classic, rated: true, state: .finished, endsAt: 10_000), startsAt: 0,
                                 players: 2),
                    ArenaSummary(header: ArenaHeader(arena: "later", variant: .classic, rated: false, state: .starting, endsAt: 725_000),
                                 startsAt: 125_000, players: 1)],
                   serverNow: 5_000)
        let lines = Self.trimmed(menu.render(size: TerminalSize(columns: 80, rows: 24)))
        #expect(Array(lines[3...4]) == ["    1. friday · Junior, rated · 7:25 left · 12 players, ann leads",
                                        "    2. later · Classic, casual · starts in 2:00 · 1 player"])
        #expect(lines[23] == "    1-2 join that arena, any other key: back")
        #expect(menu.input(.key(.character("2"))) == .arena("later"))
        #expect(menu.arenas == nil, "the menu again")
        menu.offer([], serverNow: 0)
        #expect(Self.trimmed(menu.render(size: TerminalSize(columns: 80, rows: 24)))[3] == "    No arenas are running or starting.")
        #expect(menu.input(.key(.character("1"))) == nil && menu.arenas == nil, "none to join: back to the menu")
    }

    // MARK: Item 3, a game left waiting

    @Test func aGameLeftWaitingIsOfferedFirst() {
        var menu = DoorMenu(name: "key-2Jrayl", levels: ["easy"], waiting: "your duel against the hard bot, Ultra")
        let lines = Self.trimmed(menu.render(size: TerminalSize(columns: 80, rows: 24)))
        #expect(lines[4] == "   > 0. Back to your duel against the hard bot, Ultra")
        #expect(lines[5] == "     1. Quick duel: play whoever is waiting")
        #expect(menu.input(.key(.enter)) == .resume)
        #expect(menu.input(.key(.character("0"))) == .resume)
        #expect(menu.input(.key(.character("1"))) == .quickDuel, "the other items keep their keys")
        var nothingWaits = Self.menu()
        #expect(nothingWaits.input(.key(.character("0"))) == nil, "nothing waits, nothing to go back to")
    }

    // MARK: Item 4, a name and a standing

    @Test func aNameIsTypedInTheMenu() {
        var menu = Self.menu()
        #expect(menu.input(.key(.character("7"))) == nil)
        #expect(menu.render(size: TerminalSize(columns: 80, rows: 24)).textLines[16].contains("Type your name"))
        for character in "ann q" { #expect(menu.input(.key(.character(character))) == nil) }
        #expect(menu.input(.key(.backspace)) == nil)
        #expect(menu.input(.key(.backspace)) == nil, "q and j are letters while a name is typed, not keys")
        #expect(Self.trimmed(menu.render(size: TerminalSize(columns: 80, rows: 24)))[10] == "   > 7. Your name: ann_")
        #expect(menu.input(.key(.enter)) == .rename("ann"))
        menu.renamed(to: "ann")
        let lines = Self.trimmed(menu.render(size: TerminalSize(columns: 80, rows: 24)))
        #expect(lines[2] == "    You play as ann.")
        #expect(lines[10] == "   > 7. Your name             ann")
        #expect(lines[18] == "    You play as ann from now on.")
        // Esc gives up a name being typed; the menu is as it was.
        #expect(menu.input(.key(.enter)) == nil)
        #expect(menu.input(.key(.character("x"))) == nil)
        #expect(menu.input(.key(.escape)) == nil)
        #expect(menu.name == "ann")
        #expect(menu.input(.key(.character("q"))) == .quit)
    }

    @Test func aGuestHasNoNameToKeepButSeesTheLeaderboard() {
        var menu = DoorMenu(name: "guest-4821", levels: ["easy"], canRename: false)
        let lines = Self.trimmed(menu.render(size: TerminalSize(columns: 80, rows: 24)))
        #expect(!lines.contains { $0.contains("Your name") })
        #expect(lines[10] == "     8. The leaderboard")
        #expect(menu.input(.key(.character("7"))) == nil)
        #expect(menu.input(.key(.character("8"))) == .standing)
    }

    @Test func aStandingIsAPageAndAnyKeyGoesBack() {
        var menu = Self.menu()
        #expect(menu.input(.key(.character("8"))) == .standing)
        menu.page = ["key-2Jrayl: 3 games, 2 wins, 1 loss, 0 draws", "  classic 1562? (±180), 3 games"]
        let lines = Self.trimmed(menu.render(size: TerminalSize(columns: 80, rows: 24)))
        #expect(lines[3] == "key-2Jrayl: 3 games, 2 wins, 1 loss, 0 draws", "80 columns of answer fit an 80-column terminal")
        #expect(lines[23] == "    Any key: back to the menu")
        #expect(menu.input(.key(.character("1"))) == nil, "the key only closes the page")
        #expect(menu.page == nil)
        #expect(menu.input(.key(.character("1"))) == .quickDuel)
    }

    @Test func keysChangeTheLevelAndTheVariantThenChoose() {
        var menu = Self.menu()
        #expect(menu.input(.key(.down)) == nil)
        #expect(menu.input(.key(.right)) == nil)
        #expect(menu.input(.key(.right)) == nil)
        #expect(menu.input(.key(.down)) == nil)
        #expect(menu.input(.key(.down)) == nil)
        #expect(menu.input(.key(.left)) == nil)
        #expect(menu.variant == Variant.allCases.last)
        #expect(menu.input(.key(.character("2"))) == .bot(level: "hard"))
        #expect(menu.render(size: TerminalSize(columns: 80, rows: 24)).textLines[5].contains("< hard >"))
    }

    @Test func aClickOnALineChoosesIt() {
        var menu = Self.menu()
        #expect(menu.input(.mouse(MouseEvent(button: .left, kind: .press, column: 8, row: 6))) == .solo)
        #expect(menu.input(.mouse(MouseEvent(button: .left, kind: .press, column: 8, row: 9))) == nil)
        #expect(menu.colours == .letters)
        #expect(menu.input(.mouse(MouseEvent(button: .left, kind: .press, column: 8, row: 9))) == nil)
        #expect(menu.colours == DoorMenu.Colours.none)
        #expect(menu.input(.key(.character("q"))) == .quit)
        #expect(menu.input(.key(.escape)) == nil, "Esc has nothing to go back to here: it does not end the session")
        #expect(menu.input(.key(.character("5"))) == .watch)
    }

    /// "7⏎" as in a numbered menu: the Enter after a shortcut belongs to it. It does not close the
    /// name editor the 7 opened, and after a digit that left the menu it is still awaited, for
    /// the game to drop (`ClientOptions.dropsLeadingEnter`); a choice made with Enter awaits none.
    @Test func theEnterTypedAfterAShortcutIsTheShortcuts() {
        var menu = Self.menu()
        #expect(menu.input(.key(.character("7"))) == nil)
        #expect(menu.input(.key(.enter)) == nil)
        #expect(menu.draft == "", "the name editor is still open")
        for character in "bo" { #expect(menu.input(.key(.character(character))) == nil) }
        #expect(menu.input(.key(.enter)) == .rename("bo"), "an Enter after letters is the name's")
        var waiting = DoorMenu(name: "key-2Jrayl", levels: ["easy"], waiting: "your quick duel")
        #expect(waiting.input(.key(.character("0"))) == .resume)
        #expect(waiting.awaitsEnterAfterShortcut)
        #expect(waiting.input(.key(.enter)) == nil, "the digit's Enter, come before the game began")
        #expect(!waiting.awaitsEnterAfterShortcut)
        #expect(waiting.input(.key(.enter)) == .resume, "a second Enter is a choice of its own")
        #expect(!waiting.awaitsEnterAfterShortcut)
        #expect(waiting.input(.key(.character("1"))) == .quickDuel)
        waiting.returned(waiting: nil, note: nil)
        #expect(!waiting.awaitsEnterAfterShortcut, "back from a game, the menu awaits nothing")
    }

    // MARK: Item 5: the lobby screen is `LobbyView` (LobbyScreenTests)

    @Test func nineOpensTheLobby() {
        var menu = Self.menu()
        #expect(menu.input(.key(.character("9"))) == .lobby)
    }
}
