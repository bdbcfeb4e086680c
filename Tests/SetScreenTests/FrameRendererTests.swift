import Testing
import SetRules
@testable import SetScreen

@Suite struct FrameRendererTests {
    static let esc = "\u{1B}"

    static func randomFrame(size: TerminalSize, using generator: inout SplitMix64, density: Double) -> ScreenBuffer {
        let glyphs: [Character] = ["a", "Z", "7", " ", "◆", "█", "╭", "─", "▒", "●"]
        let colours: [TerminalColor] = [.default, .red, .brightCyan, .indexed(160), .indexed(28)]
        var frame = ScreenBuffer(size: size)
        for row in 0..<size.rows {
            for column in 0..<size.columns where generator.unitInterval() < density {
                let style = CellStyle(
                    foreground: colours[generator.uniform(below: colours.count)],
                    background: colours[generator.uniform(below: colours.count)],
                    bold: generator.uniform(below: 2) == 0, dim: generator.uniform(below: 5) == 0,
                    reverse: generator.uniform(below: 7) == 0, underline: generator.uniform(below: 9) == 0)
                frame.put(glyphs[generator.uniform(below: glyphs.count)], column: column, row: row, style: style)
            }
        }
        return frame
    }

    @Test func unchangedFrameGivesEmptyDiff() {
        var generator = SplitMix64(seed: 1)
        let frame = Self.randomFrame(size: TerminalSize(columns: 20, rows: 5), using: &generator, density: 0.5)
        #expect(FrameRenderer.frameDiff(from: frame, to: frame) == "")
    }

    @Test func oneChangedCellGivesOneMoveAndTheCharacter() {
        let old = ScreenBuffer(size: TerminalSize(columns: 10, rows: 4))
        var new = old
        new.put("X", column: 3, row: 2)
        let diff = FrameRenderer.frameDiff(from: old, to: new)
        #expect(diff == "\(Self.esc)[3;4H\(Self.esc)[0mX")
    }

    @Test func adjacentCellsShareOneMoveAndOneStyle() {
        let old = ScreenBuffer(size: TerminalSize(columns: 10, rows: 4))
        var new = old
        new.write("abc", column: 2, row: 1, style: CellStyle(foreground: .red))
        let diff = FrameRenderer.frameDiff(from: old, to: new)
        #expect(diff == "\(Self.esc)[2;3H\(Self.esc)[0;31mabc")
    }

    @Test func styleIsResentOnlyWhenItChanges() {
        let old = ScreenBuffer(size: TerminalSize(columns: 10, rows: 1))
        var new = old
        new.write("ab", column: 0, row: 0, style: CellStyle(bold: true))
        new.write("cd", column: 5, row: 0, style: CellStyle(bold: true))
        new.write("e", column: 7, row: 0, style: CellStyle(underline: true))
        let diff = FrameRenderer.frameDiff(from: old, to: new)
        #expect(diff == "\(Self.esc)[1;1H\(Self.esc)[0;1mab\(Self.esc)[1;6Hcd\(Self.esc)[0;4me")
    }

    @Test func lastColumnForcesAnExplicitMoveToTheNextRow() {
        let old = ScreenBuffer(size: TerminalSize(columns: 3, rows: 2))
        var new = old
        new.write("abc", column: 0, row: 0)
        new.write("d", column: 0, row: 1)
        let diff = FrameRenderer.frameDiff(from: old, to: new)
        #expect(diff == "\(Self.esc)[1;1H\(Self.esc)[0mabc\(Self.esc)[2;1Hd")
    }

    @Test func noOldFrameOrNewSizeRedrawsFromAClearScreen() {
        var frame = ScreenBuffer(size: TerminalSize(columns: 4, rows: 2))
        frame.write("hi", column: 1, row: 1)
        let clear = "\(Self.esc)[0m\(Self.esc)[2J"
        #expect(FrameRenderer.frameDiff(from: nil, to: frame).hasPrefix(clear))
        let other = ScreenBuffer(size: TerminalSize(columns: 5, rows: 2))
        #expect(FrameRenderer.frameDiff(from: other, to: frame).hasPrefix(clear))
        var terminal = TinyTerminal(size: frame.size)
        terminal.screen.write("junk", column: 0, row: 0)
        terminal.replay(FrameRenderer.frameDiff(from: nil, to: frame))
        #expect(terminal.screen == frame)
    }

    @Test(arguments: [UInt64(1), 2, 3, 42, 2024])
    func replayingDiffsReproducesRandomFrames(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let size = TerminalSize(columns: 1 + generator.uniform(below: 30), rows: 1 + generator.uniform(below: 12))
        var terminal = TinyTerminal(size: size)
        var previous: ScreenBuffer? = nil
        for step in 0..<12 {
            var frame = previous ?? ScreenBuffer(size: size)
            // Mix of fresh frames and small edits, the way a game screen changes.
            if step % 4 == 0 {
                frame = Self.randomFrame(size: size, using: &generator, density: 0.6)
            } else {
                let edits = Self.randomFrame(size: size, using: &generator, density: 0.1)
                for row in 0..<size.rows {
                    for column in 0..<size.columns where edits[column, row] != .blank {
                        frame[column, row] = edits[column, row]
                    }
                }
            }
            terminal.replay(FrameRenderer.frameDiff(from: previous, to: frame))
            #expect(!terminal.unsupported)
            #expect(terminal.screen == frame, "seed \(seed) step \(step)")
            previous = frame
        }
    }

    @Test func escapeCodesMatchThePlatformNotes() {
        #expect(EscapeCode.enterAlternateScreen.sequence == "\(Self.esc)[?1049h")
        #expect(EscapeCode.hideCursor.sequence == "\(Self.esc)[?25l")
        #expect(EscapeCode.enableMouse.sequence == "\(Self.esc)[?1000h\(Self.esc)[?1006h")
        #expect(EscapeCode.disableMouse.sequence.contains("\(Self.esc)[?1000l"))
        #expect(EscapeCode.moveCursor(column: 0, row: 0).sequence == "\(Self.esc)[1;1H")
        #expect(EscapeCode.endSession.contains(EscapeCode.showCursor.sequence))
        #expect(EscapeCode.endSession.hasSuffix(EscapeCode.leaveAlternateScreen.sequence))
    }
}
