import Testing
import SetRules
import SetWire

@Suite struct LineReaderTests {
    /// The obvious answer: split the whole stream on "\n" at once; the last piece is unfinished.
    static func oracle(_ stream: [UInt8], maxLineBytes: Int) -> [LineReader.Line] {
        var pieces = stream.split(separator: 0x0A, omittingEmptySubsequences: false)
        pieces.removeLast()
        return pieces.map { piece in
            // A "\r" ending the line is not counted: "\r\n" lines may be as long as "\n" ones.
            if piece.count - (piece.last == 0x0D ? 1 : 0) > maxLineBytes { return .tooLong(byteCount: piece.count) }
            var bytes = Array(piece)
            if bytes.last == 0x0D { bytes.removeLast() }
            guard String(validating: bytes, as: UTF8.self) != nil else { return .invalidUTF8 }
            return .complete(bytes)
        }
    }

    static func read(_ stream: [UInt8], chunkSizes: some Sequence<Int>, maxLineBytes: Int) -> (lines: [LineReader.Line], maxPending: Int) {
        var reader = LineReader(maxLineBytes: maxLineBytes)
        var lines: [LineReader.Line] = []
        var maxPending = 0
        var offset = 0
        var sizes = chunkSizes.makeIterator()
        while offset < stream.count {
            let size = min(sizes.next() ?? 4096, stream.count - offset)
            lines += reader.feed(stream[offset..<offset + size])
            maxPending = max(maxPending, reader.pendingByteCount)
            offset += size
        }
        return (lines, maxPending)
    }

    static let sample: [UInt8] = Array(
        "{\"type\":\"hello\"}\n\r\n\nplain\r\nnaïve ✓ 🎴 cards\n".utf8)
        + [0x66, 0xFF, 0x6F, 0x0A] // invalid UTF-8 inside a line
        + Array(String(repeating: "x", count: 40).utf8) + [0x0A] // too long for 32
        + Array("after\r\r\nlast unfinished".utf8)

