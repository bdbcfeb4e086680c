import SetWire

/// Secret seat tokens: 128 bits from the system's cryptographic generator, as 32 hex digits.
package enum SeatToken {
    /// A fresh token nobody can guess.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next(), low = generator.next()
        return hex(high) + hex(low)
    }

    /// A fresh token for a seat in `match`, naming it (`TokenMatch`): a resume sent to any node
    /// finds its match from the token alone.
    package static func make(for match: String) -> String {
        TokenMatch.token(match: match, secret: make())
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
