import SetRules
import Testing
@testable import SetScreen

/// The ssh door's menu at 80×24, as a player meets it, and its keys and clicks.
@Suite struct DoorMenuTests {
    static func menu() -> DoorMenu { DoorMenu(name: "key-2Jrayl", levels: ["easy", "normal", "hard"]) }

    @Test func itsLinesAt80x24() {
        let lines = Self.menu().render(size: TerminalSize(columns: 80, rows: 24)).textLines.map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
        #expect(Array(lines[0..<13]) == [
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
            "     7. Quit",
            "",
            "    Up/Down choose, Left/Right change, Enter go, q quit",
        ])
        #expect(lines[13...].allSatisfy { $0.isEmpty })
    }

    @Test func itFitsAtTheSmallestTerminal() {
        let lines = Self.menu().render(size: TerminalSize(columns: 40, rows: 12)).textLines
        #expect(lines[4].contains("1. Quick duel"))
        #expect(lines[10].contains("7. Quit"))
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
        #expect(menu.input(.key(.escape)) == .quit)
        #expect(menu.input(.key(.character("5"))) == .watch)
    }
}
