import Foundation
import SetRatings
import SetRules
@testable import SetServer
import SetWire
import Testing

/// The accounts log's fast reading of game lines (`GameLine`) held against the general one, a
/// JSON tree (`AccountRecord.decodeParsed`): on thousands of varied lines (keys in any order,
/// spaces, escapes, unknown and repeated keys, numbers spelled as doubles, wrong types, bad
/// UTF-8, torn lines) both give the same record or the same refusal, and whatever the fast
/// reader accepts the general one reads the same.
@Suite struct GameLineTests {
    /// A JSON value as the test spells it: keys in the order given, anything raw.
    indirect enum Node {
        case raw([UInt8])
        case array([Node])
        case object([(String, Node)])

        static func text(_ text: String) -> Node { .raw(Array(JSONWriter.string(.string(text)).utf8)) }
        static func number(_ text: String) -> Node { .raw(Array(text.utf8)) }
        static func int(_ value: Int) -> Node { number(String(value)) }

        func bytes(spaced: Bool) -> [UInt8] {
            let gap: [UInt8] = spaced ? [0x20, 0x09] : []
            switch self {
            case .raw(let bytes): return bytes
            case .array(let items):
                return [0x5B] + gap + Array(items.map { $0.bytes(spaced: spaced) }.joined(separator: gap + [0x2C] + gap)) + gap + [0x5D]
            case .object(let members):
                let written = members.map { key, value in Node.text(key).bytes(spaced: false) + gap + [0x3A] + gap + value.bytes(spaced: spaced) }
                return [0x7B] + gap + Array(written.joined(separator: gap + [0x2C] + gap)) + gap + [0x7D]
            }
        }
    }

    // MARK: Lines as the server writes them, then varied

    static let names = ["ann", "Bob", "p12345", "a b", "x\"y", "back\\slash", "é", "名前", "Zoë", " lead", "trail ", "", "tab\there",
                        String(repeating: "n", count: 24), String(repeating: "n", count: 25), "\u{7F}del", "ok-name_1.2"]

    /// A rating's figure in `range`, short or long as a server or a person writes it, now and
    /// then one no rating has or `Double(String)` alone reads.
    static func decimal(in range: ClosedRange<Double>, _ rng: inout SplitMix64) -> String {
        switch rng.next() % 150 {
        case 0: return ["1500", "1500.0", "1.5e3", "0x1p10", "inf", "nan", " 1500", "+1500", "-0.0", "0", "10000.5", "1e-3", "007.25"][Int(rng.next() % 13)]
        case 1: return String(Double.random(in: -10...20_000, using: &rng))
        case 2...40:
            // Two decimals within the range: the ratings' bounds (issue 32) are narrow for volatility.
            let steps = UInt64(max(1, (range.upperBound - range.lowerBound) * 100 + 1))
            return String(Double(Int(range.lowerBound * 100) + Int(rng.next() % steps)) / 100)
        default: return String(Double.random(in: range, using: &rng))
        }
    }

    static func rating(_ rng: inout SplitMix64) -> Node {
        .object([("r", .text(decimal(in: 380...3_000, &rng))), ("rd", .text(decimal(in: 44...350, &rng))), ("vol", .text(decimal(in: 0.04...0.08, &rng)))])
    }

    static func player(_ rng: inout SplitMix64, rated: Bool) -> [(String, Node)] {
        var members: [(String, Node)] = []
        if rated || rng.next() % 3 != 0 { members.append(("account", .int(Int(rng.next() % 1_000)))) }
        if rated || rng.next() % 4 == 0 {
            members.append(("after", rating(&rng)))
            members.append(("before", rating(&rng)))
        }
        members.append(("name", .text(rng.next() % 10 == 0 ? names[Int(rng.next() % UInt64(names.count))] : "p\(rng.next() % 100_000)")))
        members.append(("points", .int(Int(rng.next() % 70) - 10)))
        let times = (0..<Int(rng.next() % 30)).map { _ in Node.int(Int(rng.next() % 60_000)) }
        if rng.next() % 8 != 0 { members.append(("setTimes", .array(times))) }
        members.append(("sets", .int(times.count)))
        return members
    }

