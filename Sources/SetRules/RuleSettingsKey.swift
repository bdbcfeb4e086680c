extension RuleSettings {
    /// The value of one setting, typed by what it measures.
    package enum Value: Hashable, Sendable {
        case milliseconds(Int64)
        case points(Int)
        case flag(Bool)
    }

    /// Each setting by name, so the command line, the rules text and the wire share one list.
    package enum Key: String, CaseIterable, Sendable {
        case claimWindowMs, secondChanceMs, dealGraceMs
        case setPointsMax, setPointsMin, setPointsLostPerSecond
        case wrongSetPenalty, claimTimeoutPenalty, dealPenalty, hintCost, hintsInDuel

        /// The command-line spelling, e.g. `claim-window-ms`.
        package var flag: String {
            rawValue.reduce(into: "") { result, character in
                if character.isUppercase { result += "-" + character.lowercased() } else { result.append(character) }
            }
        }

        /// One line saying what the setting means.
        package var summary: String {
            switch self {
            case .claimWindowMs: "time a duel claimant has to pick three cards"
            case .secondChanceMs: "the opponent's window after a failed or expired claim"
            case .dealGraceMs: "the other player's risk-free window after a deal"
            case .setPointsMax: "points for a set taken the moment the table changed"
            case .setPointsMin: "the least a set is worth, however long it took"
            case .setPointsLostPerSecond: "points a set loses per second the table stood"
            case .wrongSetPenalty: "penalty for three cards that are not a set"
            case .claimTimeoutPenalty: "penalty for letting a claim window run out or passing it"
            case .dealPenalty: "penalty for dealing while a set was on the table"
            case .hintCost: "cost of a hint"
            case .hintsInDuel: "whether a duel allows hints (solo always does)"
            }
        }

        package func value(in settings: RuleSettings) -> Value {
            switch self {
            case .claimWindowMs: .milliseconds(settings.claimWindowMs)
            case .secondChanceMs: .milliseconds(settings.secondChanceMs)
            case .dealGraceMs: .milliseconds(settings.dealGraceMs)
            case .setPointsMax: .points(settings.setPointsMax)
            case .setPointsMin: .points(settings.setPointsMin)
            case .setPointsLostPerSecond: .points(settings.setPointsLostPerSecond)
            case .wrongSetPenalty: .points(settings.wrongSetPenalty)
            case .claimTimeoutPenalty: .points(settings.claimTimeoutPenalty)
            case .dealPenalty: .points(settings.dealPenalty)
            case .hintCost: .points(settings.hintCost)
            case .hintsInDuel: .flag(settings.hintsInDuel)
            }
        }

        /// Sets this key from text, returning a readable problem when the text does not fit.
        package func assign(_ text: String, to settings: inout RuleSettings) -> String? {
            switch value(in: settings) {
            case .milliseconds:
                guard let ms = Int64(text) else { return "--\(flag) takes a whole number of milliseconds, not '\(text)'" }
                switch self {
                case .claimWindowMs: settings.claimWindowMs = ms
                case .secondChanceMs: settings.secondChanceMs = ms
                default: settings.dealGraceMs = ms
                }
            case .points:
                guard let points = Int(text) else { return "--\(flag) takes a whole number of points, not '\(text)'" }
                switch self {
                case .setPointsMax: settings.setPointsMax = points
                case .setPointsMin: settings.setPointsMin = points
                case .setPointsLostPerSecond: settings.setPointsLostPerSecond = points
                case .wrongSetPenalty: settings.wrongSetPenalty = points
                case .claimTimeoutPenalty: settings.claimTimeoutPenalty = points
                case .dealPenalty: settings.dealPenalty = points
                default: settings.hintCost = points
                }
            case .flag:
                guard let on = ["true": true, "on": true, "yes": true, "false": false, "off": false, "no": false][text.lowercased()]
                else { return "--\(flag) takes on or off, not '\(text)'" }
                settings.hintsInDuel = on
            }
            return nil
        }
    }
}
