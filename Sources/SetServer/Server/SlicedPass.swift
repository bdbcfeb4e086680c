/// Visits every key of a collection that changes as it goes, a slice per turn, so that work once
/// done for all of them in one turn (a second's stall of the loop for every connection at once)
/// is spread over `turnsPerPass` turns. A pass walks the keys there were when it began: a key
/// added since waits for the next pass, and one removed since is skipped by the caller when it no
/// longer finds it.
struct SlicedPass<Key> {
    let turnsPerPass: Int
    private var keys: [Key] = []
    private var next = 0

    init(turnsPerPass: Int) {
        precondition(turnsPerPass > 0, "a pass takes at least one turn")
        self.turnsPerPass = turnsPerPass
    }

    /// The keys due this turn; a new pass begins with `current()` once the last one is done.
    mutating func slice(of current: () -> [Key]) -> ArraySlice<Key> {
        if next >= keys.count {
            keys = current()
            next = 0
        }
        // Rounded up, so a pass never takes more than its turns.
        let size = (keys.count + turnsPerPass - 1) / turnsPerPass
        let end = min(keys.count, next + size)
        defer { next = end }
        return keys[next..<end]
    }
}
