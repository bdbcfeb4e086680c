import Testing
@testable import SetRules

@Suite struct CardTests {
    @Test func thereAre81DistinctCardsWithIds0To80() {
        #expect(Card.all.count == 81)
        #expect(Swift.Set(Card.all).count == 81)
        #expect(Card.all.map(\.id) == Array(0..<81))
        for card in Card.all { #expect(Card(id: card.id) == card) }
    }

    @Test func idsOutsideTheDeckAreRejected() {
        #expect(Card(id: -1) == nil)
        #expect(Card(id: 81) == nil)
    }

    @Test func namesReadNaturallyAndParseBack() {
        #expect(Card(.two, .striped, .green, .diamond).name == "2 striped green diamonds")
        #expect(Card(.one, .open, .purple, .oval).name == "1 open purple oval")
        #expect(Swift.Set(Card.all.map(\.name)).count == 81)
        for card in Card.all { #expect(Card(name: card.name) == card) }
    }

    @Test func nameParsingForgivesCaseSpacingAndNumberAgreement() {
        #expect(Card(name: "  3 SOLID red   oval ") == Card(.three, .solid, .red, .oval))
        #expect(Card(name: "1 open green squiggles") == Card(.one, .open, .green, .squiggle))
    }

    @Test(arguments: ["", "4 solid red ovals", "0 solid red ovals", "2 dotted red ovals",
                      "2 solid blue ovals", "2 solid red circles", "two solid red ovals", "2 solid red ovals extra"])
    func nonsenseNamesAreRejected(_ name: String) {
        #expect(Card(name: name) == nil)
    }

    @Test func theIdIsTheFeaturesAsBase3Digits() {
        let card = Card(.three, .striped, .purple, .oval)
        #expect(card.id == 2 * 27 + 2 * 9 + 1 * 3 + 2)
    }
}
