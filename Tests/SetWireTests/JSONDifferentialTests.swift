import Foundation
import SetRules
import SetWire
import Testing

/// The wire's hand-written JSON held against an outside oracle, Foundation's `JSONSerialization`:
/// both parse the same documents (valid, generated and mutated into hostile ones) to the same
/// values or both refuse them, and each one's output reads back as the value it wrote.
@Suite struct JSONDifferentialTests {
    /// Where Foundation on Linux is more lenient than the JSON grammar (RFC 8259) and the wire, which
    /// follow the grammar and keep nesting shallow. Any other disagreement fails the test.
    enum KnownLeniency: CaseIterable {
        /// `[1,]` and `{"a":1,}`: Foundation drops the trailing comma.
        case trailingComma
        /// A byte-order mark before the document.
        case byteOrderMark
        /// Nesting deeper than the wire's limit (Foundation allows a few hundred levels).
        case deepNesting
        /// A NUL byte: Foundation takes it for the end of the input, or near the start for a sign
        /// of UTF-16 (it reads `"\0" "0"` as the number 0).
        case nulByte

        func applies(to bytes: [UInt8], ourError: JSONParseError) -> Bool {
            switch self {
            case .trailingComma:
                let significant = bytes.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
                return zip(significant, significant.dropFirst()).contains { $0 == 0x2C && ($1 == 0x5D || $1 == 0x7D) }
            case .byteOrderMark: return bytes.starts(with: [0xEF, 0xBB, 0xBF])
            case .deepNesting: return ourError.reason.hasPrefix("nesting deeper than")
            case .nulByte: return bytes.contains(0x00)
            }
        }
    }

    // MARK: The oracle, as JSONValue

