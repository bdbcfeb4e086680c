/// Why a document was refused, and the byte offset where the parser gave up.
package struct JSONParseError: Error, Hashable, Sendable {
    /// Byte offset into the input at which parsing failed.
    package var offset: Int
    /// A short human phrase, such as "expected ':' after object key".
    package var reason: String

    /// Makes an error at `offset` for `reason`.
    package init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
}

/// A strict RFC 8259 parser that works on bytes, bounds nesting, and never recurses.
package enum JSONParser {
    /// Parses one JSON document from UTF-8 bytes; nesting beyond `maxDepth` arrays and objects is refused.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = 32) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { input in
            var parser = Parser(input: input, maxDepth: maxDepth)
            return Result { () throws(JSONParseError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    /// Parses one JSON document from text; nesting beyond `maxDepth` arrays and objects is refused.
    package static func parse(_ text: String, maxDepth: Int = 32) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { input in
            var parser = Parser(input: input, maxDepth: maxDepth)
            return Result { () throws(JSONParseError) in try parser.parseDocument() }
        }
        return try result.get()
    }
}

private enum Byte {
    static let tab: UInt8 = 0x09, newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D, space: UInt8 = 0x20
    static let quote: UInt8 = 0x22, backslash: UInt8 = 0x5C, slash: UInt8 = 0x2F
    static let comma: UInt8 = 0x2C, colon: UInt8 = 0x3A
    static let openBracket: UInt8 = 0x5B, closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
    static let minus: UInt8 = 0x2D, plus: UInt8 = 0x2B, dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30, nine: UInt8 = 0x39
    static let lowerE: UInt8 = 0x65, upperE: UInt8 = 0x45
}

/// An array or object still open; kept on an explicit stack so that depth costs heap, not call stack.
private struct OpenContainer {
    var isObject: Bool
    var items: [JSONValue] = []
    var members: [String: JSONValue] = [:]
    var pendingKey: String = ""
}

private struct Parser {
    let input: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var position = 0
    /// Reused between strings so that escapes do not allocate a buffer each time.
    var scratch: [UInt8] = []

    init(input: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.input = input
        self.maxDepth = maxDepth
    }

    func fail(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? position, reason: reason)
    }

    mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case Byte.space, Byte.newline, Byte.carriageReturn, Byte.tab: position += 1
            default: return
            }
        }
    }

    /// The next non-whitespace byte, not consumed; nil at the end of input.
    mutating func peekToken() -> UInt8? {
        skipWhitespace()
        return position < input.count ? input[position] : nil
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseNested()
        if peekToken() != nil { throw fail("trailing characters after the value") }
        return value
    }

    /// Parses one value of any depth with a loop: open containers wait on `stack`.
    mutating func parseNested() throws(JSONParseError) -> JSONValue {
        var stack: [OpenContainer] = []
        while true {
            // Descend: read a value, or open a container and loop to read its first element.
            var value: JSONValue
            guard let byte = peekToken() else { throw fail("unexpected end of input") }
            switch byte {
            case Byte.openBracket, Byte.openBrace:
                if stack.count >= maxDepth { throw fail("nesting deeper than \(maxDepth)") }
                position += 1
                let isObject = byte == Byte.openBrace
                let closer = isObject ? Byte.closeBrace : Byte.closeBracket
                if peekToken() == closer {
                    position += 1
                    value = isObject ? .object([:]) : .array([])
                } else {
                    var container = OpenContainer(isObject: isObject)
                    if isObject { container.pendingKey = try parseKey() }
                    stack.append(container)
                    continue
                }
            default:
                value = try parseScalar(byte)
            }

            // Ascend: hand the value to its container; close containers that end here.
            while let last = stack.indices.last {
                if stack[last].isObject {
                    let key = stack[last].pendingKey
                    stack[last].members[key] = value
                    switch peekToken() {
                    case Byte.comma:
                        position += 1
                        stack[last].pendingKey = try parseKey()
                    case Byte.closeBrace:
                        position += 1
                        value = .object(stack.removeLast().members)
                        continue
                    case nil: throw fail("unexpected end of input")
                    default: throw fail("expected ',' or '}' in object")
                    }
                } else {
                    stack[last].items.append(value)
                    switch peekToken() {
                    case Byte.comma:
                        position += 1
                    case Byte.closeBracket:
                        position += 1
                        value = .array(stack.removeLast().items)
                        continue
                    case nil: throw fail("unexpected end of input")
                    default: throw fail("expected ',' or ']' in array")
                    }
                }
                break
            }
            if stack.isEmpty { return value }
        }
    }

    /// Reads `"key" :` and leaves the position at the member's value.
    mutating func parseKey() throws(JSONParseError) -> String {
        switch peekToken() {
        case Byte.quote: break
        case nil: throw fail("unexpected end of input")
        default: throw fail("expected a string as object key")
        }
        let key = try parseString()
        guard peekToken() == Byte.colon else {
            if position >= input.count { throw fail("unexpected end of input") }
            throw fail("expected ':' after object key")
        }
        position += 1
        return key
    }

    mutating func parseScalar(_ byte: UInt8) throws(JSONParseError) -> JSONValue {
        switch byte {
        case Byte.quote: return .string(try parseString())
        case Byte.minus, Byte.zero...Byte.nine: return try parseNumber()
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case Byte.closeBracket, Byte.closeBrace, Byte.comma, Byte.colon: throw fail("expected a value")
        default: throw fail("unexpected character")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { expected in
            guard input.count - start >= count else { return false }
            for offset in 0..<count where input[start + offset] != expected[offset] { return false }
            return true
        }
        guard matches else { throw fail("invalid literal", at: start) }
        position += count
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let negative = input[position] == Byte.minus
        if negative { position += 1 }
        guard position < input.count else { throw fail("unexpected end of input") }

        // Accumulate the integer part as it goes, so the common small-integer case needs no second pass.
        var magnitude: UInt64 = 0
        var overflowed = false
        let first = input[position]
        if first == Byte.zero {
            position += 1
        } else if first > Byte.zero && first <= Byte.nine {
            while position < input.count, case let digit = input[position], digit >= Byte.zero, digit <= Byte.nine {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(digit - Byte.zero))
                overflowed = overflowed || o1 || o2
                magnitude = sum
                position += 1
            }
        } else {
            throw fail("expected a digit in number")
        }

        var isInteger = true
        if position < input.count && input[position] == Byte.dot {
            isInteger = false
            position += 1
            try skipDigits()
        }
        if position < input.count && (input[position] == Byte.lowerE || input[position] == Byte.upperE) {
            isInteger = false
            position += 1
            if position < input.count && (input[position] == Byte.plus || input[position] == Byte.minus) {
                position += 1
            }
            try skipDigits()
        }

        if isInteger && !overflowed {
            if !negative && magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            if negative && magnitude <= UInt64(Int64.max) + 1 { return .int(Int64(truncatingIfNeeded: 0 &- magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw fail("number out of range", at: start) }
        return .double(number)
    }

    /// Requires at least one digit, as the grammar does after '.' and after an exponent marker.
    mutating func skipDigits() throws(JSONParseError) {
        let start = position
        while position < input.count && input[position] >= Byte.zero && input[position] <= Byte.nine {
            position += 1
        }
        if position == start {
            throw fail(position < input.count ? "expected a digit in number" : "unexpected end of input")
        }
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote. Plain runs are copied as whole slices.
    mutating func parseString() throws(JSONParseError) -> String {
        let opening = position
        position += 1
        var runStart = position
        var usedScratch = false
        while position < input.count {
            let byte = input[position]
            if byte == Byte.quote {
                let run = UnsafeBufferPointer(rebasing: input[runStart..<position])
                position += 1
                if !usedScratch { return String(decoding: run, as: UTF8.self) }
                scratch.append(contentsOf: run)
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == Byte.backslash {
                if !usedScratch {
                    usedScratch = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<position]))
                try parseEscape()
                runStart = position
            } else if byte < 0x20 {
                throw fail("control character in string")
            } else if byte < 0x80 {
                position += 1
            } else {
                try skipMultiByteScalar()
            }
        }
        throw fail("unterminated string", at: opening)
    }

    /// Validates one multi-byte UTF-8 sequence (no overlongs, no surrogates, at most U+10FFFF).
    mutating func skipMultiByteScalar() throws(JSONParseError) {
        let lead = input[position]
        let length: Int
        var lowest: UInt8 = 0x80, highest: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; highest = 0x9F
        case 0xF0: length = 4; lowest = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; highest = 0x8F
        default: throw fail("invalid UTF-8")
        }
        guard input.count - position >= length else { throw fail("invalid UTF-8") }
        let second = input[position + 1]
        guard second >= lowest && second <= highest else { throw fail("invalid UTF-8") }
        for offset in 2..<max(2, length) where input[position + offset] & 0xC0 != 0x80 {
            throw fail("invalid UTF-8")
        }
        position += length
    }

    /// Decodes the escape at `position` (a backslash) into `scratch`.
    mutating func parseEscape() throws(JSONParseError) {
        let start = position
        position += 1
        guard position < input.count else { throw fail("unterminated string") }
        let letter = input[position]
        position += 1
        switch letter {
        case Byte.quote, Byte.backslash, Byte.slash: scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var code = try parseHex4(escapeStart: start)
            if code >= 0xD800 && code <= 0xDBFF {
                // A high surrogate counts only when a low surrogate escape follows at once.
                guard input.count - position >= 2,
                      input[position] == Byte.backslash, input[position + 1] == UInt8(ascii: "u") else {
                    throw fail("unpaired surrogate", at: start)
                }
                let lowStart = position
                position += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard low >= 0xDC00 && low <= 0xDFFF else { throw fail("unpaired surrogate", at: start) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if code >= 0xDC00 && code <= 0xDFFF {
                throw fail("unpaired surrogate", at: start)
            }
            appendUTF8(code)
        default:
            throw fail("invalid escape", at: start)
        }
    }

    mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        guard input.count - position >= 4 else { throw fail("invalid \\u escape", at: escapeStart) }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case Byte.zero...Byte.nine: digit = byte - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape", at: escapeStart)
            }
            code = code << 4 | UInt32(digit)
            position += 1
        }
        return code
    }

    mutating func appendUTF8(_ code: UInt32) {
        switch code {
        case 0..<0x80:
            scratch.append(UInt8(code))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | code >> 6))
            scratch.append(UInt8(0x80 | code & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | code >> 12))
            scratch.append(UInt8(0x80 | code >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | code & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | code >> 18))
            scratch.append(UInt8(0x80 | code >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | code >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | code & 0x3F))
        }
    }
}
