import Testing
import SetRules
@testable import SetScreen

@Suite struct InputDecoderTests {
    static func decode(_ bytes: [UInt8]) -> [InputEvent] {
        var decoder = InputDecoder()
        return decoder.feed(bytes)
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func mouse(_ button: MouseButton, _ kind: MouseAction, _ column: Int, _ row: Int) -> InputEvent {
        .mouse(MouseEvent(button: button, kind: kind, column: column, row: row))
    }

    /// Every accepted sequence with the events it must give.
    static let cases: [(String, [InputEvent])] = [
        ("a", [.key(.character("a"))]),
        ("Z~", [.key(.character("Z")), .key(.character("~"))]),
        ("é", [.key(.character("é"))]),
        ("◆", [.key(.character("◆"))]),
        ("🂡", [.key(.character("🂡"))]),
        ("\r", [.key(.enter)]),
        ("\n", [.key(.enter)]),
        ("\t", [.key(.tab)]),
        ("\u{7F}", [.key(.backspace)]),
        ("\u{08}", [.key(.backspace)]),
        ("\u{01}", [.key(.ctrl("a"))]),
        ("\u{03}", [.key(.ctrl("c"))]),
        ("\u{1A}", [.key(.ctrl("z"))]),
        ("\u{1C}", [.key(.ctrl("\\"))]),
        ("\u{1B}[A", [.key(.up)]),
        ("\u{1B}[B", [.key(.down)]),
        ("\u{1B}[C", [.key(.right)]),
        ("\u{1B}[D", [.key(.left)]),
        ("\u{1B}OA", [.key(.up)]),
        ("\u{1B}OB", [.key(.down)]),
        ("\u{1B}OC", [.key(.right)]),
        ("\u{1B}OD", [.key(.left)]),
        ("\u{1B}[1;5C", [.key(.right)]),
        ("\u{1B}[H", [.key(.home)]),
        ("\u{1B}[F", [.key(.end)]),
        ("\u{1B}OH", [.key(.home)]),
        ("\u{1B}OF", [.key(.end)]),
        ("\u{1B}[1~", [.key(.home)]),
        ("\u{1B}[2~", [.key(.insert)]),
        ("\u{1B}[3~", [.key(.delete)]),
        ("\u{1B}[4~", [.key(.end)]),
        ("\u{1B}[5~", [.key(.pageUp)]),
        ("\u{1B}[6~", [.key(.pageDown)]),
        ("\u{1B}[<0;1;1M", [mouse(.left, .press, 0, 0)]),
        ("\u{1B}[<0;12;5m", [mouse(.left, .release, 11, 4)]),
        ("\u{1B}[<1;3;4M", [mouse(.middle, .press, 2, 3)]),
        ("\u{1B}[<2;300;200M", [mouse(.right, .press, 299, 199)]),
        ("\u{1B}[<64;10;10M", [mouse(.wheelUp, .press, 9, 9)]),
        ("\u{1B}[<65;10;10M", [mouse(.wheelDown, .press, 9, 9)]),
        ("\u{1B}[<16;2;2M", [mouse(.left, .press, 1, 1)]),
        ("\u{1B}[<32;2;2M", []),
        ("\u{1B}[99Z", []),
        ("\u{1B}[?25;1x", []),
        ("\u{1B}[15~", []),
        ("\u{1B}OP", []),
        ("\u{1B}\u{1B}[A", [.key(.escape), .key(.up)]),
        ("\u{1B}x", [.key(.escape), .key(.character("x"))]),
        ("\u{1B}\r", [.key(.escape), .key(.enter)]),
        ("a\u{1B}[Bb", [.key(.character("a")), .key(.down), .key(.character("b"))]),
    ]

    @Test(arguments: Array(0..<cases.count))
    func eachSequenceDecodes(index: Int) {
        let (text, expected) = Self.cases[index]
        #expect(Self.decode(Self.bytes(text)) == expected, "\(text.debugDescription)")
    }

    @Test(arguments: Array(0..<cases.count))
    func splittingAtAnyBoundaryGivesTheSameEvents(index: Int) {
        let (text, expected) = Self.cases[index]
        let bytes = Self.bytes(text)
        for cut in 0...bytes.count {
            var decoder = InputDecoder()
            let events = decoder.feed(Array(bytes[..<cut])) + decoder.feed(Array(bytes[cut...]))
            #expect(events == expected, "\(text.debugDescription) cut at \(cut)")
            #expect(!decoder.hasPendingInput)
        }
        var decoder = InputDecoder()
        let oneByOne = bytes.flatMap { decoder.feed([$0]) }
        #expect(oneByOne == expected, "\(text.debugDescription) byte by byte")
    }

    @Test func allCasesConcatenatedDecodeInAnyChunking() {
        let bytes = Self.cases.flatMap { Self.bytes($0.0) }
        let expected = Self.cases.flatMap(\.1)
        for chunk in [1, 2, 3, 7, 4096] {
            var decoder = InputDecoder()
            var events: [InputEvent] = []
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                events += decoder.feed(Array(bytes[start..<min(start + chunk, bytes.count)]))
            }
            #expect(events == expected, "chunk \(chunk)")
        }
    }

