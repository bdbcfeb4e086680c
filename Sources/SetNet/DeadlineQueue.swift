import SetRules

/// A min-heap of (deadline, key). Entries are never removed early: the owner checks, when one
/// comes due, whether the key still has that deadline, and re-adds keys whose deadline moved.
package struct DeadlineQueue<Key: Hashable> {
    private var heap: [(deadline: Instant, key: Key)] = []

    package init() {}

    package var count: Int { heap.count }
    package var earliest: Instant? { heap.first?.deadline }

    package mutating func add(_ key: Key, at deadline: Instant) {
        heap.append((deadline, key))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns every entry whose deadline is at or before `now`, earliest first.
    package mutating func popDue(at now: Instant) -> [(key: Key, deadline: Instant)] {
        var due: [(key: Key, deadline: Instant)] = []
        while let first = heap.first, first.deadline <= now {
            due.append((key: first.key, deadline: first.deadline))
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
                if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return due
    }
}
