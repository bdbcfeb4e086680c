/// One finished solo game, as the personal records count it: what the player's client saw.
package struct SoloGameTally: Hashable, Sendable {
    /// The final score.
    package var score: Int
    /// Milliseconds each taken set took, from the table changing to the set being taken.
    package var setTimesMs: [Int]
    /// The sets (ultras, chain sets) that were on the table when the player dealt, deal by deal.
    package var missedSets: [[Card]]

    package init(score: Int, setTimesMs: [Int] = [], missedSets: [[Card]] = []) {
        self.score = score
        self.setTimesMs = setTimesMs
        self.missedSets = missedSets
    }

    /// The player dealt over `table`: every valid pick on it (by the variant's own rule, so a
    /// Set-Chain table counts only the sets that use one chain card) was missed.
    package mutating func dealt(over table: [Card], chain: [Card] = [], variant: Variant = .classic) {
        missedSets += variant.combinations(table: table, chain: chain)
    }
}

/// A player's records over their solo games: best score, fastest set, and seconds per set.
package struct PersonalRecords: Hashable, Sendable {
    package var games = 0
    package var bestScore: Int?
    package var fastestSetMs: Int?
    package var setsTaken = 0
    /// All taken sets' times added up, for the average.
    package var setTimeTotalMs = 0

    package init() {}

    /// What a game beat, for the game-over box to cheer.
    package struct Beaten: Hashable, Sendable {
        package var bestScore = false
        package var fastestSet = false
    }

    /// Counts a finished game in and says which records it beat (a first game beats none).
    @discardableResult
    package mutating func record(_ game: SoloGameTally) -> Beaten {
        var beaten = Beaten()
        if let best = bestScore { beaten.bestScore = game.score > best }
        if let fastest = fastestSetMs, let quickest = game.setTimesMs.min() { beaten.fastestSet = quickest < fastest }
        games += 1
        bestScore = max(bestScore ?? game.score, game.score)
        if let quickest = game.setTimesMs.min() { fastestSetMs = min(fastestSetMs ?? quickest, quickest) }
        setsTaken += game.setTimesMs.count
        setTimeTotalMs &+= game.setTimesMs.reduce(0) { $0 &+ max(0, $1) }
        return beaten
    }

    /// Average seconds per taken set, over every game; nil before any set.
    package var secondsPerSet: Double? { setsTaken == 0 ? nil : Double(setTimeTotalMs) / Double(setsTaken) / 1_000 }

    /// The game-over lines of a solo game just counted in: the records, what it beat, and the
    /// sets missed before dealing.
    package func gameOverLines(_ game: SoloGameTally, beaten: Beaten) -> [String] {
        var lines: [String] = []
        if let best = bestScore { lines.append("best score \(best)" + (beaten.bestScore ? " (new record!)" : "")) }
        var pace: [String] = []
        if let fastest = fastestSetMs { pace.append("fastest set \(Self.seconds(fastest)) s" + (beaten.fastestSet ? " (new record!)" : "")) }
        if let perSet = secondsPerSet { pace.append("\(Self.seconds(Int((perSet * 1_000).rounded()))) s a set") }
        if !pace.isEmpty { lines.append(pace.joined(separator: " · ")) }
        let missed = game.missedSets.count
        lines.append(missed == 0 ? "no set missed before dealing"
                                 : "\(missed) set\(missed == 1 ? "" : "s") missed before dealing")
        return lines
    }

    /// Milliseconds as seconds with one decimal: 2150 → "2.2".
    static func seconds(_ ms: Int) -> String {
        let tenths = (max(0, ms) + 50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }
}
