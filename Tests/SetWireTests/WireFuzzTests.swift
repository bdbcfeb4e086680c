import SetRules
import SetWire
import Testing

/// Hostile input for the line reader and the message decoder: seeded, so a failure names a case
/// that can be replayed, and large enough to matter (about 30,000 cases in all).
@Suite struct WireFuzzTests {
    /// The codes a line can earn from the decoder; all others need a server's judgement.
    static let decoderCodes: Swift.Set<ErrorCode> = [.badJSON, .notAnObject, .unknownType, .missingField, .badField, .unsupportedVersion]

    /// One valid line of each client message type, with every field it can carry.
    static let templates: [(type: String, fields: [(String, String)])] = [
        ("join", [("name", "\"ann\""), ("match", "\"demo\""), ("role", "\"player\""), ("mode", "\"duel\""), ("seat", "0"),
                  ("token", "\"5c90c98e188c0aff9f13e8351c8397c8\""), ("lastSeq", "17"), ("protocol", "1"), ("id", "1")]),
        ("select", [("card", "9"), ("seat", "0"), ("id", "\"s1\"")]),
        ("claim", [("seat", "0"), ("id", "2")]),
        ("deal", [("seat", "1"), ("id", "3")]),
        ("hint", [("seat", "0"), ("id", "4")]),
        ("pass", [("seat", "0"), ("id", "5")]),
        ("resign", [("seat", "0"), ("id", "6")]),
        ("rematch", [("seat", "0"), ("id", "7")]),
        ("ping", [("time", "42"), ("id", "8")]),
        ("list", [("id", "\"l\"")]),
        ("snapshot", [("id", "9")]),
    ]

    static func line(type: String, _ fields: [(String, String)]) -> String {
        "{" + (["\"type\":\"\(type)\""] + fields.map { "\"\($0.0)\":\($0.1)" }).joined(separator: ",") + "}"
    }

