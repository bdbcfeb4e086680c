import Testing
@testable import SetScreen

@Suite struct TerminalSizeTests {
    @Test func sizesCompareByBothDimensions() {
        #expect(TerminalSize(columns: 80, rows: 24) == TerminalSize(columns: 80, rows: 24))
        #expect(TerminalSize(columns: 80, rows: 24) != TerminalSize(columns: 24, rows: 80))
    }
}
