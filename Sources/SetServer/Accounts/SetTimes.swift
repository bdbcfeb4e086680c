/// An account's set times, for the best and the median: the best exact, and every time kept
/// in one byte, in tenths of a second, since 100,000 accounts' 25 million sets must fit in
/// memory; the rare set slower than 25.4 s is kept exact beside them. The median is therefore
/// to the tenth of a second below 25.4 s, as precise as any display of it.
struct SetTimes: Equatable {
    /// Times under 25.45 s, in tenths of a second.
    private(set) var tenths: [UInt8] = []
    /// Slower times, in milliseconds.
    private(set) var slow: [Int32] = []
    /// The fastest set in milliseconds, exact; -1: none yet.
    private(set) var bestMs = -1

    init() {}

    /// Rebuilds a list a snapshot kept.
    init(tenths: [UInt8], slow: [Int32], bestMs: Int) {
        self.tenths = tenths
        self.slow = slow
        self.bestMs = bestMs
    }

    var count: Int { tenths.count + slow.count }

    mutating func add(_ milliseconds: [Int]) {
        tenths.reserveGently(milliseconds.count)
        for value in milliseconds {
            let ms = max(0, value)
            let rounded = (ms + 50) / 100
            if rounded < 255 { tenths.append(UInt8(rounded)) } else { slow.append(Int32(clamping: ms)) }
            if bestMs < 0 || ms < bestMs { bestMs = ms }
        }
    }

    /// The fastest set, nil before any.
    var best: Int? { bestMs < 0 ? nil : bestMs }

    /// The median (the upper one of an even count), in milliseconds; nil before any set. Every
    /// kept tenth is faster than every slow time, so the rank falls in one list or the other.
    var median: Int? {
        guard count > 0 else { return nil }
        let rank = count / 2
        guard rank < tenths.count else { return Int(slow.sorted()[rank - tenths.count]) }
        var counts = [Int](repeating: 0, count: 256)
        for value in tenths { counts[Int(value)] += 1 }
        var seen = 0
        for (value, count) in counts.enumerated() {
            seen += count
            if seen > rank { return value * 100 }
        }
        return nil
    }
}
