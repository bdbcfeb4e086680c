import Testing
@testable import SetRules

@Suite struct RuleSettingsTests {
    @Test func theDefaultsAreValid() {
        #expect(RuleSettings.standard.validationProblem() == nil)
    }

    @Test func aSetLosesAPointPerWholeSecondDownToTheFloor() {
        let rules = RuleSettings.standard
        #expect(rules.setPoints(elapsedMs: 0) == 30)
        #expect(rules.setPoints(elapsedMs: 999) == 30)
        #expect(rules.setPoints(elapsedMs: 1_000) == 29)
        #expect(rules.setPoints(elapsedMs: 19_999) == 11)
        #expect(rules.setPoints(elapsedMs: 20_000) == 10)
        #expect(rules.setPoints(elapsedMs: 3_600_000) == 10)
        #expect(rules.setPoints(elapsedMs: -5) == 30)
    }

    @Test func badSettingsAreNamed() {
        var rules = RuleSettings.standard
        rules.claimWindowMs = 0
        #expect(rules.validationProblem()?.hasPrefix("claim-window-ms must be between 1") == true)
        rules = .standard
        rules.dealPenalty = -1
        #expect(rules.validationProblem()?.hasPrefix("deal-penalty must be between 0") == true)
        rules = .standard
        rules.setPointsMin = 40
        #expect(rules.validationProblem() == "set-points-min (40) must not exceed set-points-max (30)")
    }

    @Test func everyKeyHasAFlagAndCanBeSetFromText() {
        #expect(RuleSettings.Key.claimWindowMs.flag == "claim-window-ms")
        #expect(RuleSettings.Key.setPointsLostPerSecond.flag == "set-points-lost-per-second")
        var rules = RuleSettings.standard
        for key in RuleSettings.Key.allCases {
            let text = switch key.value(in: rules) {
            case .milliseconds: "1234"
            case .points: "7"
            case .flag: "on"
            }
            #expect(key.assign(text, to: &rules) == nil)
            let expected: RuleSettings.Value = switch key.value(in: .standard) {
            case .milliseconds: .milliseconds(1234)
            case .points: .points(7)
            case .flag: .flag(true)
            }
            #expect(key.value(in: rules) == expected, "\(key)")
        }
    }

    @Test func textThatIsNotANumberIsRefusedWithTheFlagName() {
        var rules = RuleSettings.standard
        #expect(RuleSettings.Key.dealGraceMs.assign("soon", to: &rules) == "--deal-grace-ms takes a whole number of milliseconds, not 'soon'")
        #expect(RuleSettings.Key.hintsInDuel.assign("maybe", to: &rules) == "--hints-in-duel takes on or off, not 'maybe'")
        #expect(rules == .standard)
    }

    @Test func theRulesTextStatesTheTimingsInForce() {
        var rules = RuleSettings.standard
        rules.claimWindowMs = 3_000
        let text = RulesText.render(rules)
        #expect(text.contains("claim window of 3 s"))
        #expect(text.contains("second chance of 10 s"))
        #expect(text.contains("grace period of 8 s"))
        #expect(text.contains("worth 30 points"))
        #expect(text.contains("Dealing while a set was on the table:  -15"))
        #expect(text.contains("loses it at once, exactly as\n  if they had passed it"))
        #expect(RulesText.render(rules, seatWaitMs: 90_000).contains("away for 90 s in all during one game"))
    }
}
