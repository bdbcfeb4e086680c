import Testing
import SetRules
import SetWire

@Suite struct JSONParserTests {
    static func parse(_ text: String, maxDepth: Int = 32) -> Result<JSONValue, JSONParseError> {
        Result { () throws(JSONParseError) in try JSONParser.parse(Array(text.utf8), maxDepth: maxDepth) }
    }

    static func failure(_ bytes: [UInt8], maxDepth: Int = 32) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(bytes, maxDepth: maxDepth)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("null", JSONValue.null), ("true", true), ("false", false), (" \t\r\n7 \n", 7),
        ("0", 0), ("-0", 0), ("-12", -12), ("9223372036854775807", .int(.max)),
        ("-9223372036854775808", .int(.min)), ("9223372036854775808", .double(9223372036854775808)),
        ("-9223372036854775809", .double(-0x1p63)), ("123456789012345678901234567890", .double(1.2345678901234568e29)),
        ("1.5", .double(1.5)), ("-0.0", .double(-0.0)), ("1e2", .double(100)), ("1E+2", .double(100)),
        ("2.5e-3", .double(0.0025)), ("1e-400", .double(0)), ("1.0", .double(1)),
        (#""""#, ""), (#""a/b""#, "a/b"), (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""\u00e9\u00E9\u0000""#, "éé\u{0}"), (#""\ud83c\udfb4""#, "🎴"), (#""naïve 🎴""#, "naïve 🎴"),
        ("[]", []), ("[ 1 , [ ] , { } ]", [1, [], [:]]), (#"{"a":1,"b":[true,null]}"#, ["a": 1, "b": [true, nil]]),
        (#"{"k":1,"k":2}"#, ["k": 2]), (#"{ "x" : { "y" : "z" } }"#, ["x": ["y": "z"]]),
    ] as [(String, JSONValue)])
    func validDocuments(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        ("", 0, "unexpected end of input"),
        ("   ", 3, "unexpected end of input"),
        ("nul", 0, "invalid literal"),
        ("True", 0, "unexpected character"),
        ("1 2", 2, "trailing characters after the value"),
        ("01", 1, "trailing characters after the value"),
        ("[01]", 2, "expected ',' or ']' in array"),
        ("-", 1, "unexpected end of input"),
        ("-a", 1, "expected a digit in number"),
        ("+1", 0, "unexpected character"),
        (".5", 0, "unexpected character"),
        ("1.", 2, "unexpected end of input"),
        ("1.e3", 2, "expected a digit in number"),
        ("1e", 2, "unexpected end of input"),
        ("1e+x", 3, "expected a digit in number"),
        ("1e400", 0, "number out of range"),
        ("[-1e999]", 1, "number out of range"),
        ("[1,]", 3, "expected a value"),
        ("[1 2]", 3, "expected ',' or ']' in array"),
        ("[1", 2, "unexpected end of input"),
        ("{1:2}", 1, "expected a string as object key"),
        (#"{"a" 1}"#, 5, "expected ':' after object key"),
        (#"{"a":1,}"#, 7, "expected a string as object key"),
        (#"{"a":1 "b":2}"#, 7, "expected ',' or '}' in object"),
        (#"{"a":"#, 5, "unexpected end of input"),
        (#"{"a""#, 4, "unexpected end of input"),
        (#""abc"#, 0, "unterminated string"),
        (#"["abc"#, 1, "unterminated string"),
        (#""a\x""#, 2, "invalid escape"),
        (#""a\u12""#, 2, "invalid \\u escape"),
        (#""\uzzzz""#, 1, "invalid \\u escape"),
        (#""\ud83c""#, 1, "unpaired surrogate"),
        (#""\ud83c\u0041""#, 1, "unpaired surrogate"),
        (#""\udfb4""#, 1, "unpaired surrogate"),
        ("\"a\tb\"", 2, "control character in string"),
        ("\"a\nb\"", 2, "control character in string"),
        ("[1] x", 4, "trailing characters after the value"),
        ("\u{FEFF}1", 0, "unexpected character"),
    ])
    func invalidDocuments(text: String, offset: Int, reason: String) {
        #expect(Self.parse(text) == .failure(JSONParseError(offset: offset, reason: reason)))
    }

    @Test(arguments: [
        ([0x22, 0xFF, 0x22], 1), // never valid in UTF-8
        ([0x22, 0x61, 0xC0, 0xAF, 0x22], 2), // overlong "/"
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1), // an encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1), // above U+10FFFF
        ([0x22, 0xE2, 0x9C, 0x22], 1), // truncated sequence
        ([0x22, 0x80, 0x22], 1), // lone continuation byte
    ] as [([UInt8], Int)])
    func invalidUTF8IsRefused(bytes: [UInt8], offset: Int) {
        #expect(Self.failure(bytes) == JSONParseError(offset: offset, reason: "invalid UTF-8"))
    }

    @Test func bareNonASCIIOutsideStringsIsRefused() {
        #expect(Self.failure([0xC3, 0xA9])?.reason == "unexpected character")
    }

    @Test func depthLimitCountsArraysAndObjects() throws {
        let within = String(repeating: "[{\"k\":", count: 16) + "1" + String(repeating: "}]", count: 16)
        #expect(try JSONParser.parse(within).arrayValue != nil)
        let beyond = "[" + within + "]"
        #expect(Self.parse(beyond) == .failure(JSONParseError(offset: 92, reason: "nesting deeper than 32")))
        #expect(try JSONParser.parse("[[1]]", maxDepth: 2) == [[1]])
        #expect(Self.failure(Array("[[1]]".utf8), maxDepth: 1) == JSONParseError(offset: 1, reason: "nesting deeper than 1"))
        #expect(Self.failure(Array("1".utf8), maxDepth: 0) == nil)
        #expect(Self.failure(Array("[]".utf8), maxDepth: 0)?.reason == "nesting deeper than 0")
    }

    @Test func hundredThousandOpenBracketsFailCleanly() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(Self.failure(deep) == JSONParseError(offset: 32, reason: "nesting deeper than 32"))
        // Even with the limit lifted the parser keeps its stack on the heap, so it only runs out of input.
        #expect(Self.failure(deep, maxDepth: .max) == JSONParseError(offset: 100_000, reason: "unexpected end of input"))
        // A balanced 100,000-deep document is not tried: freeing such a JSONValue recurses, which is
        // why the default limit stays small.
    }

    @Test func longStringsAndManyMembers() throws {
        let long = String(repeating: "é✓x\\n", count: 20_000)
        let text = "{\"s\":\"" + long + "\"}"
        #expect(try JSONParser.parse(text)["s"]?.stringValue == String(repeating: "é✓x\n", count: 20_000))
        let members = (0..<1_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(try JSONParser.parse("{" + members + "}").objectValue?.count == 1_000)
    }

    /// Random bytes, truncations and single-byte mutations of valid documents, deep nesting, huge
    /// numbers, long strings: the parser must answer a value or an error, and any value must survive
    /// a write and a second parse.
    @Test func fuzzNeverCrashesAndRoundTrips() throws {
        var random = SplitMix64(seed: 0xF022)
        let interesting: [UInt8] = Array("[]{}\":,\\u0123456789-+.eEtrufalsn \t\r\n".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xED, 0xF0, 0xFF]
        var parsedCount = 0
        for round in 0..<5_000 {
            var input: [UInt8]
            switch round % 6 {
            case 0:
                input = (0..<random.uniform(below: 40)).map { _ in
                    random.next() & 1 == 0 ? UInt8(truncatingIfNeeded: random.next()) : interesting[random.uniform(below: interesting.count)]
                }
            case 1:
                input = JSONWriter.bytes(RandomJSON.value(&random))
                input.removeLast(random.uniform(below: input.count + 1))
            case 2, 3:
                input = JSONWriter.bytes(RandomJSON.value(&random))
                let position = random.uniform(below: input.count)
                input[position] = random.next() & 1 == 0 ? UInt8(truncatingIfNeeded: random.next()) : interesting[random.uniform(below: interesting.count)]
            case 4:
                let depth = random.uniform(below: 80)
                let opener = random.next() & 1 == 0 ? "[" : "{\"a\":"
                let closer = opener == "[" ? "]" : "}"
                input = Array((String(repeating: opener, count: depth) + "0" + String(repeating: closer, count: random.uniform(below: depth + 2))).utf8)
            default:
                let digits = String((0..<random.uniform(below: 600)).map { _ in Character(String(random.uniform(below: 10))) })
                let forms: [String] = ["-1" + digits, "1." + digits + "e" + String(digits.prefix(4)),
                                       "0.0" + digits + "E-" + String(digits.suffix(3)),
                             "\"" + String(repeating: "ab\\u00e9\\ud83c\\udfb4", count: random.uniform(below: 500)) + "\""]
                input = Array(forms[random.uniform(below: forms.count)].utf8)
            }

            let parsed: JSONValue
            do {
                parsed = try JSONParser.parse(input)
            } catch {
                #expect(error.offset >= 0 && error.offset <= input.count)
                #expect(!error.reason.isEmpty)
                continue
            }
            parsedCount += 1
            let written = JSONWriter.bytes(parsed)
            let reparsed = try JSONParser.parse(written)
            #expect(reparsed == RandomJSON.normalized(parsed), "\(String(decoding: input, as: UTF8.self))")
            #expect(JSONWriter.bytes(reparsed) == written)
        }
        // The mix must exercise both outcomes, or the test proves little.
        #expect(parsedCount > 500 && parsedCount < 4_500)
    }
}
