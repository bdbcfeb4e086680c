/// How one arena game ended for one player.
package enum ArenaOutcome: String, Hashable, Sendable, CaseIterable {
    case win, draw, loss
}

/// A player's points in an arena: lichess's Arena scoring, for Set.
///
/// A win 2, a draw 1, a loss 0; after two wins in a row the player is on fire: each further win
/// counts 4 and a draw 2, until a game is not won.
package struct ArenaRecord: Hashable, Sendable {
    package private(set) var score = 0
    package private(set) var games = 0
    package private(set) var wins = 0
    /// Wins in a row now (0 after a draw or a loss).
    package private(set) var streak = 0

    package init() {}

    /// Whether the next win counts double.
    package var fire: Bool { streak >= 2 }

    /// What `outcome` would be worth now.
    package func points(for outcome: ArenaOutcome) -> Int {
        let base = switch outcome {
        case .win: 2
        case .draw: 1
        case .loss: 0
        }
        return fire ? base * 2 : base
    }

    /// Counts one finished game; returns the points it earned.
    @discardableResult
    package mutating func record(_ outcome: ArenaOutcome) -> Int {
        let earned = points(for: outcome)
        score += earned
        games += 1
        if outcome == .win {
            wins += 1
            streak += 1
        } else {
            streak = 0
        }
        return earned
    }
}
