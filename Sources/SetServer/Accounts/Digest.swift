/// 32 bytes that are written as 64 lowercase hex digits: a game's seed commitment, an account
/// key's SHA-256. The book holds a million of them, so it keeps the bytes, not the text.
struct Digest: Hashable {
    var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0

    init(a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// 64 lowercase hex digits as 32 bytes; nil for any other text (which keeps its own form).
    init?(hex text: String) {
        let utf8 = text.utf8
        guard utf8.count == 64 else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in utf8.enumerated() {
            let nibble: UInt8
            switch byte {
            case 0x30...0x39: nibble = byte - 0x30
            case 0x61...0x66: nibble = byte - 0x61 + 10
            default: return nil
            }
            words[index / 16] = words[index / 16] << 4 | UInt64(nibble)
        }
        self.init(a: words[0], b: words[1], c: words[2], d: words[3])
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
