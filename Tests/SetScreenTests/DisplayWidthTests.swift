import SetWire
import Testing
import SetRules
@testable import SetScreen

@Suite struct DisplayWidthTests {
    @Test func asciiIsOneCellEach() {
        #expect("ann".displayWidth == 3)
        #expect(DisplayWidth.of(Character("a")) == 1)
    }

    @Test func cjkAndFullwidthTakeTwoCells() {
        #expect("漢字".displayWidth == 4)
        #expect("한국어".displayWidth == 6)
        #expect("ＡＢ".displayWidth == 4)
        #expect("日本語の名前です名前です".displayWidth == 24)
    }

    @Test func combiningMarksTakeNoCellOfTheirOwn() {
        let decomposed = "e\u{301}te\u{301}"  // "été" with combining acute accents
        #expect(decomposed.displayWidth == 3)
        #expect("Z\u{335}\u{321}a\u{336}".displayWidth == 2)
        #expect(DisplayWidth.of(Unicode.Scalar(0x200B)!) == 0)
    }

    @Test func emojiAndTheirSequencesTakeTwoCells() {
        #expect("🙂".displayWidth == 2)
        #expect("👩‍👩‍👧".displayWidth == 2)  // one grapheme joined by ZWJ
        #expect("🇫🇷".displayWidth == 2)
        #expect("❤️".displayWidth == 2)   // text-style heart asked as emoji with U+FE0F
        #expect("❤".displayWidth == 1)
    }

    /// Issue 32 item 13: widths as tmux 3.3a draws them (cursor column after printing each,
    /// measured in this machine's tmux): a spacing vowel sign takes a column of its own, a skin
    /// tone two more beside its emoji; a combining mark and a joined sequence nothing more.
    @Test func spacingMarksAndSkinTonesTakeTheColumnsTerminalsDrawThemIn() {
        #expect("\u{915}\u{93E}".displayWidth == 2, "का: tmux draws two columns")
        #expect(String(repeating: "\u{915}\u{93E}", count: 100).displayWidth == 200)
        #expect("\u{1F44D}\u{1F3FD}".displayWidth == 4, "👍🏽: tmux draws the tone beside the hand")
        #expect("\u{1F3FD}".displayWidth == 2)
        #expect("\u{3164}".displayWidth == 2, "a Hangul filler: two blank columns")
        #expect("\u{1112}\u{1161}\u{11AB}".displayWidth == 2, "a syllable of conjoining jamo")
    }

    @Test func noticesWrapByDisplayWidth() {
        #expect(Notice.wrap("漢字漢字 ab", width: 4) == ["漢字", "漢字", "ab"])
        #expect(Notice.wrap("名前 is", width: 7) == ["名前 is"])
        #expect(Notice.wrap("漢", width: 1) == ["漢"], "a wide character on a one-cell line still moves on")
    }

    @Test func prefixNeverCutsAWideCharacterInHalf() {
        #expect(DisplayWidth.prefix("漢字漢字", cells: 5) == "漢字")
        #expect(DisplayWidth.prefix("a漢", cells: 2) == "a")
        #expect(DisplayWidth.prefix("abc", cells: 10) == "abc")
    }

    @Test func aWideCharacterTakesTwoCellsInTheBuffer() {
        var buffer = ScreenBuffer(size: TerminalSize(columns: 6, rows: 1))
        buffer.write("a漢b", column: 0, row: 0)
        #expect(buffer[1, 0].character == "漢")
        #expect(buffer[2, 0].isWideTail)
        #expect(buffer[3, 0].character == "b")
    }

