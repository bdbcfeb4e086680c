import SetRules

/// A min-heap of (deadline, key). Entries are never removed early: the owner checks, when one
/// comes due, whether the key still has that deadline, and re-adds keys whose deadline moved.
///
/// The deadlines and the keys are two arrays kept in the same heap order, and what is due is
/// handed to a closure rather than returned in an array of pairs. The server's module calls this
/// code unspecialized, and a labelled pair's type metadata was looked up on every call: on an
/// idle server a fifth of each turn of the loop went there, to learn that nothing was due. Now the
/// deadlines alone answer that, with no generic type to look up.
package struct DeadlineQueue<Key: Hashable> {
    private var deadlines: [Instant] = []
    private var keys: [Key] = []

    package init() {}

    package var count: Int { deadlines.count }
    package var earliest: Instant? { deadlines.first }

    package mutating func add(_ key: Key, at deadline: Instant) {
        deadlines.append(deadline)
        keys.append(key)
        var child = deadlines.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard deadlines[child] < deadlines[parent] else { break }
            swapEntries(child, parent)
            child = parent
        }
    }

    /// Removes every entry whose deadline is at or before `now` and gives each to `each`,
    /// earliest first.
    package mutating func popDue(at now: Instant, _ each: (Key, Instant) -> Void) {
        while let first = deadlines.first, first <= now {
            let key = keys[0]
            let last = deadlines.count - 1
            swapEntries(0, last)
            deadlines.removeLast()
            keys.removeLast()
            siftDown()
            each(key, first)
        }
    }

    /// The keys `popDue` would give, earliest first, for an owner that acts on them after the
    /// queue is left alone (acting may add to it) and needs no deadline.
    package mutating func popDueKeys(at now: Instant) -> [Key] {
        guard let first = deadlines.first, first <= now else { return [] }
        var due: [Key] = []
        popDue(at: now) { key, _ in due.append(key) }
        return due
    }

    private mutating func siftDown() {
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < deadlines.count && deadlines[left] < deadlines[smallest] { smallest = left }
            if right < deadlines.count && deadlines[right] < deadlines[smallest] { smallest = right }
            if smallest == parent { return }
            swapEntries(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swapEntries(_ one: Int, _ other: Int) {
        deadlines.swapAt(one, other)
        keys.swapAt(one, other)
    }
}
