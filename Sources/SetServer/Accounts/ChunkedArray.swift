/// An array kept in chunks of a fixed size. A copy shares every chunk with its original, and a
/// change to either copies only the chunk it touches: the accounts book hands a copy of itself
/// to the snapshot writer while the loop goes on changing it, and a million games or a hundred
/// thousand accounts must not be copied for the loop's next game.
struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    private(set) var chunks: [[Element]] = []
    private(set) var count = 0
    let chunkSize: Int

    init(chunkSize: Int) {
        precondition(chunkSize > 0, "a chunk holds at least one element")
        self.chunkSize = chunkSize
    }

    /// Chunks as `chunks` gives them: all full but the last, which is not empty; nil otherwise.
    init?(chunks: [[Element]], chunkSize: Int) {
        guard chunkSize > 0, chunks.dropLast().allSatisfy({ $0.count == chunkSize }), chunks.last?.isEmpty != true,
              (chunks.last?.count ?? 0) <= chunkSize else { return nil }
        self.chunkSize = chunkSize
        self.chunks = chunks
        count = chunks.reduce(0) { $0 + $1.count }
        if var last = self.chunks.popLast() {
            last.reserveCapacity(chunkSize)
            self.chunks.append(last)
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> Element {
        get { chunks[index / chunkSize][index % chunkSize] }
        // In place: an element holding arrays (an account's games) is changed where it lies,
        // not copied out and back (which would copy its arrays at every change).
        _modify { yield &chunks[index / chunkSize][index % chunkSize] }
    }

    mutating func append(_ element: Element) {
        if count % chunkSize == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }
}

extension ChunkedArray: Equatable where Element: Equatable {
    /// The same elements in order, however they are cut into chunks.
    static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool { lhs.elementsEqual(rhs) }
}

extension ChunkedArray: Sendable where Element: Sendable {}
