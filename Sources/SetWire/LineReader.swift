/// Splits a byte stream arriving in any chunking into newline-terminated lines, holding at most
/// `maxLineBytes` of an unfinished line.
package struct LineReader: Sendable {
    /// One framing result: a complete line, or the reason a line was dropped.
    package enum Line: Hashable, Sendable {
        /// A complete line of valid UTF-8, as its bytes, without its "\n" and without one trailing
        /// "\r"; may be empty. The bytes go to the decoders as they are: no `String` on the way.
        case complete([UInt8])
        /// A line longer than `maxLineBytes`, reported once at its "\n"; `byteCount` is its full length.
        case tooLong(byteCount: Int)
        /// A line of acceptable length that is not valid UTF-8.
        case invalidUTF8
    }

    /// The longest line accepted, counting its bytes before the "\n" but not a "\r" just before
    /// it: a client ending its lines with "\r\n" may send as much as one ending them with "\n".
    package let maxLineBytes: Int
    private var pending: [UInt8] = []
    /// Bytes of an over-long line seen so far; nil when not discarding one.
    private var discardedCount: Int?

    /// Makes a reader that refuses lines longer than `maxLineBytes`.
    package init(maxLineBytes: Int) {
        precondition(maxLineBytes >= 0, "maxLineBytes must not be negative")
        self.maxLineBytes = maxLineBytes
    }

    /// Bytes of an unfinished line held now; an over-long line being discarded holds none.
    package var pendingByteCount: Int { pending.count }

    /// Whether an unfinished line has begun, including one being discarded for its length.
    package var isMidLine: Bool { !pending.isEmpty || discardedCount != nil }

    /// Takes the next chunk of the stream and returns the lines it completes, in order.
    package mutating func feed(_ bytes: some Collection<UInt8>) -> [Line] {
        if let lines = bytes.withContiguousStorageIfAvailable({ feed(buffer: $0) }) { return lines }
        return Array(bytes).withUnsafeBufferPointer { feed(buffer: $0) }
    }

    /// Takes the next chunk of the stream straight from a raw buffer, as a socket read leaves it.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Line] {
        feed(buffer: bytes.assumingMemoryBound(to: UInt8.self))
    }

    private mutating func feed(buffer chunk: UnsafeBufferPointer<UInt8>) -> [Line] {
        var lines: [Line] = []
        var start = 0
        while start < chunk.count {
            guard let newline = chunk[start...].firstIndex(of: 0x0A) else {
                hold(UnsafeBufferPointer(rebasing: chunk[start...]))
                break
            }
            lines.append(finish(UnsafeBufferPointer(rebasing: chunk[start..<newline])))
            start = newline + 1
        }
        return lines
    }

    /// Keeps the start of a line, or only counts it once it is known to be too long.
    private mutating func hold(_ part: UnsafeBufferPointer<UInt8>) {
        if let discarded = discardedCount {
            discardedCount = discarded + part.count
        } else if pending.count + part.count > maxLineBytes + 1 {  // + 1: room for a "\r" still to end it
            discardedCount = pending.count + part.count
            pending = []
        } else {
            pending.append(contentsOf: part)
        }
    }

    private mutating func finish(_ tail: UnsafeBufferPointer<UInt8>) -> Line {
        if let discarded = discardedCount {
            discardedCount = nil
            return .tooLong(byteCount: discarded + tail.count)
        }
        let length = pending.count + tail.count
        let endsWithReturn = (tail.last ?? pending.last) == 0x0D
        if length - (endsWithReturn ? 1 : 0) > maxLineBytes {
            pending.removeAll(keepingCapacity: true)
            return .tooLong(byteCount: length)
        }
        if pending.isEmpty { return Self.decode(tail) }
        pending.append(contentsOf: tail)
        defer { pending.removeAll(keepingCapacity: true) }
        return pending.withUnsafeBufferPointer { Self.decode($0) }
    }

    private static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Line {
        var end = line.count
        if end > 0 && line[end - 1] == 0x0D { end -= 1 }
        let bytes = UnsafeBufferPointer(rebasing: line[0..<end])
        guard (try? UTF8Span(validating: bytes.span)) != nil else { return .invalidUTF8 }
        return .complete(Array(bytes))
    }
}
