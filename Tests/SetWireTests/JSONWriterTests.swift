import Testing
import SetRules
import SetWire

/// Seeded random documents for round-trip and fuzz tests.
enum RandomJSON {
    static let stringPieces: [String] = [
        "a", "Z", " ", "0", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
        "é", "e\u{301}", "✓", "🎴", "\u{2028}", "\u{FFFF}", "\u{10FFFF}", "日本", "card", "{}[],:",
    ]

    static func string(_ random: inout SplitMix64) -> String {
        var text = ""
        for _ in 0..<random.uniform(below: 12) {
            text += stringPieces[random.uniform(below: stringPieces.count)]
        }
        return text
    }

    static func double(_ random: inout SplitMix64) -> Double {
        switch random.uniform(below: 4) {
        case 0: return Double(random.uniform(below: 2_000_001) - 1_000_000) / 1000
        case 1: return (random.unitInterval() - 0.5) * 1e-6
        case 2:
            // Any finite bit pattern, so subnormals and huge exponents come up too.
            while true {
                let candidate = Double(bitPattern: random.next())
                if candidate.isFinite { return candidate }
            }
        default: return random.unitInterval() * 1e300
        }
    }

    static func value(_ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
        let kinds = depth >= 5 ? 6 : 8
        switch random.uniform(below: kinds) {
        case 0: return .null
        case 1: return .bool(random.next() & 1 == 0)
        case 2: return .int(Int64(bitPattern: random.next()) >> Int64(random.uniform(below: 64)))
        case 3: return .double(double(&random))
        case 4, 5: return .string(string(&random))
        case 6: return .array((0..<random.uniform(below: 5)).map { _ in value(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<random.uniform(below: 5) { members[string(&random)] = value(&random, depth: depth + 1) }
            return .object(members)
        }
    }

    /// What the wire makes of a value: integral doubles within 2^53 come back as integers.
    static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let number) where number.rounded(.towardZero) == number && number.magnitude <= 0x1p53:
            return .int(Int64(number))
        case .array(let items): return .array(items.map(normalized))
        case .object(let members): return .object(members.mapValues(normalized))
        default: return value
        }
    }
}

@Suite struct JSONWriterTests {
    @Test(arguments: [
        (JSONValue.null, "null"), (true, "true"), (false, "false"),
        (0, "0"), (-1, "-1"), (.int(.max), "9223372036854775807"), (.int(.min), "-9223372036854775808"),
        (.double(42), "42"), (.double(-0.0), "0"), (.double(0.1), "0.1"), (.double(-2.5), "-2.5"),
        (.double(1e-7), "1e-07"), (.double(1e300), "1e+300"), (.double(0x1p53), "9007199254740992"),
        (.double(0x1p54), "1.8014398509481984e+16"), (.double(.infinity), "null"), (.double(.nan), "null"),
        ("", #""""#), ("plain", #""plain""#),
        ([], "[]"), ([:], "{}"),
    ] as [(JSONValue, String)])
    func goldenScalars(value: JSONValue, expected: String) {
        #expect(JSONWriter.string(value) == expected)
        #expect(JSONWriter.bytes(value) == Array(expected.utf8))
    }

    @Test func escapesOnlyWhatRFC8259Requires() {
        let value = JSONValue.string("a\"b\\c/d\n\r\t\u{8}\u{C}\u{0}\u{1}\u{1F}\u{7F}é🎴\u{2028}")
        #expect(JSONWriter.string(value) == #""a\"b\\c/d\n\r\t\b\f\u0000\u0001\u001f"# + "\u{7F}é🎴\u{2028}\"")
    }

    @Test func objectKeysAreSortedByUTF8Bytes() {
        let value: JSONValue = ["b": 1, "a": 2, "B": 3, "é": 4, "z": 5, "": 6, "aa": 7]
        #expect(JSONWriter.string(value) == #"{"":6,"B":3,"a":2,"aa":7,"b":1,"z":5,"é":4}"#)
        // U+212B (E2 84 AB) normalizes to U+00C5, which String's `<` puts before U+00C6 (C3 86); bytes do not.
        let tricky: JSONValue = ["\u{212B}": 1, "\u{C6}": 2]
        #expect(JSONWriter.string(tricky) == "{\"\u{C6}\":2,\"\u{212B}\":1}")
    }

    @Test func nestedValuesAreCompact() {
        let value: JSONValue = ["list": [1, [true, nil], [:]], "obj": ["k": "v", "e": []]]
        #expect(JSONWriter.string(value) == #"{"list":[1,[true,null],{}],"obj":{"e":[],"k":"v"}}"#)
    }

    @Test func writeAppendsToTheBuffer() {
        var buffer = Array("prefix ".utf8)
        JSONWriter.write(["x": 1], into: &buffer)
        buffer.append(0x0A)
        #expect(String(decoding: buffer, as: UTF8.self) == "prefix {\"x\":1}\n")
    }

    @Test func randomValuesRoundTrip() throws {
        var random = SplitMix64(seed: 2024)
        for _ in 0..<2_000 {
            let value = RandomJSON.value(&random)
            let text = JSONWriter.bytes(value)
            let parsed = try JSONParser.parse(text, maxDepth: 32)
            #expect(parsed == RandomJSON.normalized(value), "\(JSONWriter.string(value))")
            #expect(JSONWriter.bytes(parsed) == text)
        }
    }

    @Test func doublesKeepEveryBit() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<5_000 {
            let number = RandomJSON.double(&random)
            let parsed = try JSONParser.parse(JSONWriter.bytes(.double(number)))
            switch parsed {
            case .double(let back): #expect(back.bitPattern == number.bitPattern)
            case .int(let back): #expect(Double(back) == number)
            default: Issue.record("\(number) came back as \(parsed)")
            }
        }
    }
}
