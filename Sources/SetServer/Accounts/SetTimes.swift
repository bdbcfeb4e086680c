/// An account's set times, for the best and the median: the best exact, every time kept in
/// hundredths of a second (two bytes each), since 100,000 accounts' 25 million sets must fit in
/// memory. The median is therefore to 10 ms, finer than any display of it (tenths of seconds).
struct SetTimes: Equatable {
    /// Every set's time in hundredths of a second, capped at 655.35 s.
    private(set) var centiseconds: [UInt16] = []
    /// The fastest set in milliseconds, exact; -1: none yet.
    private(set) var bestMs = -1

    init() {}

    /// Rebuilds a list a snapshot kept.
    init(centiseconds: [UInt16], bestMs: Int) {
        self.centiseconds = centiseconds
        self.bestMs = bestMs
    }

    var count: Int { centiseconds.count }

    mutating func add(_ milliseconds: [Int]) {
        for ms in milliseconds {
            centiseconds.append(UInt16(clamping: (max(0, ms) + 5) / 10))
            if bestMs < 0 || ms < bestMs { bestMs = max(0, ms) }
        }
    }

    /// The fastest set, nil before any.
    var best: Int? { bestMs < 0 ? nil : bestMs }

    /// The median (the upper one of an even count, as before), in milliseconds; nil before any set.
    var median: Int? {
        guard !centiseconds.isEmpty else { return nil }
        let rank = centiseconds.count / 2
        // A bot's million sets are counted, not sorted: the answer stays well under a millisecond.
        guard centiseconds.count > 4096 else { return Int(centiseconds.sorted()[rank]) * 10 }
        var counts = [Int](repeating: 0, count: 65_536)
        for value in centiseconds { counts[Int(value)] += 1 }
        var seen = 0
        for (value, count) in counts.enumerated() {
            seen += count
            if seen > rank { return value * 10 }
        }
        return nil
    }
}
