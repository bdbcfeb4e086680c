import SetRules
import SetWire

/// A solo player's personal records as the client keeps them through a game: the records so far,
/// the game being counted (set times on the local clock, the sets left on each table dealt over),
/// and, once a game is over, the lines its box shows.
struct SoloRecords: Hashable, Sendable {
    var records: PersonalRecords
    var tally = SoloGameTally(score: 0)
    /// When the table last changed (local ms): a set's time runs from there.
    var tableSince: Int64?
    /// The game-over box's lines about the game just counted in; empty while one is played.
    var lines: [String] = []

    init(_ records: PersonalRecords) { self.records = records }

    /// A game begins, or is taken up again after a restart: only what this client sees is counted.
    mutating func begin(at now: Int64) {
        tally = SoloGameTally(score: 0)
        tableSince = now
        lines = []
    }

    /// One event of the player's own solo game.
    mutating func note(_ event: MatchEvent, before: MatchView, at now: Int64) {
        switch event {
        case .setTaken:
            if let since = tableSince { tally.setTimesMs.append(Int(clamping: max(0, now - since))) }
        case .tableChanged(let removed, let added, _, _):
            if removed.isEmpty && !added.isEmpty {
                tally.dealt(over: before.shownFreeTable, chain: before.chain, variant: before.variant)
            }
            tableSince = now
        default: break
        }
    }

    /// The game is over: counts it in and returns the records to keep. Only a game played to its
    /// end counts; a resigned one would hand out a best score nobody earned.
    mutating func finish(_ result: MatchResult) -> PersonalRecords? {
        guard result.reason == .noSetsLeft, lines.isEmpty else { return nil }
        tally.score = result.scores.first ?? 0
        let beaten = records.record(tally)
        lines = records.gameOverLines(tally, beaten: beaten)
        tableSince = nil
        return records
    }
}
