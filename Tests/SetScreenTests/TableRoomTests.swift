import SetRules
import Testing
@testable import SetScreen
import SetWire

/// How much room the table gives its cards as a game goes: the assignments' "freed space goes to
/// the rest" once the deck is empty, and "Deal disabled when there is no room".
@Suite struct TableRoomTests {
    static let standard = TerminalSize(columns: 80, rows: 24)

    static func app(cards: Int, deck: Int, size: TerminalSize = standard, mode: Mode = .duel) -> ClientApp {
        var view = ClientFixtures.view(cards: cards, mode: mode)
        view.deck = deck
        return ClientFixtures.app(view, size: size)
    }

    /// With the deck empty, taken cards free their room for the rest: at 80×24 the last cards grow
    /// from 13×7 (a deal of 12) to 15×8 and larger. While the deck has cards they keep the deal's size.
    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40)])
    func theLastCardsGrowOnceTheDeckIsEmpty(terminal: TerminalSize) throws {
        let dealt = try #require(Self.app(cards: 12, deck: 69, size: terminal).layout.table?.cardSize)
        for count in [3, 6, 9] {
            let drawing = try #require(Self.app(cards: count, deck: 3, size: terminal).layout.table?.cardSize)
            #expect(drawing == dealt, "\(count) cards with 3 in the deck keep the deal's size")
            let last = try #require(Self.app(cards: count, deck: 0, size: terminal).layout.table?.cardSize)
            // Nine cards in three rows of the deal's height may have no room to grow at 120×40.
            #expect(count == 9 ? last >= dealt : last > dealt,
                    "\(count) cards, deck empty: \(last.width)×\(last.height), dealt \(dealt.width)×\(dealt.height)")
        }
        let six = try #require(Self.app(cards: 6, deck: 0).layout.table?.cardSize)
        #expect(six >= CardSize(height: 8) || terminal != Self.standard)
    }

    /// Every size the table grows through keeps the one card shape: width 2h − 1.
    @Test func growingKeepsOneCardShape() throws {
        for count in 1...12 {
            let size = try #require(Self.app(cards: count, deck: 0).layout.table?.cardSize)
            #expect(size.width == 2 * size.height - 1)
        }
    }

    /// At 80×24 a deal is refused once the cards would have to shrink below 9×5: the table once
    /// reached 72 packed 5×3 cards there. 24 (the assignments' "room for 24") and 30 have room.
    @Test func dealIsRefusedBeforeTheCardsTurnIntoGlyphs() throws {
        var twentyOne = Self.app(cards: 21, deck: 60)
        #expect(twentyOne.perform(.deal, at: 0) == [.send(.act(.deal, seat: nil))], "21 → 24")
        let buttons = ClientApp.buttons(for: twentyOne.state)
        func readable(_ count: Int) -> Bool {
            guard let table = ScreenLayout(size: Self.standard, cardCount: count, buttons: buttons, deck: true).table else { return false }
            return table.cardSize >= TableLayout.smallestReadable
        }
        let largest = try #require(stride(from: 3, through: 78, by: 3).filter(readable).max())
        #expect(largest == 30, "9×5 cards hold 30 at 80×24, not \(largest)")
        var fits = Self.app(cards: largest - 3, deck: 81 - largest + 3)
        #expect(fits.perform(.deal, at: 0) == [.send(.act(.deal, seat: nil))], "\(largest - 3) → \(largest)")
        var full = Self.app(cards: largest, deck: 81 - largest)
        #expect(full.perform(.deal, at: 0).isEmpty, "\(largest) → \(largest + 3) would need glyph cards")
        let status = full.compose(at: 1).textLines[1]
        #expect(status.contains("no room for 3 more cards"), "'\(status)'")
        // A table dealt larger elsewhere is still drawn whole, in glyphs.
        #expect(Self.app(cards: largest + 3, deck: 81 - largest - 3).layout.table != nil)
    }

    /// Solo refuses the same way: its "No set here?" deals too.
    @Test func soloRefusesTheSameDeal() {
        var full = Self.app(cards: 48, deck: 33, mode: .solo)
        #expect(full.perform(.deal, at: 0).isEmpty)
        var room = Self.app(cards: 18, deck: 63, mode: .solo)
        #expect(room.perform(.deal, at: 0) == [.send(.act(.deal, seat: nil))])
    }
}
