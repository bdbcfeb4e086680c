/// Every duration and point value of the game, in one validated value. Durations are milliseconds.
package struct RuleSettings: Hashable, Sendable {
    /// How long a duel claimant has to pick three cards after calling "Set!".
    package var claimWindowMs: Int64 = 5_000
    /// The opponent's exclusive window after a failed or expired claim; longer than a claim, since
    /// they must find a set from a standing start.
    package var secondChanceMs: Int64 = 10_000
    /// After a deal, the other player's window to pick a set at no risk.
    package var dealGraceMs: Int64 = 8_000
    /// Points for a set taken at once after the table changed.
    package var setPointsMax: Int = 30
    /// The floor a set's points decay to.
    package var setPointsMin: Int = 10
    /// Points a set loses per whole second the table stood unchanged.
    package var setPointsLostPerSecond: Int = 1
    /// Penalty for three cards that are not a set.
    package var wrongSetPenalty: Int = 10
    /// Penalty for letting a claim window run out, or passing it.
    package var claimTimeoutPenalty: Int = 10
    /// Penalty for asking to deal while a set was on the table.
    package var dealPenalty: Int = 15
    /// What a hint costs.
    package var hintCost: Int = 15
    /// Whether a duel allows hints at all (solo always does).
    package var hintsInDuel: Bool = false

    package init() {}

    /// The default rules.
    package static let standard = RuleSettings()

    /// Points for a set taken `elapsedMs` after the table last changed.
    package func setPoints(elapsedMs: Int64) -> Int {
        let secondsStood = Int(max(0, elapsedMs) / 1000)
        return max(setPointsMin, setPointsMax - secondsStood * setPointsLostPerSecond)
    }

    /// The longest any duration setting may be: ten minutes.
    package static let longestDurationMs: Int64 = 600_000

    /// Why these settings cannot be played with, or nil when they are fine.
    package func validationProblem() -> String? {
        let tenMinutes = Self.longestDurationMs
        for key in Key.allCases {
            switch key.value(in: self) {
            case .milliseconds(let ms) where ms <= 0 || ms > tenMinutes:
                return "\(key.flag) must be between 1 and \(tenMinutes) milliseconds, not \(ms)"
            case .points(let points) where points < 0 || points > 1_000:
                return "\(key.flag) must be between 0 and 1000 points, not \(points)"
            default: continue
            }
        }
        if setPointsMin > setPointsMax {
            return "set-points-min (\(setPointsMin)) must not exceed set-points-max (\(setPointsMax))"
        }
        return nil
    }
}
