import SetWire
import Testing
@testable import SetScreen

/// Issue 23 item 13: lines printed after the screen wrap at word boundaries, never inside a command.
@Suite struct PrintedLinesTests {
    static let binary = "/home/ann/setgame/.build/x86_64-unknown-linux-gnu/debug/setgame"

    @Test func aLineThatFitsIsPrintedAsItIs() {
        let line = "setgame: your game is kept: 'setgame play' resumes it ('--new' starts afresh)."
        #expect(PrintedLines.wrap([line], width: 80, command: "setgame") == [line])
    }

    @Test func aWatchCommandAfterItsWordsGetsALineOfItsOwn() {
        let command = "\(Self.binary) watch 127.0.0.1:36057 duel"
        let lines = PrintedLines.wrap(["A friend on this machine can watch with: \(command)"], width: 80, command: Self.binary)
        #expect(lines == ["A friend on this machine can watch with:", command])
    }

    @Test func aQuotedCommandThatDoesNotFitStandsAloneAndBare() {
        let again = "\(Self.binary) play --mode chain --name linker"
        let lines = PrintedLines.wrap(["setgame: your game is kept: '\(again)' resumes it ('--new' starts afresh)."],
                                      width: 80, command: Self.binary)
        #expect(lines == ["setgame: your game is kept:", again, "resumes it ('--new' starts afresh)."])
    }

    @Test func wordsWrapAtSpacesToTheWidthAndAQuotedCommandThatFitsStaysInline() {
        let line = "setgame: you resigned: bot-easy wins · you 12, bot-easy 30 and then some more words to wrap 'setgame play' now"
        let lines = PrintedLines.wrap([line], width: 40, command: "setgame")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 40 })
        #expect(lines.joined(separator: " ") == line, "only spaces became line breaks")
        #expect(lines.contains { $0.contains("'setgame play'") })
    }

    @Test func theProgramsOwnPrefixIsNotACommand() {
        let line = "setgame play: an unfinished game is kept in /a/very/long/folder/name/that/goes/on but its seat token is gone"
        let lines = PrintedLines.wrap([line], width: 60, command: "setgame")
        #expect(lines.count > 1 && lines.allSatisfy { DisplayWidth.of($0) <= 60 })
    }
}
