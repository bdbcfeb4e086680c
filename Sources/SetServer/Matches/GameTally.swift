import SetRules

/// One game's own clock, reset at each deal: when it began, how long each seat was away, and
/// when each of its sets was taken (the accounts keep those with the finished game).
struct GameTally {
    var startedAt: Instant
    /// Milliseconds each seat was away during this game, not counting an absence still going on:
    /// the away time a seat may use is a budget per game (`seatWaitMs`), not per absence.
    var awayUsedMs: [Int64]
    /// This game's sets so far, per seat: when each was taken, since the previous set or the deal.
    var setTimes: [[Int]]
    var lastSetAt: Instant

    init(seats: Int, at now: Instant) {
        startedAt = now
        awayUsedMs = Array(repeating: 0, count: seats)
        setTimes = Array(repeating: [], count: seats)
        lastSetAt = now
    }
}

/// What spectators may learn of the table, and when: a count of its sets reaches them only once
/// no player can use it, at the game's end.
struct TableInsight {
    /// The table spectators may not be told about yet.
    var liveTable: [Card] = []
    /// Set-Chain: the chain the live table was played with, so its count is of chain sets.
    var liveChain: [Card] = []
    /// Once the game is over, how many sets its last table held.
    var retiredSets: Int?
}