    @Test(arguments: [1, 2, 7, 4096])
    func fixedChunkSizesMatchTheOracle(chunkSize: Int) {
        let result = Self.read(Self.sample, chunkSizes: repeatElement(chunkSize, count: .max), maxLineBytes: 32)
        let expected = Self.oracle(Self.sample, maxLineBytes: 32)
        #expect(result.lines == expected)
        #expect(expected == [
            .text("{\"type\":\"hello\"}"), .text(""), .text(""), .text("plain"), .text("naïve ✓ 🎴 cards"),
            .invalidUTF8, .tooLong(byteCount: 40), .text("after\r"),
        ])
        #expect(result.maxPending <= 32 + 1)
    }

    @Test func randomChunkingsAndStreamsMatchTheOracle() {
        var random = SplitMix64(seed: 0x5E7_11E5)
        let alphabet: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A], Array("a".utf8), Array("é".utf8), Array("🎴".utf8),
                                   [0xC3], [0x80], [0xFF], Array("{\"k\":1}".utf8)]
        for _ in 0..<300 {
            var stream: [UInt8] = []
            for _ in 0..<random.uniform(below: 200) {
                stream += alphabet[random.uniform(below: alphabet.count)]
            }
            let maxLineBytes = random.uniform(below: 24)
            var sizes: [Int] = []
            for _ in 0..<stream.count { sizes.append(1 + random.uniform(below: 9)) }
            let result = Self.read(stream, chunkSizes: sizes, maxLineBytes: maxLineBytes)
            #expect(result.lines == Self.oracle(stream, maxLineBytes: maxLineBytes))
            #expect(result.maxPending <= maxLineBytes + 1, "a line's bytes, and room for its \\r")
        }
    }

    @Test func oneMebibyteLineIsReportedOnceAndNeverBuffered() {
        var reader = LineReader(maxLineBytes: 4096)
        var lines: [LineReader.Line] = []
        let chunk = [UInt8](repeating: UInt8(ascii: "z"), count: 1000)
        var sent = 0
        var maxPending = 0
        while sent < 1_048_576 {
            let size = min(chunk.count, 1_048_576 - sent)
            lines += reader.feed(chunk[0..<size])
            maxPending = max(maxPending, reader.pendingByteCount)
            #expect(reader.isMidLine)
            sent += size
        }
        #expect(lines.isEmpty)
        lines += reader.feed(Array("\nnext\n".utf8))
        #expect(lines == [.tooLong(byteCount: 1_048_576), .text("next")])
        #expect(maxPending <= 4096 + 1)
        #expect(reader.pendingByteCount == 0)
        #expect(!reader.isMidLine)
    }

    @Test func lineOfExactlyTheLimitIsAccepted() {
        var reader = LineReader(maxLineBytes: 5)
        let lines = reader.feed(Array("12345\n123456\n".utf8))
        #expect(lines == [.text("12345"), .tooLong(byteCount: 6)])
    }

    /// A client ending its lines with "\r\n" may send as much as one ending them with "\n": the
    /// "\r" is removed, and not counted, however the line is chunked.
    @Test func aReturnBeforeTheNewlineIsNotCounted() {
        for chunk in [1, 3, 100] {
            let result = Self.read(Array("12345\r\n123456\r\n1234\r\r\n".utf8), chunkSizes: repeatElement(chunk, count: .max), maxLineBytes: 5)
            #expect(result.lines == [.text("12345"), .tooLong(byteCount: 7), .text("1234\r")])
        }
    }

    @Test func invalidUTF8LineDoesNotSpoilTheNext() {
        var reader = LineReader(maxLineBytes: 100)
        // An overlong encoding of "/" and a lone continuation byte.
        let lines = reader.feed([0xC0, 0xAF, 0x0A, 0x80, 0x0A] + Array("ok\n".utf8))
        #expect(lines == [.invalidUTF8, .invalidUTF8, .text("ok")])
    }

    @Test func multiByteCharacterSplitAcrossChunks() {
        var reader = LineReader(maxLineBytes: 100)
        let bytes = Array("🎴é\n".utf8)
        var lines: [LineReader.Line] = []
        for byte in bytes { lines += reader.feed([byte]) }
        #expect(lines == [.text("🎴é")])
    }

    @Test func bytesAfterTheLastNewlineWait() {
        var reader = LineReader(maxLineBytes: 100)
        var lines = reader.feed(Array("one\ntw".utf8))
        #expect(lines == [.text("one")])
        #expect(reader.pendingByteCount == 2)
        lines = reader.feed(Array("o\r".utf8))
        #expect(lines.isEmpty)
        #expect(reader.pendingByteCount == 4)
        lines = reader.feed(Array("\n".utf8))
        #expect(lines == [.text("two")])
        #expect(reader.pendingByteCount == 0)
    }

    /// Blank lines are ignored by the server; blank is `Character.isWhitespace`, checked on bytes.
    @Test func blankLinesAreWhitespaceAsCharactersHaveIt() {
        for text in ["", " ", "\t \r", "\u{0B}\u{0C}", "\u{A0}", " \u{3000}\u{2028}", "\u{85}"] {
            #expect(ClientMessageDecoder.isBlank(Array(text.utf8)), "\(Array(text.unicodeScalars))")
        }
        for text in ["x", " {}", "\u{1F}", "\u{200B}", " \u{A0}é", "\u{3000}0"] {
            #expect(!ClientMessageDecoder.isBlank(Array(text.utf8)), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func feedsFromRawBuffersAndTheirSlices() {
        var reader = LineReader(maxLineBytes: 100)
        let bytes = Array("raw\nslice\nrest".utf8)
        let lines = bytes.withUnsafeBytes { raw in
            reader.feed(UnsafeRawBufferPointer(rebasing: raw[0..<4])) + reader.feed(raw[4..<10])
        }
        #expect(lines == [.text("raw"), .text("slice")])
        #expect(reader.pendingByteCount == 0)
    }
}

extension LineReader.Line {
    /// A complete line, written as text for readable expectations.
    static func text(_ text: String) -> Self { .complete(Array(text.utf8)) }
}