    /// Foundation's reading of `bytes`, or nil where it refuses them.
    static func foundationParse(_ bytes: [UInt8]) -> JSONValue? {
        guard let any = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return nil }
        return value(of: any)
    }

    /// Foundation's objects as JSONValue: integers that fit stay integers, other numbers become doubles.
    static func value(of any: Any) -> JSONValue? {
        switch any {
        case is NSNull: return .null
        case let text as String: return .string(text)
        case let array as [Any]:
            let items = array.compactMap(value(of:))
            return items.count == array.count ? .array(items) : nil
        case let object as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, member) in object {
                guard let converted = value(of: member) else { return nil }
                members[key] = converted
            }
            return .object(members)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": return .bool(number.boolValue)
            case "i", "s", "l", "q": return .int(number.int64Value)
            default: return .double(number.doubleValue)
            }
        default: return nil
        }
    }

    /// The value as Foundation objects, for its writer.
    static func foundationObject(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): flag
        case .int(let number): NSNumber(value: number)
        case .double(let number): number
        case .string(let text): text
        case .array(let items): items.map(foundationObject)
        case .object(let members): members.mapValues(foundationObject)
        }
    }

    /// Equal as JSON: numbers compare by value whether written as integer or double.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x == y
        case (.int, .double), (.double, .int), (.double, .double): return nearlyEqual(number(a)!, number(b)!)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, member in y[key].map { same(member, $0) } ?? false }
        default: return a == b
        }
    }

    /// Within sixteen units in the last place: Foundation on Linux rounds some long decimals a few
    /// ulps off, and reads integers of 16 or more digits as doubles. Swift's own `Double(String)`, which
    /// the wire uses, rounds correctly.
    static func nearlyEqual(_ x: Double, _ y: Double) -> Bool {
        x == y || abs(x - y) <= 16 * max(x.ulp, y.ulp)
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let x): Double(x)
        case .double(let x): x
        default: nil
        }
    }

    /// Both parsers on the same bytes: the same value, or both refusing, or a known leniency.
    static func expectAgreement(_ bytes: [UInt8], _ sourceLocation: SourceLocation = #_sourceLocation) {
        let oracle = foundationParse(bytes)
        let ours: Result<JSONValue, JSONParseError> = Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
        let shown = String(decoding: bytes.prefix(120), as: UTF8.self).debugDescription
        switch (ours, oracle) {
        case (.success(let value), .some(let expected)):
            #expect(same(value, expected), "\(shown): ours \(value), Foundation's \(expected)", sourceLocation: sourceLocation)
        case (.success(let value), .none):
            Issue.record("\(shown): ours accepts it as \(value), Foundation refuses it", sourceLocation: sourceLocation)
        case (.failure(let error), .some):
            let known = KnownLeniency.allCases.contains { $0.applies(to: bytes, ourError: error) }
            #expect(known, "\(shown): Foundation accepts it, ours refuses it (\(error.reason))", sourceLocation: sourceLocation)
        case (.failure, .none): break
        }
    }

    // MARK: Documents

    static let handWritten: [String] = [
        "null", "true", "false", " \t\r\n7 \n", "0", "-0", "-12", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890", "1.5", "-0.0", "1e2",
        "1E+2", "2.5e-3", "1e-400", "1.0", "0.1", #""""#, #""a/b""#, #""\"\\\/\b\f\n\r\t""#, #""\u00e9\u00E9\u0000""#,
        #""\ud83c\udfb4""#, #""naïve 🎴""#, "[]", "[ 1 , [ ] , { } ]", #"{"a":1,"b":[true,null]}"#, #"{"k":1,"k":2}"#,
        // Refused by the grammar.
        "", "   ", "nul", "True", "1 2", "01", "[01]", "-", "-a", "+1", ".5", "1.", "1.e3", "1e", "1e+x", "1e400",
        "[-1e999]", "[1,]", "[1 2]", "[1", "{1:2}", #"{"a" 1}"#, #"{"a":1,}"#, #"{"a":1 "b":2}"#, #""abc"#,
        #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00x""#, #""\ud800\u0041""#, "\"a\u{1}b\"", "\"tab\tin\"", "\u{FEFF}7",
        String(repeating: "[", count: 33) + String(repeating: "]", count: 33),
        String(repeating: "[", count: 32) + String(repeating: "]", count: 32),
        String(repeating: "{\"a\":", count: 40) + "1" + String(repeating: "}", count: 40),
        // Lines from the wire.
        #"{"type":"join","name":"ann","match":"demo"}"#, #"{"type":"select","card":"1 open green squiggle","id":7}"#,
        #"{"type":"ping","time":-9223372036854775808}"#, #"{"type":"act","action":{"kind":"claim"},"seat":null}"#,
    ]

    @Test func handWrittenDocumentsParseAlike() {
        for text in Self.handWritten { Self.expectAgreement(Array(text.utf8)) }
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x5B, 0x80, 0x5D], [0x00]] {
            Self.expectAgreement(bytes)
        }
    }

    /// Seeded random documents: every string escape, control and non-ASCII character, integers of
    /// every size and doubles. Our writer's lines read back in Foundation; Foundation's in ours.
    @Test func generatedDocumentsReadBackInTheOtherParser() throws {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<1_500 {
            let value = Self.randomValue(&random, depth: 0)
            let ours = JSONWriter.bytes(value)
            let readByFoundation = try #require(Self.foundationParse(ours), "\(JSONWriter.string(value))")
            #expect(Self.same(readByFoundation, value), "\(JSONWriter.string(value))")
            #expect(try Self.same(JSONParser.parse(ours), value))
            let theirs = try JSONSerialization.data(withJSONObject: Self.foundationObject(value), options: [.fragmentsAllowed, .sortedKeys])
            #expect(try Self.same(JSONParser.parse(Array(theirs)), value), "\(String(decoding: theirs, as: UTF8.self))")
        }
    }

    /// The same documents with bytes flipped, inserted and removed: hostile input for both parsers.
    @Test func mutatedDocumentsAreAcceptedOrRefusedAlike() {
        var random = SplitMix64(seed: 99)
        let alphabet = Array(#"{}[],:"\ 0123456789eE+-.tfnu"#.utf8) + [0x00, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        let seeds = Self.handWritten.map { Array($0.utf8) } + (0..<200).map { _ in JSONWriter.bytes(Self.randomValue(&random, depth: 0)) }
        for original in seeds {
            for _ in 0..<15 {
                var bytes = original
                for _ in 0...random.uniform(below: 3) {
                    let at = bytes.isEmpty ? 0 : random.uniform(below: bytes.count)
                    let byte = alphabet[random.uniform(below: alphabet.count)]
                    switch random.uniform(below: 3) {
                    case 0 where !bytes.isEmpty: bytes[at] = byte
                    case 1 where !bytes.isEmpty: bytes.remove(at: at)
                    default: bytes.insert(byte, at: at)
                    }
                }
                Self.expectAgreement(bytes)
            }
        }
    }

    static func randomValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        switch random.uniform(below: depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.uniform(below: 2) == 0)
        case 2:
            let magnitude = [Int64(9), 1_000, Int64(Int32.max), .max][random.uniform(below: 4)]
            let value = Int64(bitPattern: random.next()) % magnitude
            return .int(random.uniform(below: 10) == 0 ? [Int64.min, .max, 0][random.uniform(below: 3)] : value)
        case 3:
            let double = (random.unitInterval() - 0.5) * pow(10, Double(random.uniform(below: 40)) - 20)
            return .double(double.rounded() == double ? double + 0.5 : double)
        case 4: return .string(randomString(&random))
        case 5: return .array((0..<random.uniform(below: 5)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<random.uniform(below: 5) { members[randomString(&random)] = randomValue(&random, depth: depth + 1) }
            return .object(members)
        }
    }

    /// Strings of awkward characters. U+FEFF is left out: Foundation on Linux drops it from every
    /// string it reads, so the two could never agree on it.
    static func randomString(_ random: inout SplitMix64) -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{C}", "\n", "\r", "\t", "\u{1F}",
                                      "\u{7F}", "é", "\u{2028}", "漢", "🎴", "\u{10FFFF}", "\u{301}"]
        var text = String.UnicodeScalarView()
        for _ in 0..<random.uniform(below: 12) { text.append(pool[random.uniform(below: pool.count)]) }
        return String(text)
    }
}
