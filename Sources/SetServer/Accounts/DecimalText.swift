/// A decimal's text read as the nearest `Double`, the number `Double(String)` gives (both round
/// correctly), without making a `String` of it: the accounts log keeps every rating as text, a
/// dozen a game, and `Double(String)` cost a fifth of reading a game line.
enum DecimalText {
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let (negative, mantissa, fraction) = digits(text), let value = quotient(mantissa, fraction) else {
            return Double(String(decoding: text, as: UTF8.self))
        }
        return negative ? -value : value
    }

    /// `-?[0-9]+(\.[0-9]+)?` of at most 19 digits (so the mantissa fits): its sign, its digits
    /// as one number, and how many of them follow the point; nil for any other text.
    private static func digits(_ text: UnsafeBufferPointer<UInt8>) -> (negative: Bool, mantissa: UInt64, fraction: Int)? {
        let negative = text.first == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        var mantissa: UInt64 = 0
        var digits = 0, fraction = 0, dot = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "."), !dot, digits > 0 {
                dot = true
            } else if case let digit = byte &- 0x30, digit < 10, digits < 19 {
                mantissa = mantissa * 10 + UInt64(digit)
                digits += 1
                if dot { fraction += 1 }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, !dot || fraction > 0 else { return nil }
        return (negative, mantissa, fraction)
    }

    /// `mantissa / 10^fraction` rounded to the nearest `Double`, ties to even; nil when it is
    /// not one of the cases worked out here.
    private static func quotient(_ mantissa: UInt64, _ fraction: Int) -> Double? {
        // Both held exactly, so one division rounds correctly (Clinger's fast path).
        if mantissa <= 1 << 53, fraction < powersOfTen.count { return Double(mantissa) / powersOfTen[fraction] }
        // Otherwise long division in integers: mantissa·2^shift / 10^fraction, the shift chosen
        // so the quotient has 53 bits, a double's significand, rounded by its remainder.
        guard fraction < wholePowersOfTen.count else { return nil }
        let divisor = wholePowersOfTen[fraction]
        var shift = 53 + bitLength(divisor) - bitLength(mantissa)
        // mantissa·2^shift / divisor lies in [2^52, 2^54): one shift fewer if it reached 2^53.
        for _ in 0..<2 {
            guard shift >= 0 else { return nil }
            let (quotient, remainder) = divisor.dividingFullWidth(shifted(mantissa, by: shift))
            if quotient >= 1 << 53 {
                shift -= 1
                continue
            }
            let half = divisor - remainder
            let rounded = remainder > half || (remainder == half && quotient & 1 == 1) ? quotient + 1 : quotient
            return Double(sign: .plus, exponent: -shift, significand: Double(rounded))
        }
        return nil
    }

    private static func bitLength(_ value: UInt64) -> Int { UInt64.bitWidth - value.leadingZeroBitCount }

    /// `value·2^shift` as a 128-bit number, for shifts below 128 − its bit length.
    private static func shifted(_ value: UInt64, by shift: Int) -> (high: UInt64, low: UInt64) {
        switch shift {
        case 0: (0, value)
        case 1..<64: (value >> UInt64(64 - shift), value << UInt64(shift))
        default: (value << UInt64(shift - 64), 0)
        }
    }

    /// 10⁰ to 10²², each exactly a `Double`.
    private static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]
    /// 10⁰ to 10¹⁹, the powers a `UInt64` holds.
    private static let wholePowersOfTen: [UInt64] = (0...19).map { (0..<$0).reduce(1) { product, _ in product * 10 } }
}
