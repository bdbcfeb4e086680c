import SetArena
import SetRules
import Testing

/// Issue 44: who plays whom, checked on thousands of seeded draws against what Protocol.md
/// promises.
@Suite struct ArenaPairingTests {
    typealias Candidate = ArenaPairing.Candidate

    static func repeats(_ a: Candidate, _ b: Candidate) -> Bool {
        a.lastOpponent == b.name || b.lastOpponent == a.name
    }

    @Test func withoutHistoryTheStandingsArePairedFromTheTopInTwos() {
        let free = (0..<7).map { Candidate(name: "p\($0)", lastOpponent: nil) }
        let pairs = ArenaPairing.pairs(free, othersBusy: false).map { [$0.0.name, $0.1.name] }
        #expect(pairs == [["p0", "p1"], ["p2", "p3"], ["p4", "p5"]])
    }

    @Test func theNearestOtherThanTheLastOpponentIsTaken() {
        let free = [Candidate(name: "a", lastOpponent: "b"), Candidate(name: "b", lastOpponent: "a"),
                    Candidate(name: "c", lastOpponent: nil), Candidate(name: "d", lastOpponent: nil)]
        let pairs = ArenaPairing.pairs(free, othersBusy: true).map { [$0.0.name, $0.1.name] }
        #expect(pairs == [["a", "c"], ["b", "d"]])
    }

    @Test func twoWhoPlayedLastWaitWhileAnotherIsBusyAndPlayAgainWhenNobodyElseIs() {
        let free = [Candidate(name: "a", lastOpponent: "b"), Candidate(name: "b", lastOpponent: "a")]
        #expect(ArenaPairing.pairs(free, othersBusy: true).isEmpty)
        #expect(ArenaPairing.pairs(free, othersBusy: false).count == 1)
    }

    @Test func aGreedyDeadEndIsSwappedSoThatAllFourPlay() {
        // From the top: a–b, then c and d played each other last; a–c and b–d seat all four.
        let free = [Candidate(name: "a", lastOpponent: nil), Candidate(name: "b", lastOpponent: nil),
                    Candidate(name: "c", lastOpponent: "d"), Candidate(name: "d", lastOpponent: "c")]
        let pairs = ArenaPairing.pairs(free, othersBusy: true)
        #expect(pairs.count == 2)
        #expect(!pairs.contains { Self.repeats($0.0, $0.1) })
    }

    /// Random standings with random last opponents: every promise holds on each draw.
    @Test(arguments: [false, true]) func everyDrawKeepsThePromises(othersBusy: Bool) {
        var random = SplitMix64(seed: 44)
        for _ in 0..<5_000 {
            let count = random.uniform(below: 9)
            let names = (0..<count).map { "p\($0)" }
            let free = names.map { name in
                Candidate(name: name, lastOpponent: random.uniform(below: 3) == 0 ? nil : "p\(random.uniform(below: max(count, 1) + 2))")
            }
            let pairs = ArenaPairing.pairs(free, othersBusy: othersBusy)
            let seated = pairs.flatMap { [$0.0.name, $0.1.name] }
            #expect(Swift.Set(seated).count == seated.count, "someone seated twice: \(free)")
            #expect(Swift.Set(seated).isSubset(of: Swift.Set(names)))
            let repeated = pairs.filter { Self.repeats($0.0, $0.1) }
            if othersBusy || count != 2 {
                #expect(repeated.isEmpty, "a repeat while another could come free: \(free) -> \(pairs)")
            }
            let left = free.filter { !seated.contains($0.name) }
            for (i, a) in left.enumerated() {
                for b in left[(i + 1)...] {
                    #expect(Self.repeats(a, b), "\(a.name) and \(b.name) were both free and could play: \(free)")
                }
            }
        }
    }
}