    @Test func loneEscapeWaitsForTheFlush() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingEscape)
        #expect(decoder.flushPendingEscape() == [.key(.escape)])
        #expect(!decoder.hasPendingInput)
        #expect(decoder.flushPendingEscape() == [])
    }

    @Test func flushingAHalfSequenceGivesEscapeThenPlainKeys() {
        var decoder = InputDecoder()
        #expect(decoder.feed(Self.bytes("\u{1B}[")) == [])
        #expect(decoder.flushPendingEscape() == [.key(.escape), .key(.character("["))])
        #expect(decoder.feed(Self.bytes("\u{1B}[<0;1")) == [])
        #expect(decoder.flushPendingEscape()
            == [.key(.escape), .key(.character("[")), .key(.character("<")), .key(.character("0")),
                .key(.character(";")), .key(.character("1"))])
    }

    @Test func incompleteUTF8WaitsAndInvalidUTF8IsDropped() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0xE2, 0x97]) == [])
        #expect(decoder.feed([0x86]) == [.key(.character("◆"))])
        #expect(Self.decode([0x80, 0x61]) == [.key(.character("a"))])
        #expect(Self.decode([0xC3, 0x61]) == [.key(.character("a"))])
        #expect(Self.decode([0xFF, 0xE0, 0x80, 0x80, 0x62]) == [.key(.character("b"))])
    }

    @Test func runawayCSIIsDroppedInsteadOfBufferedForever() {
        var decoder = InputDecoder()
        let events = decoder.feed(Self.bytes("\u{1B}[" + String(repeating: "1", count: 200)))
        #expect(!decoder.hasPendingInput)
        #expect(events.allSatisfy { $0 == .key(.character("1")) })
    }

    @Test func randomBytesNeverCrashAndNeverHoldMoreThanASequence() {
        var generator = SplitMix64(seed: 7)
        var decoder = InputDecoder()
        for _ in 0..<2000 {
            let count = generator.uniform(below: 16)
            // Bias towards the bytes that start sequences so the interesting paths are walked.
            let alphabet: [UInt8] = [0x1B, 0x5B, 0x3C, 0x3B, 0x4F, 0x4D, 0x6D, 0x7E, 0x31, 0x36, 0xE2, 0x80]
            let bytes = (0..<count).map { _ in
                generator.uniform(below: 2) == 0
                    ? alphabet[generator.uniform(below: alphabet.count)] : UInt8(generator.uniform(below: 256))
            }
            _ = decoder.feed(bytes)
            if generator.uniform(below: 10) == 0 { _ = decoder.flushPendingEscape() }
        }
        _ = decoder.flushPendingEscape()
        let after = decoder.feed(Self.bytes("q"))
        #expect(after.last == .key(.character("q")))
    }
}
