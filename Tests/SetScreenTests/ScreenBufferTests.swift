import Testing
@testable import SetScreen

@Suite struct ScreenBufferTests {
    let size = TerminalSize(columns: 6, rows: 3)

    @Test func newBufferIsBlank() {
        let buffer = ScreenBuffer(size: size)
        #expect(buffer.textLines == ["      ", "      ", "      "])
        #expect(buffer.cell(column: 0, row: 0) == .blank)
    }

    @Test func writeClipsAtEveryEdgeWithoutTrapping() {
        var buffer = ScreenBuffer(size: size)
        buffer.write("abcdefgh", column: 3, row: 0)
        buffer.write("xyz", column: -2, row: 1)
        buffer.write("nope", column: 0, row: -1)
        buffer.write("nope", column: 0, row: 3)
        buffer.write("nope", column: 99, row: 2)
        buffer.put("!", column: -1, row: -1)
        buffer.put("!", column: 6, row: 0)
        #expect(buffer.textLines == ["   abc", "z     ", "      "])
    }

    @Test func writeKeepsStyleAndReplacesControls() {
        var buffer = ScreenBuffer(size: size)
        let red = CellStyle(foreground: .red, bold: true)
        buffer.write("a\u{1B}b", column: 0, row: 0, style: red)
        #expect(buffer.textLines[0] == "a b   ")
        #expect(buffer[0, 0].style == red)
        #expect(buffer[1, 0].style == red)
    }

    @Test func outOfRangeReadsAreBlankAndCellIsNil() {
        let buffer = ScreenBuffer(size: size)
        #expect(buffer[-1, 0] == .blank)
        #expect(buffer.cell(column: 6, row: 0) == nil)
        #expect(buffer.cell(column: 0, row: 3) == nil)
    }

    @Test func fillClipsToTheGrid() {
        var buffer = ScreenBuffer(size: size)
        buffer.fill(Rect(column: 4, row: 1, width: 10, height: 10), with: "#")
        #expect(buffer.textLines == ["      ", "    ##", "    ##"])
    }

    @Test func roundedBoxHasCornersAndEdges() {
        var buffer = ScreenBuffer(size: size)
        buffer.drawBox(Rect(column: 0, row: 0, width: 5, height: 3))
        #expect(buffer.textLines == ["╭───╮ ", "│   │ ", "╰───╯ "])
    }

    @Test func boxLineSetsAreDistinct() {
        var seen: [String] = []
        for lines in BoxLines.allCases {
            var buffer = ScreenBuffer(size: size)
            buffer.drawBox(Rect(column: 0, row: 0, width: 3, height: 3), lines: lines)
            seen.append(buffer.textLines.joined())
        }
        #expect(Swift.Set(seen).count == BoxLines.allCases.count)
    }

    @Test func boxPartlyOutsideDrawsOnlyTheVisiblePart() {
        var buffer = ScreenBuffer(size: size)
        buffer.drawBox(Rect(column: 3, row: -1, width: 5, height: 3))
        #expect(buffer.textLines == ["   │  ", "   ╰──", "      "])
    }

    @Test func negativeSizeGivesEmptyGrid() {
        var buffer = ScreenBuffer(size: TerminalSize(columns: -3, rows: 2))
        buffer.write("x", column: 0, row: 0)
        #expect(buffer.size == TerminalSize(columns: 0, rows: 2))
        #expect(buffer.textLines == ["", ""])
    }

    @Test func rectGeometry() {
        let a = Rect(column: 0, row: 0, width: 4, height: 4)
        let b = Rect(column: 3, row: 3, width: 4, height: 4)
        let c = Rect(column: 4, row: 0, width: 2, height: 2)
        #expect(a.intersection(b) == Rect(column: 3, row: 3, width: 1, height: 1))
        #expect(a.intersects(b))
        #expect(!a.intersects(c))
        #expect(a.contains(Rect(column: 1, row: 1, width: 3, height: 3)))
        #expect(!a.contains(b))
        #expect(a.insetBy(1) == Rect(column: 1, row: 1, width: 2, height: 2))
    }

    @Test func colourParameters() {
        #expect(TerminalColor.red.foregroundParameters == "31")
        #expect(TerminalColor.brightWhite.backgroundParameters == "107")
        #expect(TerminalColor.indexed(160).foregroundParameters == "38;5;160")
        #expect(TerminalColor.default.backgroundParameters == "49")
        #expect(CellStyle(foreground: .green, bold: true, reverse: true).sgr == "\u{1B}[0;1;7;32m")
        #expect(CellStyle.plain.sgr == "\u{1B}[0m")
    }
}
