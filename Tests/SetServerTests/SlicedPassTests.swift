@testable import SetServer
import Testing

/// A pass over a changing collection, a slice per turn (`SlicedPass`): the round trips of a
/// thousand duels looked at a hundredth per 10 ms turn rather than all in one.
@Suite struct SlicedPassTests {
    /// Every key of a pass comes once, in at most `turnsPerPass` turns, for any count of keys.
    @Test(arguments: [0, 1, 7, 99, 100, 101, 1_000, 1_001])
    func everyKeyComesOnceWithinItsTurns(count: Int) {
        var pass = SlicedPass<Int>(turnsPerPass: 100)
        var seen: [Int] = []
        var turns = 0
        repeat {
            seen += pass.slice(of: { Array(0..<count) })
            turns += 1
        } while seen.count < count && turns < 1_000
        #expect(seen == Array(0..<count))
        #expect(turns <= 100)
    }

    /// A key added during a pass waits for the next; the next pass walks the keys as they are then.
    @Test func aKeyAddedDuringAPassComesInTheNext() {
        var keys = ["a", "b", "c", "d"]
        var pass = SlicedPass<String>(turnsPerPass: 2)
        #expect(pass.slice(of: { keys }) == ["a", "b"])
        keys.append("e")
        keys.removeFirst()
        #expect(pass.slice(of: { keys }) == ["c", "d"])
        #expect(pass.slice(of: { keys }) == ["b", "c"])
        #expect(pass.slice(of: { keys }) == ["d", "e"])
    }
}
