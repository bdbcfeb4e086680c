import Testing
@testable import SetCLI

@Suite struct CardsCommandTests {
    @Test func cardsTakesASizeAndTheColourLetters() throws {
        #expect(try Commands.parse(["cards"]) == .cards(CardsOptions()))
        #expect(try Commands.parse(["cards", "--size", "80x24"]) == .cards(CardsOptions(columns: 80, rows: 24)))
        #expect(try Commands.parse(["cards", "--size=120×40", "--colorblind"])
            == .cards(CardsOptions(columns: 120, rows: 40, colorblind: true)))
        #expect(try Commands.parse(["cards", "--help"]) == .help(Commands.cards))
    }

    @Test(arguments: ["80", "80x", "x24", "80x24x2", "19x24", "80x5", "eightyxtwenty", "-80x24"])
    func badSizesAreUsageErrors(size: String) {
        let message = "--size takes COLUMNSxROWS from 20x6 to 1000x1000, such as 80x24, not '\(size)'"
        #expect(throws: UsageError(message, command: "cards")) { try Commands.parse(["cards", "--size", size]) }
    }

    @Test func helpAndTheOverviewListTheCommand() {
        let overview = HelpText.overview(Commands.all, version: Commands.version)
        #expect(overview.contains("  cards        Print all 81 cards as they are drawn on a table of 12"))
        let help = HelpText.help(for: Commands.cards)
        #expect(help.hasPrefix("usage: setgame cards [options]\n"))
        #expect(help.contains("  --size WxH    the terminal size to draw for, e.g. 80x24 (default: this terminal)"))
        #expect(help.contains("  --colorblind  also show each card's colour as a letter"))
    }
}
