import Foundation
import SetRules
@testable import SetServer
import SetWire
import Testing

/// Journals edited by hand, as a careless operator or an attacker with the folder would: every
/// value out of range and every record out of order. None may trap; `replay` names the record,
/// and a server on the folder starts, sets each aside in `damaged/` and still loads the good one.
@Suite(.serialized) struct CraftedJournalTests {
    /// One crafted journal: how it differs from a real one, and what must be reported.
    struct Craft: Sendable, CustomStringConvertible {
        var name: String
        var record: Int
        var says: String
        var edit: @Sendable (inout [[String: JSONValue]]) -> Void
        var description: String { name }
    }

    static func set(_ index: Int, _ key: String, _ value: JSONValue) -> @Sendable (inout [[String: JSONValue]]) -> Void {
        { records in records[index][key] = value }
    }

    static func rule(_ key: String, _ value: Int64) -> @Sendable (inout [[String: JSONValue]]) -> Void {
        { records in
            var rules = records[0]["rules"]?.objectValue ?? [:]
            rules[key] = .int(value)
            records[0]["rules"] = .object(rules)
        }
    }

    /// The real journal these start from: header, two seats, the game, then ann's claim and three
    /// picks (records 5-8), all at t=1000.
    static let crafts: [Craft] = [
        Craft(name: "claim-window-max", record: 1, says: "claim-window-ms", edit: rule("claimWindowMs", .max)),
        Craft(name: "points-lost-huge", record: 1, says: "set-points-lost-per-second", edit: rule("setPointsLostPerSecond", 1 << 62)),
        Craft(name: "second-chance-zero", record: 1, says: "second-chance-ms", edit: rule("secondChanceMs", 0)),
        Craft(name: "penalty-negative", record: 1, says: "deal-penalty", edit: rule("dealPenalty", .min)),
        Craft(name: "match-name-path", record: 1, says: "match name", edit: set(0, "name", "../../etc")),
        Craft(name: "seat-at-min", record: 2, says: "out of range", edit: set(1, "at", .int(.min))),
        Craft(name: "seat-max", record: 2, says: "bad seat", edit: set(1, "seat", .int(.max))),
        Craft(name: "seat-min", record: 5, says: "bad seat", edit: set(4, "seat", .int(.min))),
        Craft(name: "name-escape", record: 2, says: "player name", edit: set(1, "name", "ann\u{1B}[2J")),
        Craft(name: "token-short", record: 3, says: "seat token", edit: set(2, "token", "abc")),
        Craft(name: "game-max", record: 4, says: "game 9223372036854775807 follows game 0", edit: set(3, "game", .int(.max))),
        Craft(name: "commitment-bad", record: 4, says: "commitment", edit: set(3, "commitment", "not hex")),
        Craft(name: "claim-at-max", record: 5, says: "out of range", edit: set(4, "at", .int(.max - 9))),
        Craft(name: "claim-at-double", record: 5, says: "no integer at", edit: set(4, "at", .double(1.5e19))),
        Craft(name: "seq-huge", record: 5, says: "event number", edit: set(4, "seq", .int(1 << 62))),
        Craft(name: "card-max", record: 6, says: "bad card", edit: set(5, "card", .int(.max))),
        Craft(name: "watchers-max", record: 6, says: "spectators", edit: { records in
            records.insert(["type": "watchers", "count": .int(.max), "seq": .int(5), "at": .int(1_000)], at: 5)
        }),
        Craft(name: "tick-far", record: 6, says: "out of range", edit: { records in
            records.insert(["type": "tick", "seq": .int(5), "at": .int(1 << 62)], at: 5)
        }),
        // Out of order.
        Craft(name: "time-backwards", record: 6, says: "records out of order", edit: set(5, "at", .int(999))),
        Craft(name: "seq-backwards", record: 6, says: "comes after", edit: set(5, "seq", .int(1))),
        Craft(name: "header-not-first", record: 1, says: "not the match header", edit: { $0.swapAt(0, 1) }),
        Craft(name: "second-header", record: 6, says: "a second header", edit: { $0.insert($0[0], at: 5) }),
        Craft(name: "game-twice", record: 5, says: "game 1 follows game 1", edit: { $0.insert($0[3], at: 4) }),
        Craft(name: "game-before-seat", record: 3, says: "game 1 was not dealt here", edit: { $0.swapAt(2, 3) }),
        Craft(name: "pick-before-claim", record: 5, says: "select refused: claim_first", edit: { records in
            for key in ["action", "card"] { (records[4][key], records[5][key]) = (records[5][key], records[4][key]) }
        }),
    ]

