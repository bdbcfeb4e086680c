import Testing
@testable import SetScreen

@Suite struct CardLabelsTests {
    @Test func upTo52CardsGetDistinctSingleKeys() {
        let labels = CardLabels(count: 52)
        let all = (0..<52).compactMap { labels.label(for: $0) }
        #expect(all.count == 52 && Swift.Set(all).count == 52)
        #expect(all.allSatisfy { $0.count == 1 })
        #expect(labels.label(for: 0) == "1" && labels.label(for: 9) == "0" && labels.label(for: 10) == "a")
        #expect(labels.label(for: 11) == "b" && labels.label(for: 12) == "e" && labels.label(for: 26) == "A")
        #expect(labels.label(for: 52) == nil && labels.label(for: -1) == nil)
        for i in 0..<52 { #expect(labels.match(labels.label(for: i)!) == .card(i)) }
        #expect(!labels.usesTwoKeys && CardLabels(count: 53).usesTwoKeys)
    }

    @Test func commandKeysNeverLabelACard() {
        let labels = (0..<52).compactMap { CardLabels(count: 52).label(for: $0) }
        for key in ["h", "j", "k", "l", "s", "d", "c", "p", "r", "q", " ", "?"] {
            #expect(!labels.contains(key), "\(key) is a command key")
            #expect(CardLabels(count: 52).match(key) == .none)
        }
    }

    @Test func keysBeyondTheTableMatchNothing() {
        let labels = CardLabels(count: 12)
        #expect(labels.match("b") == .card(11))
        #expect(labels.match("e") == .none)
        #expect(labels.match("!") == .none)
        #expect(labels.match("12") == .none)
    }

    @Test func wholeDeckUsesTwoDigitsWithoutPrefixClashes() {
        let labels = CardLabels(count: 81)
        let all = (0..<81).compactMap { labels.label(for: $0) }
        #expect(Swift.Set(all).count == 81 && all.allSatisfy { $0.count == 2 })
        #expect(labels.label(for: 0) == "11" && labels.label(for: 80) == "99")
        for i in 0..<81 {
            let label = labels.label(for: i)!
            #expect(labels.match(String(label.first!)) == .partial)
            #expect(labels.match(label) == .card(i))
        }
        #expect(labels.match("0") == .none)
        #expect(labels.match("a") == .none)
        #expect(CardLabels(count: 70).match("99") == .none)
    }
}
