import Testing
@testable import SetScreen

@Suite struct TerminalSizeTests {
    @Test func sizesCompareByBothDimensions() {
        #expect(TerminalSize(columns: 80, rows: 24) == TerminalSize(columns: 80, rows: 24))
        #expect(TerminalSize(columns: 80, rows: 24) != TerminalSize(columns: 24, rows: 80))
    }

    /// A far end claiming an enormous terminal (the ssh door's client may say anything up to
    /// 65,535 × 65,535) gets a screen of at most `largestDrawn` cells, so it cannot make a
    /// process hold gigabytes; a real terminal's size is drawn as it is.
    @Test func aMadeUpSizeIsDrawnAtTheLargestAtMost() {
        #expect(TerminalSize.drawn(columns: 65_535, rows: 65_535) == TerminalSize.largestDrawn)
        #expect(TerminalSize.drawn(columns: 6_000, rows: 30) == TerminalSize(columns: 600, rows: 30))
        #expect(TerminalSize.drawn(columns: 132, rows: 43) == TerminalSize(columns: 132, rows: 43))
        #expect(TerminalSize.drawn(columns: 0, rows: 0) == TerminalSize(columns: 80, rows: 24))
        let frame = DoorMenu(name: "key-2Jrayl", levels: ["easy"]).render(size: .drawn(columns: 65_535, rows: 65_535))
        #expect(frame.size == TerminalSize.largestDrawn)
    }
}
