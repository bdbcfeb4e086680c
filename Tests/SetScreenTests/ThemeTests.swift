import Testing
import SetRules
@testable import SetScreen

@Suite struct ThemeTests {
    @Test func noColorFollowsTheConvention() {
        #expect(Theme.from(environment: [:]).usesColor)
        #expect(!Theme.from(environment: ["NO_COLOR": "1"]).usesColor)
        #expect(Theme.from(environment: ["NO_COLOR": ""]).usesColor)
        #expect(Theme.from(environment: ["NO_COLOR": "1"]).showsColourLetters)
        #expect(Theme.from(environment: [:], colorblind: true).showsColourLetters)
        #expect(!Theme.standard.showsColourLetters)
    }

    @Test func inksAndLettersAreDistinct() {
        let inks = Colour.allCases.map { Theme.standard.ink(for: $0) }
        #expect(Swift.Set(inks).count == 3)
        #expect(Colour.allCases.map(Theme.letter(for:)) == ["R", "G", "P"])
        #expect(Colour.allCases.allSatisfy { Theme.noColor.ink(for: $0) == .plain })
    }

    @Test func everyAppearanceDiffersByLinesOrMark() {
        let theme = Theme.noColor
        let looks = CardAppearance.allCases.filter { $0 != .faceDown }.map {
            "\(theme.borderLines(for: $0))\(theme.mark(for: $0).map { String($0) } ?? "")"
        }
        #expect(Swift.Set(looks).count == looks.count)
    }
}
