import SetRules
@testable import SetServer
import Testing

/// Issue 43, item 4: a game line of the accounts log is read straight from its bytes
/// (`AccountLogGameLine`) and agrees with the JSON tree record for record; anything else, hostile
/// texts included, reads exactly as the tree reads it, the same record or the same words.
@Suite struct ImportGameLineTests {
    /// What reading a line gave: a record or the reason it was refused.
    enum Outcome: Equatable {
        case record(AccountLogRecord)
        case refused(String)
    }

    static func outcome(_ read: ([UInt8]) throws(AccountLogRecord.Unreadable) -> AccountLogRecord, _ line: [UInt8]) -> Outcome {
        do throws(AccountLogRecord.Unreadable) { return .record(try read(line)) } catch { return .refused(error.reason) }
    }

    /// The decoder the import uses against the tree alone, on one line.
    static func expectAgreement(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let direct = outcome(AccountLogRecord.decode, line)
        let tree = outcome(AccountLogRecord.decodeThroughTree, line)
        #expect(direct == tree, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    /// A rated duel as `.ci/old_account_log.py` writes it (the benchmark's million lines).
    static let benchLine = #"{"commitment":"4f1c0b5e2a","durationMs":300000,"endedAt":7000,"game":1,"journal":"duel-7.jsonl","match":"duel-7","#
        + #""mode":"duel","outcome":"win","players":[{"account":12,"after":{"r":"1508.25","rd":"339.5","vol":"0.06"},"#
        + #""before":{"r":"1500.0","rd":"350.0","vol":"0.06"},"name":"p12","points":28,"sets":14,"setTimes":[1200,3400,19999]},"#
        + #"{"account":40,"after":{"r":"1491.75","rd":"339.5","vol":"0.06"},"before":{"r":"1500.0","rd":"350.0","vol":"0.06"},"#
        + #""name":"p40","points":22,"sets":11,"setTimes":[5000]}],"rated":true,"reason":"no_sets_left","type":"game","#
        + #""variant":"classic","wall":1795000007,"winner":0}"#

    static var gameLines: [String] {
        OldAccountLog.lines().filter { $0.contains(#""type":"game""#) } + [benchLine]
    }

    @Test func everyGameLineTheOldServerWroteIsReadStraightFromItsBytesAsTheTreeReadsIt() throws {
        let lines = Self.gameLines
        #expect(lines.count > 600)
        for line in lines {
            let bytes = Array(line.utf8)
            let direct = try #require(AccountLogGameLine.decode(bytes), "\(line)")
            #expect(AccountLogRecord.game(direct) == (try AccountLogRecord.decodeThroughTree(bytes)))
        }
        let game = try #require(AccountLogGameLine.decode(Array(Self.benchLine.utf8)))
        #expect(game.players.map(\.setTimes) == [[1200, 3400, 19999], [5000]])
        #expect(game.players[0].after?.rating == 1508.25 && game.players[1].before?.deviation == 350 && game.winner == .first)
    }

    /// Each text replaces the first occurrence of the part it names in the bench's line.
    static let hostile: [(String, String)] = [
        (#""name":"p12""#, #""name":"p\u0031\"2""#), (#""name":"p12""#, #""name":"p\/12""#), (#""name":"p12""#, #""name":"Zoë""#),
        (#""name":"p12""#, #""name":"\ud83d\ude00""#), (#""name":"p12""#, #""name":"\ud83d""#), (#""name":"p12""#, #""name":"a\u0000b""#),
        (#""name":"p12""#, "\"name\":\"a\u{7F}b\""), (#""name":"p12""#, "\"name\":\"tab\there\""), (#""name":"p12""#, #""name":" p12""#),
        (#""name":"p12""#, #""name":"""#), (#""name":"p12""#, #""name":12"#), (#""name":"p12""#, #""name":null"#),
        (#""match":"duel-7""#, #""match":"d\u00fcel""#), (#""match":"duel-7""#, "\"match\":\"dü\u{301}el\""),
        (#""points":28"#, #""points":-0"#), (#""points":28"#, #""points":-28"#), (#""points":28"#, #""points":-9223372036854775808"#),
        (#""points":28"#, #""points":9223372036854775807"#), (#""points":28"#, #""points":9223372036854775808"#),
        (#""points":28"#, #""points":999999999999999999"#), (#""points":28"#, #""points":1000000000000000000"#),
        (#""points":28"#, #""points":28.0"#), (#""points":28"#, #""points":2.8e1"#), (#""points":28"#, #""points":28E0"#),
        (#""points":28"#, #""points":028"#), (#""points":28"#, #""points":+28"#), (#""points":28"#, #""points":-"#),
        (#""sets":14"#, #""sets":-1"#), (#""sets":14"#, #""sets":1e400"#), (#""game":1"#, #""game":0"#),
        (#""account":12"#, #""account":-12"#), (#""account":12"#, #""account":null"#), (#""account":12"#, #""account":12.5"#),
        (#""setTimes":[1200,3400,19999]"#, #""setTimes":[1200,"x",3400,2.0,-5,1e2]"#), (#""setTimes":[1200,3400,19999]"#, #""setTimes":[]"#),
        (#""setTimes":[1200,3400,19999]"#, #""setTimes":7"#), (#""setTimes":[1200,3400,19999]"#, #""setTimes":[1,]"#),
        (#""setTimes":[1200,3400,19999]"#, #""setTimes":[-0,00]"#), (#""setTimes":[1200,3400,19999]"#, #""setTimes":[99999999999999999999]"#),
        (#""rated":true"#, #""rated":1"#), (#""rated":true"#, #""rated":false"#), (#""rated":true"#, #""rated":tru"#),
        (#""winner":0"#, #""winner":1"#), (#""winner":0"#, #""winner":2"#), (#""winner":0"#, #""winner":null"#),
        (#","winner":0"#, ""), (#""outcome":"win""#, #""outcome":"draw""#), (#""outcome":"win""#, #""outcome":"WIN""#),
        (#""mode":"duel""#, #""mode":"solo""#), (#""variant":"classic""#, #""variant":"chain""#), (#""variant":"classic""#, #""variant":"nope""#),
        (#""type":"game""#, #""type":"gam\u0065""#), (#""type":"game""#, #""type":"rename""#), (#""type":"game""#, #""type":"game","type":"game""#),
        (#""game":1"#, #""game":1,"game":2"#), (#""game":1"#, #""game":1,"extra":{"a":[1,{"b":null}]}"#), (#""game":1,"#, ""),
        (#""game":1"#, #""game" : 1"#), (#""game":1"#, " \"game\":1"), (#""r":"1508.25""#, #""r":1508.25"#),
        (#""r":"1508.25""#, #""r":"1.5e3""#), (#""r":"1508.25""#, #""r":" 1508""#), (#""r":"1508.25""#, #""r":"nan""#),
        (#""r":"1508.25""#, #""r":"inf""#), (#""r":"1508.25""#, #""r":"1e400""#), (#""rd":"339.5""#, #""rd":"0""#),
        (#""vol":"0.06""#, #""vol":"0.06","x":"y""#), (#""vol":"0.06""#, #""vol":"0.06","r":"1""#), (#","vol":"0.06""#, ""),
        (#""before":{"r":"1500.0""#, #""before":null,"z":{"r":"1500.0""#), (#"{"account":40"#, #"{"account":40},{"account":41"#),
        (#"}],"rated""#, #"},{}],"rated""#), (#""players":["#, #""players":[],"p":["#), (#""players":[{"#, #""players":{"a":{"#),
    ]

    @Test func hostileGameLinesReadExactlyAsTheTreeReadsThem() {
        for (part, replacement) in Self.hostile {
            guard let range = Self.benchLine.range(of: part) else {
                Issue.record("\(part) is not in the line")
                continue
            }
            Self.expectAgreement(Array(Self.benchLine.replacingCharacters(in: range, with: replacement).utf8))
        }
        // Around the line: what surrounds it, and raw bytes that are not UTF-8 in its strings.
        let bytes = Array(Self.benchLine.utf8)
        for line in [bytes + [0x0D], [0x20] + bytes, bytes + [0x20], bytes + Array("{}".utf8), Array(bytes.dropLast()), [], Array("{}".utf8),
                     Array("[]".utf8), Array(bytes.prefix(40)), Array(Self.benchLine.replacingOccurrences(of: "p12", with: "p\u{FF}").utf8)] {
            Self.expectAgreement(line)
        }
        var invalid = bytes
        invalid[invalid.firstIndex(of: UInt8(ascii: "p"))!] = 0xC3
        Self.expectAgreement(invalid)
        // The accounts' and renames' lines go through the tree, as before.
        for line in OldAccountLog.lines().filter({ !$0.contains(#""type":"game""#) }) { Self.expectAgreement(Array(line.utf8)) }
    }

    /// Seeded damage to every kind of game line: bytes dropped, doubled, changed to a byte that
    /// matters to JSON. Both readers must say the same of every one.
    @Test func damagedGameLinesReadExactlyAsTheTreeReadsThem() {
        var random = SplitMix64(seed: 43)
        let alphabet = Array(#"{}[]:,"\-+.eE0123456789 tfnu/"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
        var readStraight = 0
        for line in Self.gameLines.map({ Array($0.utf8) }) {
            for _ in 0..<25 {
                var damaged = line
                for _ in 0..<Int.random(in: 1...3, using: &random) where !damaged.isEmpty {
                    let at = Int.random(in: 0..<damaged.count, using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: damaged.remove(at: at)
                    case 1: damaged.insert(alphabet.randomElement(using: &random)!, at: at)
                    case 2: damaged[at] = alphabet.randomElement(using: &random)!
                    default: damaged.insert(damaged[at], at: at)
                    }
                }
                if AccountLogGameLine.decode(damaged) != nil { readStraight += 1 }
                Self.expectAgreement(damaged)
            }
        }
        // Some damage leaves a line that still reads (a digit changed): those went the direct way.
        #expect(readStraight > 100)
    }
}
