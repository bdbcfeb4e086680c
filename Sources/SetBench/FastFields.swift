/// Reads a few top-level fields of a server line without decoding it. The load generator shares
/// the machine with the server it measures, so it looks at most lines only this much.
/// The server writes sorted keys and no spaces, so `"name":` is found by a plain byte search;
/// values are read as the server writes them.
package struct FastFields {
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The start of the value of `"key":`, or nil.
    private func valueStart(_ key: StaticString) -> Int? {
        let pattern = [0x22] + key.withUTF8Buffer(Array.init) + [0x22, 0x3A]
        guard bytes.count >= pattern.count else { return nil }
        var index = 0
        let last = bytes.count - pattern.count
        outer: while index <= last {
            if bytes[index] == 0x22 {
                for offset in 1..<pattern.count where bytes[index + offset] != pattern[offset] {
                    index += 1
                    continue outer
                }
                return index + pattern.count
            }
            index += 1
        }
        return nil
    }

    /// An integer field, e.g. `seq` or `id`.
    package func int(_ key: StaticString) -> Int? {
        guard var index = valueStart(key) else { return nil }
        var negative = false
        if index < bytes.count && bytes[index] == 0x2D { negative = true; index += 1 }
        var value = 0, digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value &* 10 &+ Int(bytes[index] - 0x30)
            index += 1
            digits += 1
        }
        return digits == 0 ? nil : (negative ? -value : value)
    }

    /// Whether a string field equals `expected`, e.g. `type` is `event`.
    package func string(_ key: StaticString, is expected: StaticString) -> Bool {
        guard let index = valueStart(key), index < bytes.count, bytes[index] == 0x22 else { return false }
        return expected.withUTF8Buffer { want in
            let end = index + 1 + want.count
            return end < bytes.count && bytes[end] == 0x22 && zip(bytes[(index + 1)..<end], want).allSatisfy { $0 == $1 }
        }
    }

    /// The message's `type`.
    package var type: Substring? { stringValue("type") }

    /// An event's `kind`.
    package var kind: Substring? { stringValue("kind") }

    /// A string field without escapes in it, e.g. a redirect's `address`.
    package func text(_ key: StaticString) -> Substring? { stringValue(key) }

    private func stringValue(_ key: StaticString) -> Substring? {
        guard let index = valueStart(key), index < bytes.count, bytes[index] == 0x22 else { return nil }
        guard let end = bytes[(index + 1)...].firstIndex(of: 0x22) else { return nil }
        return Substring(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    }
}
