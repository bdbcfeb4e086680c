/// 32 bytes that are written as 64 lowercase hex digits: a game's seed commitment, an account
/// key's SHA-256. The book holds a million of them, so it keeps the bytes, not the text.
struct Digest: Hashable {
    var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0

    init(a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// 64 lowercase hex digits as 32 bytes; nil for any other text (which keeps its own form).
    init?(hex text: String) {
        var text = text
        // On the bytes, with no array and no branch on digit or letter (which is random, so a
        // branch on it mispredicts): a start without a snapshot packs every game's twice.
        guard let digest = text.withUTF8({ bytes -> Digest? in
            guard bytes.count == 64 else { return nil }
            var invalid = false
            func word(_ start: Int) -> UInt64 {
                var word: UInt64 = 0
                for byte in bytes[start..<start + 16] {
                    invalid = invalid || !(byte &- 0x30 < 10 || byte &- 0x61 < 6)
                    // '0'...'9' are 0x30...0x39, 'a'...'f' 0x61...0x66: the low four bits, plus 9 for a letter.
                    word = word << 4 | UInt64((byte & 0x0F) &+ (byte >> 6) &* 9)
                }
                return word
            }
            let digest = Digest(a: word(0), b: word(16), c: word(32), d: word(48))
            return invalid ? nil : digest
        }) else { return nil }
        self = digest
    }

    /// The 64 hex digits it was read from.
    var hex: String {
        var bytes: [UInt8] = []
        appendHex(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func appendHex(to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + 64)
        for word in [a, b, c, d] {
            for shift in stride(from: 60, through: 0, by: -4) {
                let nibble = UInt8((word >> UInt64(shift)) & 0xF)
                bytes.append(nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10)
            }
        }
    }
}
