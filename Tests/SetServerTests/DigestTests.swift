@testable import SetServer
import SetRules
import Testing

/// A seed commitment packed into 32 bytes: exactly 64 lowercase hex digits are, nothing else is.
@Suite struct DigestTests {
    /// The plain reading: each digit's value, in order.
    static func reference(_ text: String) -> Digest? {
        let digits = Array("0123456789abcdef".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count == 64 else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.enumerated() {
            guard let value = digits.firstIndex(of: byte) else { return nil }
            words[index / 16] = words[index / 16] << 4 | UInt64(value)
        }
        return Digest(a: words[0], b: words[1], c: words[2], d: words[3])
    }

    @Test func packingAgreesWithThePlainReading() {
        var rng = SplitMix64(seed: 64)
        let hex = Array("0123456789abcdef".utf8)
        var texts = ["", "c1", String(repeating: "f", count: 64), String(repeating: "0", count: 64), String(repeating: "F", count: 64),
                     String(repeating: "a", count: 63), String(repeating: "a", count: 65)]
        for _ in 0..<2_000 {
            var bytes = (0..<64).map { _ in hex[Int(rng.next() % 16)] }
            texts.append(String(decoding: bytes, as: UTF8.self))
            // One byte of every kind at any place: the neighbours of the digits' and letters' ranges above all.
            let odd: [UInt8] = [0x2F, 0x3A, 0x40, 0x41, 0x46, 0x47, 0x60, 0x67, 0x20, 0x00, 0x7F, UInt8(truncatingIfNeeded: rng.next() % 0x80)]
            bytes[Int(rng.next() % 64)] = odd[Int(rng.next() % UInt64(odd.count))]
            texts.append(String(decoding: bytes, as: UTF8.self))
        }
        for text in texts { #expect(Digest(hex: text) == Self.reference(text), "\(text)") }
    }

    @Test func hexRoundTrips() {
        for text in [String(repeating: "0", count: 64), String(repeating: "f", count: 64), String(repeating: "0123456789abcdef", count: 4)] {
            #expect(Digest(hex: text)?.hex == text)
        }
    }
}