    func temporaryDirectory() -> String { temporaryFolder("setgame-crafted") }

    /// A real journal: ann and bob in `match`, ann takes a set; the server stops with both seated.
    func realJournal(match: String) throws -> [[String: JSONValue]] {
        let data = temporaryDirectory()
        let server = try TestServer { $0.dataDirectory = data }
        let (ann, bob) = try TestClient.duel(server, match: match)
        try playScriptedTurn(ann, bob)
        server.stop()
        let text = try String(contentsOfFile: "\(data)/\(match).jsonl", encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try #require(try JSONParser.parse(Array(line.utf8)).objectValue)
        }
    }

    func write(_ records: [[String: JSONValue]], to path: String) throws {
        let text = records.map { String(decoding: JSONWriter.bytes(.object($0)), as: UTF8.self) + "\n" }.joined()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func theRealJournalTheCraftsStartFromReplays() throws {
        let records = try realJournal(match: "crafted")
        #expect(records[4]["action"] == "claim" && records[5]["action"] == "select")
        let path = temporaryDirectory() + "/real.jsonl"
        try write(records, to: path)
        let (replay, events) = try MatchReplay.load(path)
        #expect(replay.name == "crafted" && replay.games.count == 1 && replay.games[0].seedMatchesCommitment)
        #expect(events.contains { if case .rules(.setTaken) = $0.body { true } else { false } })
    }

    @Test(arguments: crafts) func replayNamesTheRecordAndDoesNotTrap(_ craft: Craft) throws {
        var records = try realJournal(match: "crafted")
        craft.edit(&records)
        let path = temporaryDirectory() + "/\(craft.name).jsonl"
        try write(records, to: path)
        var failure: MatchReplay.Failure?
        do { _ = try MatchReplay.load(path) } catch { failure = error }
        let description = try #require(failure, "\(craft.name) replayed as if nothing were wrong").description
        #expect(description.contains("record \(craft.record): "), "\(description)")
        #expect(description.contains(craft.says), "\(description)")
    }

    @Test func aServerStartsOnAFolderOfCraftedJournalsAndSetsThemAside() throws {
        let base = try realJournal(match: "crafted")
        let data = temporaryDirectory()
        for craft in Self.crafts {
            var records = base
            craft.edit(&records)
            try write(records, to: "\(data)/\(craft.name).jsonl")
        }
        var good = base
        good[0]["name"] = "good"
        try write(good, to: "\(data)/good.jsonl")

        // Crafted journals and no accounts store: an empty one is asked for.
        let server = try TestServer {
            $0.dataDirectory = data
            $0.accounts.allowsEmptyStore = true
        }
        defer { server.stop() }
        let log = server.logLines.all.joined(separator: "\n")
        #expect(log.contains("restored good"))
        for craft in Self.crafts {
            #expect(log.contains("journal \(craft.name).jsonl is damaged (record \(craft.record): "), "\(craft.name)")
            #expect(!FileManager.default.fileExists(atPath: "\(data)/\(craft.name).jsonl"))
        }
        let aside = try FileManager.default.contentsOfDirectory(atPath: data + "/damaged")
        #expect(aside.count == Self.crafts.count)
        let probe = try TestClient(port: server.port)
        _ = try probe.next("welcome")
        probe.send(.list())
        let names = try probe.waitFor("list") { if case .matches(let list, _, _) = $0 { list.map(\.name) } else { nil } }
        #expect(names == ["good"])
    }

    @Test func aLineLongerThanAnyRecordIsDamageNotAMemoryHog() throws {
        var records = try realJournal(match: "crafted")
        records[4]["padding"] = .string(String(repeating: "x", count: 200_000))
        let path = temporaryDirectory() + "/long.jsonl"
        try write(records, to: path)
        #expect(throws: MatchReplay.Failure.self) { try MatchReplay.open(path) }
        do { _ = try MatchReplay.open(path) } catch { #expect(error.description.contains("record 5: longer than 65536 bytes")) }
    }
}
