@testable import SetServer
import Testing

/// The chunked array behaves as an array: values in order, value semantics across copies.
@Suite struct ChunkedArrayTests {
    @Test func itHoldsWhatWasAppendedInOrderAcrossItsSeams() {
        var numbers = ChunkedArray<Int>(chunkSize: 3)
        for value in 0..<10 { numbers.append(value * 10) }
        #expect(Array(numbers) == (0..<10).map { $0 * 10 } && numbers.count == 10)
        #expect(numbers.chunks.map(\.count) == [3, 3, 3, 1])
        numbers[4] += 1
        #expect(numbers[4] == 41 && numbers[3] == 30 && numbers[5] == 50)
    }

    @Test func aCopyKeepsItsValuesWhileTheOriginalChanges() {
        var lists = ChunkedArray<[Int]>(chunkSize: 2)
        for value in 0..<5 { lists.append([value]) }
        let copy = lists
        lists[3].append(99)
        lists.append([5])
        #expect(Array(copy) == [[0], [1], [2], [3], [4]])
        #expect(Array(lists) == [[0], [1], [2], [3, 99], [4], [5]])
        #expect(copy != lists)
    }

    @Test func equalityIgnoresHowTheElementsAreCut() throws {
        var small = ChunkedArray<Int>(chunkSize: 2), large = ChunkedArray<Int>(chunkSize: 64)
        for value in 0..<7 {
            small.append(value)
            large.append(value)
        }
        #expect(small == large)
        let rebuilt = try #require(ChunkedArray(chunks: small.chunks, chunkSize: 2))
        #expect(rebuilt == small && rebuilt.count == 7)
        #expect(ChunkedArray(chunks: [[1], [2, 3]], chunkSize: 2) == nil, "a short chunk before the last")
        #expect(ChunkedArray(chunks: [[1, 2], []], chunkSize: 2) == nil, "an empty last chunk")
        #expect(ChunkedArray(chunks: [[1, 2, 3]], chunkSize: 2) == nil, "a chunk over the size")
    }

    /// Lists read back at their exact size grow by an eighth, not double, at their next append.
    @Test func gentleGrowthLeavesAnEighthToSpare() {
        var list = Array(repeating: UInt8(1), count: 800)
        list.reserveCapacity(800)
        list.reserveGently(1)
        #expect(list.capacity >= 801 && list.capacity < 801 + 801 / 8 + 64, "capacity \(list.capacity)")
        let roomy = list.capacity
        list.reserveGently(1)
        #expect(list.capacity == roomy, "room already there: nothing reallocated")
    }
}