    @Test func overwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        var buffer = ScreenBuffer(size: TerminalSize(columns: 4, rows: 1))
        buffer.write("漢字", column: 0, row: 0)
        buffer.put("x", column: 1, row: 0)
        buffer.put("y", column: 2, row: 0)
        #expect(buffer.textLines == [" xy "])
        #expect(!buffer[3, 0].isWideTail)
    }

    @Test func aWideCharacterAtTheLastColumnBecomesASpace() {
        var buffer = ScreenBuffer(size: TerminalSize(columns: 3, rows: 1))
        buffer.write("ab漢", column: 0, row: 0)
        #expect(buffer.textLines == ["ab "])
        buffer.put("漢", column: 2, row: 0)
        #expect(buffer.textLines == ["ab "])
    }

    @Test func spansStopBeforeAWideCharacterThatWouldCrossTheLimit() {
        var buffer = ScreenBuffer(size: TerminalSize(columns: 10, rows: 1))
        let end = buffer.write([Span("ab漢字")], column: 0, row: 0, limit: 5)
        #expect(end == 4)
        #expect(buffer[4, 0] == .blank)
    }

    @Test func rendererDrawsWideCharactersOnceAndKeepsTheCursorRight() {
        let size = TerminalSize(columns: 8, rows: 2)
        var first = ScreenBuffer(size: size)
        first.write("名前ann", column: 0, row: 0)
        first.write("🙂x", column: 2, row: 1)
        var terminal = TinyTerminal(size: size)
        terminal.replay(FrameRenderer.frameDiff(from: nil, to: first))
        #expect(terminal.screen == first)
        // Narrow text over the wide characters, and wide over narrow.
        var second = first
        second.write("ab", column: 1, row: 0)
        second.write("字", column: 5, row: 0)
        terminal.replay(FrameRenderer.frameDiff(from: first, to: second))
        #expect(!terminal.unsupported)
        #expect(terminal.screen == second)
        #expect(second.textLines[0].hasPrefix(" ab "))
    }

    @Test(arguments: [UInt64(1), 7, 99])
    func randomWideAndNarrowEditsReplayExactly(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let size = TerminalSize(columns: 12, rows: 3)
        let pieces = ["a", "漢", "b", "🙂", "e\u{301}", "字字", "  ", "x"]
        var terminal = TinyTerminal(size: size)
        var previous: ScreenBuffer?
        var frame = ScreenBuffer(size: size)
        for step in 0..<40 {
            let text = pieces[generator.uniform(below: pieces.count)]
            frame.write(text, column: generator.uniform(below: size.columns), row: generator.uniform(below: size.rows))
            terminal.replay(FrameRenderer.frameDiff(from: previous, to: frame))
            #expect(terminal.screen == frame, "seed \(seed) step \(step)")
            previous = frame
        }
    }
}

/// Issue 32 item 13: characters wider than two cells (👍🏽 is four in tmux) take as many cells in
/// the buffer, and the renderer's cursor follows the terminal's over them.
@Suite struct WiderThanTwoTests {
    @Test func aFourWideCharacterTakesFourCellsAndOverwritingOneBlanksTheRest() {
        var buffer = ScreenBuffer(size: TerminalSize(columns: 8, rows: 1))
        buffer.write("a\u{1F44D}\u{1F3FD}b", column: 0, row: 0)
        #expect(buffer[1, 0].character == "\u{1F44D}\u{1F3FD}")
        #expect((2...4).allSatisfy { buffer[$0, 0].isWideTail })
        #expect(buffer[5, 0].character == "b")
        buffer.put("x", column: 3, row: 0)
        #expect(buffer.textLines == ["a  x b  "])
        #expect(!(0..<8).contains { buffer[$0, 0].isWideTail })
    }

    @Test(arguments: [UInt64(2), 8, 100])
    func randomEditsWithWideClustersReplayExactly(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let size = TerminalSize(columns: 12, rows: 3)
        let pieces = ["a", "\u{1F44D}\u{1F3FD}", "\u{915}\u{93E}", "漢", "x\u{1F44D}\u{1F3FD}y", "  "]
        var terminal = TinyTerminal(size: size)
        var previous: ScreenBuffer?
        var frame = ScreenBuffer(size: size)
        for step in 0..<40 {
            let text = pieces[generator.uniform(below: pieces.count)]
            frame.write(text, column: generator.uniform(below: size.columns), row: generator.uniform(below: size.rows))
            terminal.replay(FrameRenderer.frameDiff(from: previous, to: frame))
            #expect(terminal.screen == frame, "seed \(seed) step \(step)")
            previous = frame
        }
    }
}

@Suite struct ServerTextOnScreenTests {
    @Test func escapeSequencesLoseTheirControlCharacters() {
        let hostile = "bad\u{1B}]2;pwned\u{07}\u{1B}]52;c;ZWNobw==\u{07} token"
        let clean = ServerText.printable(hostile)
        #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(clean == "bad]2;pwned]52;c;ZWNobw== token")
    }

    @Test func c1ControlsDelAndBidiOverridesAreRemoved() {
        #expect(ServerText.printable("a\u{9B}31mb\u{7F}c") == "a31mbc")
        #expect(ServerText.printable("ann\u{202E}nib.exe\u{2066}") == "annnib.exe")
    }

    @Test func aHostileNameOnTheScreenCannotReachTheTerminalAsControls() {
        var buffer = ScreenBuffer(size: TerminalSize(columns: 12, rows: 1))
        buffer.write([Span("a\u{1B}]2;x\u{07}\u{202E}b")], column: 0, row: 0)
        let output = FrameRenderer.frameDiff(from: ScreenBuffer(size: buffer.size), to: buffer)
        #expect(!output.unicodeScalars.contains { $0.value == 0x07 || $0.value == 0x202E })
        #expect(output.components(separatedBy: "\u{1B}]").count == 1, "no OSC sequence is written")
    }

    @Test func lineBreaksAndTabsBecomeSpacesAndTextIsKept() {
        #expect(ServerText.printable("one\ntwo\tthree\r") == "one two three ")
        #expect(ServerText.printable("漢字 👩‍👩‍👧 é") == "漢字 👩‍👩‍👧 é")
    }
}
