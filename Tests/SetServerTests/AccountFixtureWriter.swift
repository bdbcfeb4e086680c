import Foundation
import SetRatings
import SetRules
@testable import SetServer
import SetWire
import Testing

/// Writes `Fixtures/` from the accounts log's engine, once, before that engine is deleted: run
/// with SETGAME_WRITE_ACCOUNT_FIXTURES=1. Kept in the history of the commit that wrote them.
@Suite struct AccountFixtureWriter {
    static let enabled = ProcessInfo.processInfo.environment["SETGAME_WRITE_ACCOUNT_FIXTURES"] != nil

    @Test(.enabled(if: enabled)) func writeTheOldEnginesAnswers() throws {
        let policy = SQLStoreDifferentialTests.policy
        try FileManager.default.createDirectory(atPath: AccountFixture.folder, withIntermediateDirectories: true)
        for seed in [UInt64(1), 2, 3] {
            let old = try Accounts(directory: nil, faults: nil, log: .silent, policy: policy)
            let store = try SQLAccountStore.open(.memory, dataFolder: nil, policy: policy, wallSeconds: 1, log: .silent)
            var history = RandomHistory(old: old, store: store, policy: policy, seed: seed)
            try history.play(steps: 600)
            var random = history.random
            let lines = history.lines + Self.everyQuestion(old, names: old.book.accounts.map(\.name), random: &random)
            try Self.write(lines, to: "differential-seed\(seed).jsonl")
        }
        // A data folder the engine wrote: a snapshot part way, then more records after it.
        let data = "\(AccountFixture.folder)/old-data-folder"
        try? FileManager.default.removeItem(atPath: data)
        let directory = JournalDirectory(path: data, log: .silent)
        try directory.prepareChecked()
        do {
            let writer = try Accounts(directory: directory, faults: nil, log: .silent, snapshotAfter: 1, policy: policy)
            var history = RandomHistory(old: writer, store: nil, policy: policy, seed: 11)
            try history.play(steps: 200)
            writer.checkpoint()
            writer.finishSnapshots()
            try history.play(steps: 200)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: data) where name != "accounts" {
            try FileManager.default.removeItem(atPath: "\(data)/\(name)")
        }
        let old = try Accounts(directory: JournalDirectory(path: data, log: .silent), faults: nil, log: .silent, policy: policy)
        var random = SplitMix64(seed: 5)
        try Self.write(Self.everyQuestion(old, names: old.book.accounts.map(\.name), random: &random), to: "old-data-folder-answers.jsonl")
    }

    static func write(_ lines: [JSONValue], to name: String) throws {
        let text = lines.map { JSONWriter.string($0) + "\n" }.joined()
        try text.write(toFile: "\(AccountFixture.folder)/\(name)", atomically: true, encoding: .utf8)
    }

    /// Every question `SQLStoreDifferentialTests` asked of both engines, with the old one's answer.
    static func everyQuestion(_ old: Accounts, names: [String], random: inout SplitMix64) -> [JSONValue] {
        var lines: [JSONValue] = []
        let asked = names + names.map { $0.uppercased() } + ["nobody", "Ann", "\u{0410}nn"]
        for name in asked {
            // A name asked otherwise (upper case, a look-alike) finds the same account: its pages
            // are walked once, under the name itself.
            let walked = names.contains(name)
            lines.append(["ask": "named", "name": .string(name), "answer": AccountFixture.json(old.book.account(named: name).map(stored))])
            lines.append(["ask": "profile", "name": .string(name), "answer": AccountFixture.json(AccountReplies.profile(name, in: old.book))])
            for after in (walked ? [nil, "0", "-1", "x", "100000"] : [nil, "x"]) as [String?] {
                let limit = Int.random(in: 1...7, using: &random)
                lines.append(["ask": "history", "name": .string(name), "after": AccountFixture.optional(after), "limit": .int(Int64(limit)),
                              "id": .int(7),
                              "answer": AccountFixture.json(AccountReplies.history(name, after: after, limit: limit, id: .int(7), in: old.book))])
            }
            var cursor: String?
            repeat {
                guard walked else { break }
                let page = AccountReplies.history(name, after: cursor, limit: 3, id: nil, in: old.book)
                lines.append(["ask": "history", "name": .string(name), "after": AccountFixture.optional(cursor), "limit": 3,
                              "answer": AccountFixture.json(page)])
                guard case .success(let line) = page, let object = try? JSONParser.parse(Array(line.dropLast())).objectValue else { break }
                cursor = object["next"]?.stringValue
            } while cursor != nil
            for other in names.prefix(8) + ["nobody"] {
                lines.append(["ask": "crosstable", "name": .string(name), "other": .string(other),
                              "answer": AccountFixture.json(AccountReplies.crosstable(name, other, in: old.book))])
            }
        }
        for account in old.book.accounts {
            lines.append(["ask": "identity", "identity": .string(AccountRecord.text(account.identity)), "answer": AccountFixture.json(stored(account))])
            lines.append(["ask": "id", "id": .int(Int64(account.id)), "answer": AccountFixture.json(stored(account))])
        }
        for variant in Variant.allCases {
            for after in [nil, "0", "1", "2", "5", "-1", "z"] as [String?] {
                for limit in [0, 1, 3, 50] {
                    lines.append(["ask": "leaderboard", "variant": .string(variant.rawValue), "after": AccountFixture.optional(after),
                                  "limit": .int(Int64(limit)), "answer": AccountFixture.json(old.leaderboard(variant, after: after, limit: limit))])
                }
            }
        }
        return lines
    }

    static func stored(_ account: AccountBook.Account) -> StoredAccount { SQLStoreDifferentialTests.stored(account) }
}