    static func game(_ rng: inout SplitMix64) -> [(String, Node)] {
        let rated = rng.next() % 3 != 0
        let outcome = rated ? ["win", "draw"][Int(rng.next() % 2)] : ["solo", "aborted", "win", "draw"][Int(rng.next() % 4)]
        let seats = rated ? 2 : Int(rng.next() % 3)
        let hex = (0..<4).map { _ in String(rng.next(), radix: 16).leftPadded(to: 16) }.joined()
        var members: [(String, Node)] = [
            ("commitment", .text(rng.next() % 10 == 0 ? "commitment-\(rng.next() % 100)" : hex)),
            ("durationMs", .int(Int(rng.next() % 1_000_000))), ("endedAt", .int(Int(rng.next() % 1_000_000_000))),
            ("game", .int(Int(rng.next() % 5))), ("journal", .text("duel-\(rng.next() % 1_000).jsonl")),
            ("match", .text(rng.next() % 5 == 0 ? "odd match" : "duel-\(rng.next() % 1_000)")),
            ("mode", .text(seats == 2 ? "duel" : "solo")), ("outcome", .text(outcome)),
            ("players", .array((0..<seats).map { _ in .object(player(&rng, rated: rated)) })), ("rated", .raw(Array((rated ? "true" : "false").utf8))),
            ("reason", .text(["no_sets_left", "resigned", "forfeited"][Int(rng.next() % 3)])), ("type", .text("game")),
            ("variant", .text(Variant.allCases[Int(rng.next() % 4)].rawValue)), ("wall", .int(1_795_000_000 + Int(rng.next() % 1_000_000)))]
        if outcome == "win" || rng.next() % 6 == 0 { members.append(("winner", .int(Int(rng.next() % 2)))) }
        return members
    }

    /// Something a damaged, edited or future log might hold instead of a value.
    static func oddValue(_ rng: inout SplitMix64) -> Node {
        let spellings = ["1.0", "1e0", "-0", "-1", "00", "12345678901234567890", "null", "true", "\"1\"", "[]", "{}", "[1,2.5,\"x\",null,-3]",
                         "\"gam\\u0065\"", "\"du\\u0065l\"", "\"\\u212Alassic\"", "\"DUEL\"", "\"game\"", "\"account\"", "{\"r\":\"1\",\"rd\":\"2\",\"vol\":\"0.06\"}",
                         "\"\\ud800\"", "1.5", "2", "0"]
        return .number(spellings[Int(rng.next() % UInt64(spellings.count))])
    }

