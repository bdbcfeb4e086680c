extension Array {
    /// Makes room for `extra` more elements by an eighth more than needed, not by doubling: a
    /// hundred thousand accounts' lists of games and set times, read back at their exact sizes
    /// from a snapshot, would otherwise each double at their next game, and together hold half
    /// again what they use.
    mutating func reserveGently(_ extra: Int) {
        let needed = count + extra
        guard needed > capacity else { return }
        reserveCapacity(needed + needed / 8)
    }
}
