import SetRules
import SetWire
import Testing
@testable import SetScreen

/// Chat one can follow at 80×24: the last lines can be read again, a cut line says so, and the
/// help names the key.
@Suite struct ChatHistoryTests {
    static let standard = TerminalSize(columns: 80, rows: 24)

    static func app(lines: [String], size: TerminalSize = standard) -> ClientApp {
        var app = ClientFixtures.app(ClientFixtures.view(), size: size)
        for (index, text) in lines.enumerated() {
            _ = app.receive(.chat(ChatLine(match: "duel-1", room: .players, name: index % 2 == 0 ? "bob" : "alice",
                                           seat: index % 2 == 0 ? .second : .first, text: text, time: 1_000 + Int64(index))), at: 100)
        }
        return app
    }

    /// At 80×24 only the newest line showed, for 10 s: ↑ in the open chat shows the last lines
    /// over the table, newest last; ↓ and Esc put them away, and the cards are back.
    @Test func theLastLinesAreReachableAt80x24() throws {
        let said = (1...10).map { "line number \($0)" }
        var app = Self.app(lines: said)
        let quiet = app.compose(at: 20_000).textLines.joined(separator: "\n")
        #expect(!quiet.contains("line number"), "faded after 10 s")
        _ = app.input(.key(.character("/")), at: 20_000)
        #expect(app.compose(at: 20_000).textLines[23].contains("↑ last lines"), "the input says where they are")
        _ = app.input(.key(.up), at: 20_000)
        let screen = app.compose(at: 20_000).textLines
        let shown = said.suffix(ChatStrip.historyLines)
        let rows = shown.map { line in screen.firstIndex { $0.hasSuffix(": " + line) || $0.contains(": " + line + " ") || $0.hasSuffix(line) } }
        #expect(rows.allSatisfy { $0 != nil }, "\(screen.joined(separator: "\n"))")
        #expect(rows.compactMap { $0 } == rows.compactMap { $0 }.sorted(), "newest last")
        #expect(!screen.joined().contains("line number 2 "), "only the last \(ChatStrip.historyLines)")
        #expect(screen[23].hasPrefix("say to all: "), "the input stays")
        _ = app.input(.key(.escape), at: 20_001)
        #expect(app.state.chatDraft != nil, "Esc hides the lines first")
        try ChatScreenTests.expectEveryCardWhole(app, at: 20_001)
        _ = app.input(.key(.escape), at: 20_002)
        #expect(app.state.chatDraft == nil)
    }

    /// A line cut at the edge ends in "…" beside the buttons, in the strip and in the history.
    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 100, rows: 32)])
    func aCutLineEndsInAnEllipsis(size: TerminalSize) {
        let long = "a long line " + String(repeating: "word ", count: 40) + "END"
        var app = Self.app(lines: [long], size: size)
        let screen = app.compose(at: 200).textLines
        let row = screen.firstIndex { $0.contains("bob: a long line") }
        #expect(row.map { screen[$0].trimmingCharacters(in: .whitespaces).hasSuffix("…") } == true, "\(screen.joined(separator: "\n"))")
        #expect(!screen.joined().contains("END"))
        _ = app.input(.key(.character("/")), at: 300)
        _ = app.input(.key(.up), at: 300)
        let history = app.compose(at: 300).textLines
        #expect(history.contains { $0.contains("bob: a long line") && $0.trimmingCharacters(in: .whitespaces).hasSuffix("…") }, "\(history.joined(separator: "\n"))")
    }

    /// The help at 80×24 (its short form of the keys) never mentioned `/`.
    @Test func theHelpNamesTheChatKey() {
        var app = Self.app(lines: [])
        _ = app.perform(.help, at: 0)
        let help = app.compose(at: 0).textLines.joined(separator: "\n")
        #expect(help.contains("/ chat"), "\(help)")
    }
}
