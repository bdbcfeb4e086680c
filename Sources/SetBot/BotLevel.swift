import Foundation
import SetRules

/// How well a bot plays. Each level is a human-like reaction model: how long it takes to see a
/// set, how fast it picks cards, and how often it claims wrongly.
package enum BotLevel: String, CaseIterable, Sendable {
    case easy, normal, hard
    /// No delays and no mistakes: for tests and load.
    case instant

    /// Mean time to spot a set when the table holds exactly one, in milliseconds.
    var oneSetMeanMs: Double {
        switch self {
        case .easy: 14_000
        case .normal: 7_000
        case .hard: 3_500
        case .instant: 0
        }
    }

    /// Spread of the log-normal reaction time (the σ of its logarithm).
    var sigma: Double {
        switch self {
        case .easy: 0.55
        case .normal: 0.45
        case .hard: 0.35
        case .instant: 0
        }
    }

    /// Time between picking the cards of a trio once it is seen.
    var pickIntervalMs: Int64 {
        switch self {
        case .easy: 700
        case .normal: 450
        case .hard: 250
        case .instant: 0
        }
    }

    /// The chance that what the bot "sees" is not a set after all.
    var wrongClaimChance: Double {
        switch self {
        case .easy: 0.12
        case .normal: 0.05
        case .hard: 0.01
        case .instant: 0
        }
    }
}

/// When a bot reacts: a log-normal delay whose mean shrinks as more sets lie on the table,
/// like a person who finds one of several sets sooner than the only one.
package struct ReactionModel: Sendable {
    package let level: BotLevel

    package init(level: BotLevel) { self.level = level }

    /// The mean delay before the bot acts on a table with `sets` sets; with none, the time it
    /// takes to be sure there is none (longer than finding one).
    package func meanMs(sets: Int) -> Double {
        sets == 0 ? level.oneSetMeanMs * 1.6 : level.oneSetMeanMs / Double(sets).squareRoot()
    }

    /// The standard deviation of that delay: a log-normal's is proportional to its mean.
    package func standardDeviationMs(sets: Int) -> Double {
        meanMs(sets: sets) * (exp(level.sigma * level.sigma) - 1).squareRoot()
    }

    /// One delay drawn from the model.
    package func delayMs(sets: Int, using generator: inout SplitMix64) -> Int64 {
        let mean = meanMs(sets: sets)
        guard mean > 0 else { return 0 }
        let sigma = level.sigma
        // Box–Muller: two uniforms make one standard normal.
        let u1 = max(generator.unitInterval(), .leastNonzeroMagnitude), u2 = generator.unitInterval()
        let z = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
        let mu = log(mean) - sigma * sigma / 2
        return Int64(exp(mu + sigma * z).rounded())
    }
}