    /// Bytes a string may hold that a plain run does not: escapes, control bytes, UTF-8 good and bad.
    static let oddBytes: [[UInt8]] = [[0x5C, 0x22], [0x5C, 0x5C], [0x5C, 0x6E], Array("\\u0041".utf8), [0x01], [0x1F], [0x7F], [0xC3, 0xA9],
                                      [0xE5, 0x90, 0x8D], [0xF0, 0x9F, 0x83, 0x8F], [0xC3, 0x28], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF]]

    static func varied(_ members: [(String, Node)], _ rng: inout SplitMix64, depth: Int = 0) -> [(String, Node)] {
        var members = members.map { key, value -> (String, Node) in
            switch value {
            case .object(let inner): return (key, .object(varied(inner, &rng, depth: depth + 1)))
            case .array(let items):
                return (key, .array(items.map { item in
                    if case .object(let inner) = item { return .object(varied(inner, &rng, depth: depth + 1)) }
                    return item
                }))
            case .raw(let bytes):
                guard rng.next() % 80 == 0, bytes.first == 0x22 else { return (key, value) }
                // Odd bytes inside a string, at any place (before and after eight-byte runs).
                let at = 1 + Int(rng.next() % UInt64(bytes.count - 1))
                return (key, .raw(Array(bytes[..<at]) + oddBytes[Int(rng.next() % UInt64(oddBytes.count))] + Array(bytes[at...])))
            }
        }
        if rng.next() % 3 == 0 { members.shuffle(using: &rng) }
        if rng.next() % 60 == 0, !members.isEmpty { members.remove(at: Int(rng.next() % UInt64(members.count))) }
        if rng.next() % 60 == 0, !members.isEmpty { members[Int(rng.next() % UInt64(members.count))].1 = oddValue(&rng) }
        if rng.next() % 40 == 0, let twice = members.randomElement(using: &rng) { members.append((twice.0, rng.next() % 2 == 0 ? twice.1 : oddValue(&rng))) }
        if rng.next() % 40 == 0 { members.insert(("extra\(depth)", oddValue(&rng)), at: Int(rng.next() % UInt64(members.count + 1))) }
        return members
    }

    static func line(_ rng: inout SplitMix64) -> [UInt8] {
        let members = rng.next() % 4 == 0 ? game(&rng) : varied(game(&rng), &rng)
        var bytes = Node.object(members).bytes(spaced: rng.next() % 10 == 0)
        switch rng.next() % 60 {
        case 0: bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count))))
        case 1: bytes += Array(" x".utf8)
        case 2: bytes += [0x20, 0x09]
        case 3: bytes = [0x20] + bytes
        default: break
        }
        return bytes
    }

    /// A decode's outcome, comparable: the record (doubles to the bit, as `description` spells
    /// them) or the refusal's reason.
    static func outcome(_ decode: () throws(AccountRecord.Unreadable) -> AccountRecord) -> String {
        do { return "record \(try decode())" } catch { return "unreadable: \(error.reason)" }
    }

    @Test func theFastReaderAgreesWithTheJSONTreeOnVariedLines() {
        var rng = SplitMix64(seed: 25)
        var fast = 0, declinedButRead = 0, refused = 0
        for _ in 0..<10_000 {
            let bytes = Self.line(&rng)
            let general = Self.outcome { () throws(AccountRecord.Unreadable) in try AccountRecord.decodeParsed(bytes) }
            #expect(Self.outcome { () throws(AccountRecord.Unreadable) in try AccountRecord.decode(bytes) } == general, "\(String(decoding: bytes, as: UTF8.self))")
            if let record = bytes.withUnsafeBufferPointer(GameLine.record) {
                fast += 1
                #expect("record \(AccountRecord.game(record))" == general, "\(String(decoding: bytes, as: UTF8.self))")
            } else if general.hasPrefix("record") {
                declinedButRead += 1
            } else {
                refused += 1
            }
        }
        // Every kind of line was seen, in numbers.
        #expect(fast > 4_000 && declinedButRead > 500 && refused > 2_000, "fast \(fast), declined but read \(declinedButRead), refused \(refused)")
    }

    @Test func theServersOwnLinesTakeTheFastWay() throws {
        let record = GameRecord(
            match: "duel-7", game: 2, commitment: String(repeating: "ab", count: 32), mode: .duel, variant: .ultra, rated: true, outcome: .win,
            reason: .resigned, winner: .second,
            players: [GameRecord.Player(account: 3, name: "Zoë", points: -2, sets: 0, setTimes: [],
                                        before: Rating(rating: 1500, deviation: 350, volatility: 0.06),
                                        after: Rating(rating: 1464.0507356731715, deviation: 151.51678093961424, volatility: 0.059995984286488495)),
                      GameRecord.Player(account: 4, name: "bob", points: 9, sets: 3, setTimes: [900, 25_400, 61_000],
                                        before: Rating(rating: 1400, deviation: 45.5, volatility: 0.06),
                                        after: Rating(rating: 1401.0000000000002, deviation: 45.3, volatility: 0.06))],
            endedAt: 5_000, durationMs: 4_000, wallSeconds: 1_795_000_000, journal: "duel-7.jsonl")
        let line = Array(AccountRecord.game(record).encoded().dropLast())
        let fast = try #require(line.withUnsafeBufferPointer(GameLine.record))
        #expect("\(fast)" == "\(record)")
    }

    @Test func aLineTheFastReaderDeclinesStillDecodes() throws {
        let line = Array(#"{"commitment":"c","durationMs":1,"endedAt":2,"game":1,"journal":"m.jsonl","match":"m","mode":"solo","outcome":"solo","players":[{"name":"ann\"s","points":3,"sets":1,"setTimes":[900]}],"rated":false,"reason":"no_sets_left","type":"game","variant":"classic","wall":3}"#.utf8)
        #expect(line.withUnsafeBufferPointer(GameLine.record) == nil)
        guard case .game(let game) = try AccountRecord.decode(line) else { Issue.record("not a game"); return }
        #expect(game.players.map(\.name) == ["ann\"s"] && game.players[0].setTimes == [900])
    }

    @Test func decimalTextReadsAsDoubleFromStringDoes() {
        var rng = SplitMix64(seed: 7)
        var texts = ["4503599627370496.5", "4503599627370497.5", "9007199254740993", "9007199254740992.5", "0.1", "0.30000000000000004",
                     "1e3", "1.", ".5", "-", "", "--1", "1..2", "12a", "0x10", "1234567890123456789", "12345678901234567890",
                     "0.0000000000000000000001", "0.00000000000000000000001", "9999999999999999999", "-0", "-0.0", "00001.5"]
        for _ in 0..<200_000 {
            switch rng.next() % 4 {
            case 0: texts.append(String(Double.random(in: 0...10_000, using: &rng)))
            case 1: texts.append(String(Double(bitPattern: rng.next() >> 2)))
            default:
                let digits = 1 + Int(rng.next() % 20)
                var text = (0..<digits).map { _ in String(rng.next() % 10) }.joined()
                let point = Int(rng.next() % UInt64(digits + 1))
                if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
                texts.append(rng.next() % 5 == 0 ? "-" + text : text)
            }
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let read = bytes.withUnsafeBufferPointer(DecimalText.double)
            #expect(read?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test func theNameShortcutAgreesWithTheWire() {
        var rng = SplitMix64(seed: 3)
        let pool: [String] = (0x00..<0x80).map { String(UnicodeScalar(UInt8($0))) } + ["é", "\u{200B}", "\u{2028}", "名", "\u{301}", "\r\n"]
        var names = pool
        for _ in 0..<20_000 { names.append((0..<Int(rng.next() % 27)).map { _ in pool[Int(rng.next() % UInt64(rng.next() % 2 == 0 ? 0x80 : pool.count))] }.joined()) }
        for name in names {
            #expect(AccountRecord.isName(name) == ClientMessageDecoder.isAcceptable(name: name, maxLength: ClientMessageDecoder.maxNameLength), "\(Array(name.utf8))")
        }
    }

    @Test func eightBytesAtATimeFindTheFirstSpecialByte() {
        var rng = SplitMix64(seed: 11)
        let edges: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF, 0x41, 0x61, 0x30]
        for _ in 0..<200_000 {
            let bytes = (0..<8).map { _ in rng.next() % 3 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : edges[Int(rng.next() % UInt64(edges.count))] }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let first = bytes.firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 || $0 >= 0x80 }
            let special = GameLine.special(UInt64(littleEndian: word))
            #expect((special == 0 ? nil : special.trailingZeroBitCount / 8) == first, "\(bytes)")
        }
    }
}

private extension String {
    func leftPadded(to count: Int) -> String { String(repeating: "0", count: Swift.max(0, count - self.count)) + self }
}
