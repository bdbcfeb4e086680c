import Foundation
import SetDatabase
import SetRatings
import SetRules
@testable import SetServer
import SetWire
import Testing

/// The answers of the accounts log's engine, frozen before it was deleted (issue 34): JSONL files
/// under `Fixtures/`, each line a step told to the engine (an account made, a rename, a finished
/// game) with what it answered, or a question asked of it with its answer. A SQL store is held to
/// them by `replay`: the same steps must give the same answers, byte for byte.
enum AccountFixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    /// The lines of `Fixtures/<name>`, each an object.
    static func lines(_ name: String) throws -> [[String: JSONValue]] {
        let text = try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)
        return try text.split(separator: "\n").map { line in try #require(try JSONParser.parse(String(line)).objectValue) }
    }

    // MARK: What the lines hold

    static func json(_ finished: FinishedGame) -> JSONValue {
        var result: [String: JSONValue] = ["reason": .string(finished.result.reason.rawValue),
                                           "scores": .array(finished.result.scores.map { .int(Int64($0)) })]
        if let by = finished.result.by { result["by"] = .int(Int64(by.rawValue)) }
        if let winner = finished.result.winner { result["winner"] = .int(Int64(winner.rawValue)) }
        return ["match": .string(finished.match), "game": .int(Int64(finished.game)), "commitment": .string(finished.commitment),
                "mode": .string(finished.mode.rawValue), "variant": .string(finished.variant.rawValue), "result": .object(result),
                "endedAt": .int(finished.endedAt), "durationMs": .int(finished.durationMs),
                "seats": .array(finished.seats.map { seated in
                    ["account": seated.account.map { .int(Int64($0)) } ?? .null, "name": .string(seated.name), "casual": .bool(seated.casual),
                     "sets": .int(Int64(seated.sets)), "setTimes": .array(seated.setTimes.map { .int(Int64($0)) })]
                })]
    }

    static func finished(_ json: JSONValue?) throws -> FinishedGame {
        let f = try #require(json?.objectValue), result = try #require(f["result"]?.objectValue)
        func int(_ value: JSONValue?) throws -> Int { Int(try #require(value?.intValue)) }
        return FinishedGame(
            match: try #require(f["match"]?.stringValue), game: try int(f["game"]), commitment: try #require(f["commitment"]?.stringValue),
            mode: try #require(f["mode"]?.stringValue.flatMap(Mode.init)), variant: try #require(f["variant"]?.stringValue.flatMap(Variant.init)),
            result: MatchResult(reason: try #require(result["reason"]?.stringValue.flatMap(MatchResult.Reason.init)),
                                by: try result["by"].map { try #require(Seat(rawValue: try int($0))) },
                                scores: try #require(result["scores"]?.arrayValue).map(int),
                                winner: try result["winner"].map { try #require(Seat(rawValue: try int($0))) }),
            seats: try #require(f["seats"]?.arrayValue).map { item in
                let s = try #require(item.objectValue)
                return FinishedGame.Seated(account: s["account"]?.intValue.map { Int($0) }, name: try #require(s["name"]?.stringValue),
                                           casual: s["casual"]?.boolValue == true, sets: try int(s["sets"]),
                                           setTimes: try #require(s["setTimes"]?.arrayValue).map(int))
            },
            endedAt: try #require(f["endedAt"]?.intValue), durationMs: try #require(f["durationMs"]?.intValue))
    }

    /// An account with its ratings to the last digit (as the log wrote them: shortest text).
    static func json(_ account: StoredAccount?) -> JSONValue {
        guard let account else { return .null }
        var ratings: [String: JSONValue] = [:]
        for (variant, rating) in account.ratings.all {
            ratings[variant.rawValue] = ["r": .string(String(rating.rating)), "rd": .string(String(rating.deviation)),
                                         "vol": .string(String(rating.volatility))]
        }
        return ["id": .int(Int64(account.id)), "identity": .string(account.identity.storedText), "name": .string(account.name),
                "bot": .bool(account.bot), "createdWall": .int(account.createdWall), "ratings": .object(ratings)]
    }

    /// A game record as the old accounts log wrote it (ratings to the last digit, as text).
    static func json(_ record: GameRecord?) -> JSONValue {
        guard let game = record else { return .null }
        func rating(_ rating: Rating) -> JSONValue {
            ["r": .string(String(rating.rating)), "rd": .string(String(rating.deviation)), "vol": .string(String(rating.volatility))]
        }
        var members: [String: JSONValue] = [
            "type": "game", "match": .string(game.match), "game": .int(Int64(game.game)), "commitment": .string(game.commitment),
            "mode": .string(game.mode.rawValue), "variant": .string(game.variant.rawValue), "rated": .bool(game.rated),
            "outcome": .string(game.outcome.rawValue), "reason": .string(game.reason.rawValue),
            "players": .array(game.players.map { player in
                var members: [String: JSONValue] = ["name": .string(player.name), "points": .int(Int64(player.points)),
                                                    "sets": .int(Int64(player.sets)), "setTimes": .array(player.setTimes.map { .int(Int64($0)) })]
                if let account = player.account { members["account"] = .int(Int64(account)) }
                if let before = player.before { members["before"] = rating(before) }
                if let after = player.after { members["after"] = rating(after) }
                return .object(members)
            }),
            "endedAt": .int(game.endedAt), "durationMs": .int(game.durationMs), "wall": .int(game.wallSeconds), "journal": .string(game.journal)]
        if let winner = game.winner { members["winner"] = .int(Int64(winner.rawValue)) }
        return .object(members)
    }

    static func json(_ error: WireError) -> JSONValue {
        ["error": ["code": .string(error.code.rawValue), "message": .string(error.message), "details": .object(error.details)]]
    }

    static func json(_ answer: Result<AccountInfo, WireError>) -> JSONValue {
        switch answer {
        case .success(let info): ["info": ["type": .string(info.type.rawValue), "fields": .object(info.fields)]]
        case .failure(let error): json(error)
        }
    }

    static func json(_ answer: Result<[UInt8], WireError>) -> JSONValue {
        switch answer {
        case .success(let line): ["line": .string(String(decoding: line, as: UTF8.self))]
        case .failure(let error): json(error)
        }
    }

    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// The key cursor of the page the old engine's counted cursor `counted` named (anything not
    /// a count is passed on, to be refused as it was).
    static func keyCursor(after counted: String, _ variant: Variant, in store: SQLAccountStore) throws(DatabaseError) -> String {
        guard let count = Int(counted), count > 0 else { return counted }
        let rows = try store.database.query("""
            SELECT rating, account_id FROM ratings WHERE variant = $1 AND listed = 1 ORDER BY rating DESC, account_id LIMIT $2
            """, .text(variant.rawValue), .int(count))
        guard let last = rows.last else { return LeaderboardCursor.start.text }
        return LeaderboardCursor(rank: rows.count, key: (try last.double(0), try last.int(1))).text
    }

    /// A leaderboard answer with its `next` cursor cut to its rank, as the old engine's count was.
    static func rankCursor(_ answer: JSONValue) -> JSONValue {
        guard case .object(var top) = answer, case .object(var info)? = top["info"], case .object(var fields)? = info["fields"],
              let next = fields["next"]?.stringValue, let cursor = LeaderboardCursor(next) else { return answer }
        fields["next"] = .string(String(cursor.rank))
        info["fields"] = .object(fields)
        top["info"] = .object(info)
        return .object(top)
    }

    // MARK: Holding a store to them

    /// Tells `store` every step and asks it every question of the lines, in order; each answer
    /// must be the frozen one. Returns how many players the longest leaderboard page listed.
    @discardableResult
    static func replay(_ lines: [[String: JSONValue]], into store: SQLAccountStore, policy: RatingPolicy,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        var listed = 0
        for line in lines {
            let got = try answer(to: line, from: store, policy: policy)
            let expected = line["answer"] ?? .null
            if JSONWriter.bytes(got) != JSONWriter.bytes(expected) {
                Issue.record("""
                    \(line["step"]?.stringValue ?? line["ask"]?.stringValue ?? "?") differs from the old engine's answer:
                    asked \(JSONWriter.string(.object(line.filter { $0.key != "answer" })))
                    old   \(JSONWriter.string(expected))
                    new   \(JSONWriter.string(got))
                    """, sourceLocation: sourceLocation)
            }
            if line["ask"]?.stringValue == "leaderboard" {
                listed = max(listed, got.objectValue?["info"]?.objectValue?["fields"]?.objectValue?["players"]?.arrayValue?.count ?? 0)
            }
        }
        return listed
    }

    private static func answer(to line: [String: JSONValue], from store: SQLAccountStore, policy: RatingPolicy) throws -> JSONValue {
        func text(_ key: String) throws -> String { try #require(line[key]?.stringValue, "\(key) in \(line)") }
        func int(_ key: String) throws -> Int { Int(try #require(line[key]?.intValue, "\(key) in \(line)")) }
        switch line["step"]?.stringValue ?? line["ask"]?.stringValue {
        case "create":
            let identity = try #require(PlayerIdentity(storedText: try text("identity")))
            do {
                return .int(Int64(try store.create(identity, name: try text("name"), bot: line["bot"]?.boolValue == true,
                                                   wallSeconds: Int64(try int("wall"))).id))
            } catch StoreError.nameTaken {
                return "name_taken"
            }
        case "rename":
            do {
                return .string(try store.rename(try int("id"), to: try text("name")).name)
            } catch StoreError.nameTaken {
                return "name_taken"
            }
        case "game":
            return json(try store.record(try finished(line["finished"]), journal: try text("journal"), wallSeconds: Int64(try int("wall")),
                                         policy: policy))
        case "named": return json(try store.account(named: try text("name")))
        case "identity": return json(try store.account(for: try #require(PlayerIdentity(storedText: try text("identity")))))
        case "id": return json(try store.account(id: try int("id")))
        case "profile": return json(try store.profile(try text("name")).map(\.info))
        case "history":
            return json(try store.history(try text("name"), after: line["after"]?.stringValue, limit: try int("limit"),
                                          id: line["id"].flatMap { $0 == .null ? nil : $0 }))
        case "crosstable": return json(try store.crosstable(try text("name"), try text("other")))
        case "leaderboard":
            // The old engine's cursors counted rows; the store's are keys (`LeaderboardCursor`).
            // The same page is asked for, and the answer's cursor is compared by its rank.
            let variant = try #require(Variant(rawValue: try text("variant")))
            let after = try line["after"]?.stringValue.map { counted throws(DatabaseError) in try keyCursor(after: counted, variant, in: store) }
            return rankCursor(json(try store.leaderboard(variant, after: after, limit: try int("limit"))))
        default:
            Issue.record("a fixture line of no known kind: \(line)")
            return .null
        }
    }
}
