import Testing
@testable import SetScreen
@testable import SetTerminal

/// The keyboard's bytes with time, as the client and the door's menu both read them: a lone ESC
/// is the Escape key only once its wait is over, and a sequence split across reads is one key.
@Suite struct KeyStreamTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aLoneEscapeIsTheEscapeKeyAtItsDeadlineAndNotBefore() {
        var keys = KeyStream()
        #expect(keys.feed([0x1B], at: 100) == [])
        #expect(keys.escapeDeadline == 130)
        #expect(keys.due(at: 129) == [])
        #expect(keys.due(at: 130) == [.key(.escape)])
        #expect(keys.escapeDeadline == nil)
        #expect(keys.due(at: 500) == [], "the Escape key comes once")
    }

    /// A slow link splits an arrow anywhere: each read starts the wait again, so the arrow is
    /// one key even when its last byte comes later than one wait after the ESC.
    @Test func aSequenceSplitAcrossReadsIsOneKey() {
        var keys = KeyStream()
        #expect(keys.feed([0x1B], at: 0) == [])
        #expect(keys.feed(Self.bytes("["), at: 20) == [])
        #expect(keys.escapeDeadline == 50)
        #expect(keys.due(at: 40) == [], "past the first byte's wait, not the last one's")
        #expect(keys.feed(Self.bytes("A"), at: 40) == [.key(.up)])
        #expect(keys.escapeDeadline == nil)
        #expect(keys.due(at: 1_000) == [])
    }

    @Test func aClickSplitIntoSingleBytesIsOneClick() {
        var keys = KeyStream()
        var events: [InputEvent] = []
        for (index, byte) in Self.bytes("\u{1B}[<0;5;3M").enumerated() {
            events += keys.feed([byte], at: Int64(index) * 5)
            events += keys.due(at: Int64(index) * 5)
        }
        #expect(events == [.mouse(MouseEvent(button: .left, kind: .press, column: 4, row: 2))])
    }

    /// A half sequence left hanging is the Escape key and plain keys, as the decoder reads it.
    @Test func aHalfSequenceLeftHangingIsEscapeThenPlainKeys() {
        var keys = KeyStream()
        #expect(keys.feed(Self.bytes("\u{1B}["), at: 0) == [])
        #expect(keys.due(at: 30) == [.key(.escape), .key(.character("["))])
    }

    @Test func anEscapeWithAKeyBehindItNeedsNoWait() {
        var keys = KeyStream()
        #expect(keys.feed(Self.bytes("\u{1B}q"), at: 0) == [.key(.escape), .key(.character("q"))])
        #expect(keys.escapeDeadline == nil)
    }
}
