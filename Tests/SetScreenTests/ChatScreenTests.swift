import SetRules
import SetWire
import Testing
@testable import SetScreen

/// Issue 27: the chat strip never covers a card, the input takes one line, and mutes are the
/// viewer's own.
@Suite struct ChatScreenTests {
    static func line(_ text: String, by name: String = "bob", room: ChatRoom = .players) -> ServerMessage {
        .chat(ChatLine(match: "duel-1", room: room, name: name, seat: room == .players ? .second : nil, text: text, time: 1_000))
    }

    /// An app with the match's chat: some lines, one hostile, one from a spectator.
    static func chatting(size: TerminalSize, role: Role = .player) -> ClientApp {
        var app = ClientFixtures.app(ClientFixtures.view(), size: size, role: role)
        for message in [line("gl hf"), line("\u{1B}[2Jnice \u{1B}]0;pwned\u{07}one", by: "eve", room: .spectators),
                        line(String(repeating: "漢", count: 100))] {
            _ = app.receive(message, at: 100)
        }
        return app
    }

    /// Every card of the table drawn whole: its corners and its label where they belong.
    static func expectEveryCardWhole(_ app: ClientApp, at now: Int64) throws {
        let screen = app.compose(at: now)
        let table = try #require(app.layout.table)
        #expect(table.cardRects.count == 12)
        let labels = CardLabels(count: 12)
        for (index, rect) in table.cardRects.enumerated() {
            for (column, row) in [(rect.column, rect.row), (rect.endColumn - 1, rect.row),
                                  (rect.column, rect.endRow - 1), (rect.endColumn - 1, rect.endRow - 1)] {
                #expect(ClientFixtures.corners.contains(screen[column, row].character), "card \(index) corner at \(column),\(row)")
            }
            let label = try #require(labels.label(for: index))
            #expect(String((0..<label.count).map { screen[rect.column + 1 + $0, rect.row].character }) == label)
        }
    }

    /// Issue 32 item 13: format characters from a server (300 × U+0600, a soft hyphen in a
    /// name) never reach the screen: terminals draw them a column wide, the screen counts none.
    @Test func formatCharactersFromAServerNeverReachTheScreen() {
        var app = ClientFixtures.app(ClientFixtures.view(), size: TerminalSize(columns: 80, rows: 24))
        _ = app.receive(Self.line(String(repeating: "\u{0600}", count: 300) + "hi", by: "b\u{00AD}ob"), at: 100)
        let lines = app.compose(at: 200).textLines
        #expect(!lines.joined().unicodeScalars.contains { $0.properties.generalCategory == .format })
        #expect(lines[23].contains("bob: hi"), "\(lines[23])")
    }

    /// Nor are they typed: the draft on the button row is drawn by this terminal too.
    @Test func formatCharactersAreNeverTypedIntoTheChatLine() {
        var app = ClientFixtures.app(ClientFixtures.view(), size: TerminalSize(columns: 80, rows: 24))
        _ = app.input(.key(.character("/")), at: 100)
        for character in ["a", "\u{0600}", "\u{00AD}", "\u{200B}", "👩", "\u{200D}", "👧", "b"] as [Character] {
            _ = app.input(.key(.character(character)), at: 100)
        }
        #expect(app.state.chatDraft == "a👩\u{200D}👧b", "\(app.state.chatDraft.map { $0.unicodeScalars.map(\.value) } ?? [])")
    }

    @Test func at80x24AllTwelveCardsStayWholeWithChatAndTheNewestLineFoldsBesideTheButtons() throws {
        var app = Self.chatting(size: TerminalSize(columns: 80, rows: 24))
        try Self.expectEveryCardWhole(app, at: 200)
        #expect(app.layout.chatStrip == nil, "80×24 gives every table row to the cards")
        let bottom = app.compose(at: 200).textLines[23]
        #expect(bottom.contains("Set!") && bottom.contains("Quit"), "the buttons stay")
        #expect(bottom.contains("bob: 漢"), "the newest line folds beside them: \(bottom)")
        #expect(!app.compose(at: 200 + ChatStrip.foldedMs).textLines[23].contains("bob:"), "and fades")
        // Typing takes the button row, never a card's.
        _ = app.input(.key(.character("/")), at: 300)
        for character in "gg wp" { _ = app.input(.key(.character(character)), at: 300) }
        try Self.expectEveryCardWhole(app, at: 300)
        #expect(app.compose(at: 300).textLines[23].hasPrefix("say to all: gg wp"))
        let sent = app.input(.key(.enter), at: 301)
        #expect(sent == [.send(.chat(room: nil, text: "gg wp"))])
        #expect(app.state.chatDraft == nil)
    }

    @Test func onATallerTerminalTheLastLinesShowBelowTheCardsAndHostileTextIsHarmless() throws {
        let app = Self.chatting(size: TerminalSize(columns: 100, rows: 32))
        try Self.expectEveryCardWhole(app, at: 200)
        let strip = try #require(app.layout.chatStrip)
        #expect(strip.height >= 2)
        #expect(app.layout.table?.cardSize == ClientFixtures.app(ClientFixtures.view(), size: app.state.size).layout.table?.cardSize,
                "the strip costs the cards nothing")
        let screen = app.compose(at: 200 + ChatStrip.foldedMs)
        let shown = (strip.row..<strip.endRow).map { screen.textLines[$0] }.joined(separator: "\n")
        #expect(shown.contains("(eve) [2Jnice ]0;pwned") && shown.contains("bob: 漢漢"), "\(shown)")
        #expect(strip.height >= 3 || !shown.contains("gl hf"), "the newest lines, oldest first")
        #expect(screen.textLines.allSatisfy { !$0.contains("\u{1B}") && !$0.contains("\u{07}") })
    }

    @Test func muteIsTheViewersOwnAndHidesARoomOrAPerson() throws {
        var app = Self.chatting(size: TerminalSize(columns: 100, rows: 32))
        func type(_ text: String) {
            _ = app.input(.key(.character("/")), at: 300)
            for character in text { _ = app.input(.key(.character(character)), at: 300) }
        }
        type("/mute spectators")
        #expect(app.input(.key(.enter), at: 300).isEmpty, "a mute sends nothing")
        #expect(app.state.session.chat.shown.map(\.name) == ["bob", "bob"])
        type("/mute BOB")
        _ = app.input(.key(.enter), at: 300)
        #expect(app.state.session.chat.shown.isEmpty)
        #expect(app.state.session.chat.lines.count == 3, "muted lines are still kept")
        type("/unmute spectators")
        _ = app.input(.key(.enter), at: 300)
        #expect(app.state.session.chat.shown.map(\.name) == ["eve"])
        type("")
        #expect(app.input(.key(.escape), at: 300).isEmpty && app.state.chatDraft == nil)
    }
}
