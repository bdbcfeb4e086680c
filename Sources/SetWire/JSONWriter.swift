/// Writes compact JSON with object keys sorted by their UTF-8 bytes, so the same value is always
/// the same line.
package enum JSONWriter {
    /// Appends the compact JSON text of `value` to `buffer`.
    package static func write(_ value: JSONValue, into buffer: inout [UInt8]) {
        switch value {
        case .null: appendASCII("null", to: &buffer)
        case .bool(let flag): appendASCII(flag ? "true" : "false", to: &buffer)
        case .int(let number): appendInteger(number, to: &buffer)
        case .double(let number): appendDouble(number, to: &buffer)
        case .string(let text): appendString(text, to: &buffer)
        case .array(let items):
            buffer.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                write(item, into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            // Byte order, not String's `<`, which compares normalized scalars and may differ.
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                appendString(member.key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                write(member.value, into: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON text of `value`.
    package static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// The compact JSON text of `value` as UTF-8 bytes.
    package static func bytes(_ value: JSONValue) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(128)
        write(value, into: &buffer)
        return buffer
    }

    private static func appendASCII(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    static func appendInteger(_ number: Int64, to buffer: inout [UInt8]) {
        if number < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        // 20 digits hold UInt64.max; fill from the right, then copy the used tail once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    private static func appendDouble(_ number: Double, to buffer: inout [UInt8]) {
        guard number.isFinite else {
            appendASCII("null", to: &buffer)
            return
        }
        // Integral doubles read as integers on the wire; beyond 2^53 they are not exact, so keep the exponent form.
        if number.rounded(.towardZero) == number && number.magnitude <= 0x1p53 {
            appendInteger(Int64(number), to: &buffer)
            return
        }
        // Swift's shortest round-trip form ("0.1", "1e-07", "1.5e+300") is already valid JSON.
        buffer.append(contentsOf: number.description.utf8)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func appendString(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                buffer.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
                case 0x0A: buffer.append(UInt8(ascii: "n"))
                case 0x0D: buffer.append(UInt8(ascii: "r"))
                case 0x09: buffer.append(UInt8(ascii: "t"))
                case 0x08: buffer.append(UInt8(ascii: "b"))
                case 0x0C: buffer.append(UInt8(ascii: "f"))
                default:
                    buffer.append(UInt8(ascii: "u"))
                    buffer.append(UInt8(ascii: "0"))
                    buffer.append(UInt8(ascii: "0"))
                    buffer.append(hexDigits[Int(byte >> 4)])
                    buffer.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
