/// Who plays whom when players are free: each free player, from the top of the standings, with
/// the nearest free player below them who was not their last opponent.
package enum ArenaPairing {
    /// A free player as pairing sees them.
    package struct Candidate: Hashable, Sendable {
        package var name: String
        package var lastOpponent: String?

        package init(name: String, lastOpponent: String?) {
            self.name = name
            self.lastOpponent = lastOpponent
        }
    }

    /// Whether two players played each other last (on either side).
    static func isRepeat(_ a: Candidate, _ b: Candidate) -> Bool {
        a.lastOpponent == b.name || b.lastOpponent == a.name
    }

    /// The pairs to make from `free` (in standings order). `othersBusy`: some other active
    /// player of the arena is playing, and so will be free later; while one is, two players who
    /// played each other last wait rather than play again at once. Without one they may, since
    /// the arena has nobody else to offer them.
    package static func pairs(_ free: [Candidate], othersBusy: Bool) -> [(Candidate, Candidate)] {
        var waiting = free
        var pairs: [(Candidate, Candidate)] = []
        var left: [Candidate] = []
        while !waiting.isEmpty {
            let top = waiting.removeFirst()
            if let index = waiting.firstIndex(where: { !isRepeat(top, $0) }) {
                pairs.append((top, waiting.remove(at: index)))
            } else {
                left.append(top)
            }
        }
        // Greedy from the top can leave two who played each other last while a swap with a pair
        // already made would seat all four: make it.
        var stranded: [Candidate] = []
        while let a = left.first {
            left.removeFirst()
            guard let bIndex = left.firstIndex(where: { isRepeat(a, $0) }) else {
                stranded.append(a)
                continue
            }
            let b = left[bIndex]
            if let swap = pairs.firstIndex(where: { !isRepeat(a, $0.0) && !isRepeat(b, $0.1) }) {
                left.remove(at: bIndex)
                let (x, y) = pairs[swap]
                pairs[swap] = (x, a)
                pairs.append((b, y))
            } else if let swap = pairs.firstIndex(where: { !isRepeat(a, $0.1) && !isRepeat(b, $0.0) }) {
                left.remove(at: bIndex)
                let (x, y) = pairs[swap]
                pairs[swap] = (x, b)
                pairs.append((a, y))
            } else {
                stranded.append(a)
            }
        }
        // Nobody else will come free: the arena has only them to offer each other.
        if !othersBusy && pairs.isEmpty && stranded.count == 2 {
            pairs.append((stranded[0], stranded[1]))
        }
        return pairs
    }
}