    /// Wrong, odd and borderline values, as JSON text: every type, out of range, huge, null.
    static let oddValues: [String] = {
        let nested = { (depth: Int) in String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        return [
            "null", "true", "false", "0", "1", "2", "-1", "80", "81", "99", "1.5", "1.0", "-0", "2e1", "1e2", "0.5e1",
            "1e400", "-1e400", "1e-400", "99999999999999999999", "-99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "9223372036854775808", "2147483647", "2147483648", "4294967296",
            String(repeating: "9", count: 400), "0." + String(repeating: "0", count: 400) + "1",
            "\"\"", "\" \"", "\"x\"", "\"1\"", "\"0\"", "\"ann\"", "\" ann\"", "\"ann \"", "\"player\"", "\"spectator\"",
            "\"solo\"", "\"referee\"", "\"demo\"", "\"no spaces\"", "\"\\u0000\"", "\"\\u007f\"", "\"\\ud800\"", "\"\\udfff\"",
            "\"\\u2028\"", "\"é✓🎴\"", "\"" + String(repeating: "a", count: 24) + "\"", "\"" + String(repeating: "a", count: 25) + "\"",
            "\"" + String(repeating: "b", count: 64) + "\"", "\"" + String(repeating: "b", count: 65) + "\"",
            "\"" + String(repeating: "✓", count: 5_000) + "\"",
            "\"2 striped green diamonds\"", "\"1 open green squiggle\"", "\"0 solid red diamond\"", "\"4 solid red diamonds\"",
            "\"-9223372036854775808 solid red diamonds\"", "\"9223372036854775807 open purple ovals\"",
            "\"99999999999999999999 open purple ovals\"",
            "[]", "[1]", "{}", "{\"id\":1}", nested(20), nested(40), "[" + String(repeating: "0,", count: 2_000) + "0]",
        ]
    }()

    /// What each field takes, from Protocol.md; nil means "this value is fine".
    static func verdict(field: String, value: JSONValue) -> ErrorCode? {
        if value == .null {
            return ["name", "card"].contains(field) ? .missingField : nil
        }
        func integer(in range: ClosedRange<Int64>) -> ErrorCode? {
            guard let number = value.intValue, range.contains(number) else { return .badField }
            return nil
        }
        switch field {
        case "id":
            if let text = value.stringValue { return text.utf8.count <= 64 ? nil : .badField }
            if case .int = value { return nil }
            return .badField
        case "name":
            guard let name = value.stringValue else { return .badField }
            // Protocol.md: no control, format or separator characters.
            let printable = name.unicodeScalars.allSatisfy { scalar in
                let category = scalar.properties.generalCategory
                return ![.control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse].contains(category)
                    && (scalar == " " || !scalar.properties.isWhitespace)
            }
            return !name.isEmpty && name.count <= 24 && printable && !name.hasPrefix(" ") && !name.hasSuffix(" ") ? nil : .badField
        case "match":
            guard let name = value.stringValue else { return .badField }
            let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
            return !name.isEmpty && name.utf8.count <= 32 && allowed ? nil : .badField
        case "role": return ["player", "spectator"].contains(value.stringValue ?? "") ? nil : .badField
        case "mode": return ["duel", "solo"].contains(value.stringValue ?? "") ? nil : .badField
        case "token": return value.stringValue == nil ? .badField : nil
        case "seat": return integer(in: 0...1)
        case "lastSeq": return integer(in: 0...Int64(Int32.max))
        case "time": return integer(in: Int64.min...Int64.max)
        case "protocol":
            if let problem = integer(in: 0...Int64(Int32.max)) { return problem }
            return value.intValue == 1 ? nil : .unsupportedVersion
        case "card":
            if let id = value.intValue { return (0...80).contains(id) ? nil : .badField }
            return value.stringValue.flatMap { Card(name: $0) } == nil ? .badField : nil
        default: return .badField
        }
    }

    @Test func everyTemplateIsValid() throws {
        for (type, fields) in Self.templates {
            let decoded = ClientMessageDecoder.decode(Array(Self.line(type: type, fields).utf8))
            #expect((try? decoded.get()) != nil, "\(type): \(decoded)")
        }
    }

    /// Every field of every message type, replaced by every odd value or left out: refused with
    /// the code and field name the protocol promises, or accepted when the value is in fact fine.
    @Test func everyMessageTypeWithEveryFieldWrong() throws {
        var cases = 0, refused = 0
        for (type, fields) in Self.templates {
            for (index, (field, _)) in fields.enumerated() {
                for replacement in Self.oddValues + [nil] {
                    var mutated = fields
                    if let replacement { mutated[index].1 = replacement } else { mutated.remove(at: index) }
                    let text = Self.line(type: type, mutated)
                    cases += 1
                    let expected: ErrorCode?
                    if let replacement {
                        do { expected = Self.verdict(field: field, value: try JSONParser.parse(replacement)) } catch { expected = .badJSON }
                    } else {
                        expected = ["name", "card"].contains(field) ? .missingField : nil
                    }
                    switch ClientMessageDecoder.decode(Array(text.utf8)) {
                    case .success:
                        #expect(expected == nil, "\(text) was accepted")
                    case .failure(let error):
                        refused += 1
                        #expect(error.code == expected, "\(text)")
                        #expect(!error.message.isEmpty && !error.fatal)
                        if error.code == .badField || error.code == .missingField {
                            #expect(error.details["field"] == .string(field), "\(text)")
                        }
                        // The id travels back on the error so the client can match it, unless it is the culprit.
                        if field != "id", error.code != .badJSON, let id = mutated.first(where: { $0.0 == "id" }) {
                            #expect(error.details["id"] == (try? JSONParser.parse(id.1)), "\(text)")
                        }
                    }
                }
            }
        }
        // The type itself: wrong, unknown, absent.
        for replacement in Self.oddValues + ["\"teleport\"", "\"JOIN\"", "\"join \""] {
            let text = "{\"type\":\(replacement)}"
            cases += 1
            guard case .failure(let error) = ClientMessageDecoder.decode(Array(text.utf8)) else {
                Issue.record("\(text) was accepted")
                continue
            }
            refused += 1
            #expect([.badJSON, .unknownType, .badField, .missingField].contains(error.code), "\(text)")
            if error.code != .badJSON { #expect(error.details["field"] == "type", "\(text)") }
        }
        #expect(cases > 1_900 && refused > 1_200)
    }

    /// Every strict prefix of a valid line, and of lines with odd values, is bad JSON.
    @Test func everyTruncatedLineIsBadJSON() throws {
        var cases = 0
        var lines = Self.templates.map { Self.line(type: $0.type, $0.fields) }
        lines += ["{\"type\":\"select\",\"card\":\"2 striped green diamonds\",\"id\":\"é✓🎴\",\"x\":[1,{\"y\":null},-2.5e-3]}"]
        for line in lines {
            let bytes = Array(line.utf8)
            for length in 1..<bytes.count {
                cases += 1
                guard case .failure(let error) = ClientMessageDecoder.decode(Array(bytes[..<length])) else {
                    Issue.record("prefix \(length) of \(line) was accepted")
                    continue
                }
                #expect(error.code == .badJSON && !error.message.isEmpty)
            }
        }
        #expect(cases > 400)
    }

    /// Well-formed JSON that is not an object, and deep or huge documents.
    @Test func documentsThatAreNotMessages() throws {
        let deep = String(repeating: "[", count: 100_000)
        // nil: accepted.
        let cases: [(String, ErrorCode?)] = [
            ("[]", .notAnObject), ("[{\"type\":\"ping\"}]", .notAnObject), ("\"ping\"", .notAnObject), ("42", .notAnObject),
            ("null", .notAnObject), ("true", .notAnObject), ("1e400", .badJSON), (String(repeating: "7", count: 100_000), .badJSON),
            (deep, .badJSON), (deep + String(repeating: "]", count: 100_000), .badJSON),
            ("{\"type\":\"ping\",\"x\":" + deep + "}", .badJSON),
            (String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000), .badJSON),
            ("{\"type\":\"ping\",\"pad\":\"" + String(repeating: "é", count: 200_000) + "\"}", nil),
            ("{}", .missingField), ("{\"type\":\"ping\"} {}", .badJSON), ("{\"type\":\"ping\",}", .badJSON),
        ]
        for (text, code) in cases {
            switch ClientMessageDecoder.decode(Array(text.utf8)) {
            case .success: #expect(code == nil, "\(text.prefix(80)) was accepted")
            case .failure(let error): #expect(error.code == code, "\(text.prefix(80))")
            }
        }
    }

    /// A stream of garbage, valid lines and mutants, fed in random chunkings: the reader agrees with
    /// the one-shot oracle, never holds more than a line's worth (and its "\\r"), and every line it yields that is
    /// not blank is either a message or a coded, explained refusal.
    @Test func randomStreamsInRandomChunkings() throws {
        var random = SplitMix64(seed: 0x5E7_F022)
        let maxLineBytes = 512
        var lines = 0, decoded = 0
        var counts: [ErrorCode: Int] = [:]
        for round in 0..<100 {
            var stream: [UInt8] = []
            for _ in 0..<250 { stream += Self.garbageLine(&random, maxLineBytes: maxLineBytes) + [0x0A] }
            stream += Self.garbageLine(&random, maxLineBytes: maxLineBytes)  // an unfinished tail
            let expected = LineReaderTests.oracle(stream, maxLineBytes: maxLineBytes)
            let chunking: [Int] = switch round % 4 {
            case 0: [1]
            case 1: [7, 2, 4096]
            default: (0..<64).map { _ in 1 + random.uniform(below: round % 4 == 2 ? 16 : 3_000) }
            }
            let (got, maxPending) = LineReaderTests.read(stream, chunkSizes: (0...).lazy.map { chunking[$0 % chunking.count] }, maxLineBytes: maxLineBytes)
            #expect(got == expected, "round \(round)")
            #expect(maxPending <= maxLineBytes + 1, "a line's worth, and room for the \\r that may end it")
            for line in got {
                lines += 1
                switch line {
                case .tooLong(let count): #expect(count > maxLineBytes); counts[.lineTooLong, default: 0] += 1
                case .invalidUTF8: counts[.invalidUTF8, default: 0] += 1
                case .complete(let bytes):
                    let text = String(decoding: bytes, as: UTF8.self)
                    let blank = !text.contains(where: { !$0.isWhitespace })
                    #expect(ClientMessageDecoder.isBlank(bytes) == blank, "\(text)")
                    guard !blank else { continue }
                    switch ClientMessageDecoder.decode(bytes) {
                    case .success: decoded += 1
                    case .failure(let error):
                        counts[error.code, default: 0] += 1
                        #expect(Self.decoderCodes.contains(error.code), "\(text)")
                        #expect(!error.message.isEmpty && !error.fatal)
                    }
                }
            }
        }
        #expect(lines >= 25_000)
        // The mix must reach every kind of refusal and some successes, or it proves little.
        for code in Self.decoderCodes.union([.lineTooLong, .invalidUTF8]) { #expect(counts[code, default: 0] > 0, "\(code): \(counts)") }
        #expect(decoded > 100)
    }

    static let interesting: [UInt8] = Array("[]{}\":,\\u0123456789-+.eEtrufalsn \t\r".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xA9, 0xED, 0xA0, 0xF0, 0xF4, 0xF5, 0xFF]

    /// One line (no newline) of some kind of trouble, or now and then a good one.
    static func garbageLine(_ random: inout SplitMix64, maxLineBytes: Int) -> [UInt8] {
        func pick<T>(_ items: [T]) -> T { items[random.uniform(below: items.count)] }
        let template = pick(templates)
        var fields = template.fields
        var bytes: [UInt8]
        switch random.uniform(below: 10) {
        case 0:  // random bytes
            bytes = (0..<random.uniform(below: 60)).map { _ in random.next() & 1 == 0 ? UInt8(truncatingIfNeeded: random.next()) : pick(interesting) }
        case 1:  // a valid line
            bytes = Array(line(type: template.type, fields).utf8)
        case 2, 3:  // one field replaced by an odd value, or dropped
            let index = random.uniform(below: fields.count)
            if random.uniform(below: 8) == 0 { fields.remove(at: index) } else { fields[index].1 = pick(oddValues) }
            bytes = Array(line(type: template.type, fields).utf8)
        case 4:  // a truncated line
            bytes = Array(line(type: template.type, fields).utf8)
            bytes.removeLast(1 + random.uniform(below: bytes.count - 1))
        case 5, 6:  // a few bytes flipped, dropped or inserted
            bytes = Array(line(type: template.type, fields).utf8)
            for _ in 0..<(1 + random.uniform(below: 3)) {
                let at = random.uniform(below: bytes.count)
                switch random.uniform(below: 3) {
                case 0: bytes[at] = pick(interesting)
                case 1: bytes.remove(at: at)
                default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
        case 7:  // deep nesting around or inside a message
            let depth = random.uniform(below: 120)
            let (open, close) = random.next() & 1 == 0 ? ("[", "]") : ("{\"a\":", "}")
            let inner = line(type: template.type, fields)
            bytes = Array((random.next() & 1 == 0
                ? String(repeating: open, count: depth) + inner + String(repeating: close, count: random.uniform(below: depth + 2))
                : "{\"type\":\"\(template.type)\",\"x\":" + String(repeating: open, count: depth) + "0" + String(repeating: close, count: depth) + "}").utf8)
        case 8:  // huge numbers and strings, some past the line limit
            let digits = String((0..<random.uniform(below: 2 * maxLineBytes)).map { _ in Character(String(random.uniform(below: 10))) })
            let key = fields.isEmpty ? "id" : pick(fields).0
            fields.removeAll { $0.0 == key }
            fields.append((key, pick(["-" + digits, "1" + digits, "1e" + digits, "\"" + digits + "\"", "0.\(digits)e-\(digits.prefix(3))"])))
            bytes = Array(line(type: template.type, fields).utf8)
        default:  // invalid UTF-8 inside a valid line
            bytes = Array(line(type: template.type, fields).utf8)
            let at = 1 + random.uniform(below: bytes.count - 1)
            bytes.insert(contentsOf: pick([[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xE2, 0x82]]), at: at)
        }
        bytes.removeAll { $0 == 0x0A }
        return bytes
    }
}
