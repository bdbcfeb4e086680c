import Foundation
import SetRatings
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// The oracle while the accounts log's engine exists: random histories (accounts, renames, rated,
/// unrated, aborted, solo, drawn games, games against oneself, guests, an unknown account) go
/// to the old `Accounts` and to the SQL store alike, and every answer must be the same, byte for
/// byte: each game's record, profiles, history pages with their cursors, crosstables, leaderboards.
@Suite struct SQLStoreDifferentialTests {
    /// Small enough that a few hundred games list players and hit the pair limit.
    static let policy = RatingPolicy(pairGamesPerWindow: 4, pairWindowSeconds: 2_000, leaderboardGames: 4, leaderboardOpponents: 2,
                                     leaderboardSpanSeconds: 600)

    @Test(arguments: TestStoreKind.allCases, [UInt64(1), 2, 3])
    func everyAnswerIsTheOldEnginesAnswer(kind: TestStoreKind, seed: UInt64) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let old = try Accounts(directory: nil, faults: nil, log: .silent, policy: Self.policy)
        var history = RandomHistory(old: old, store: subject.store, policy: Self.policy, seed: seed)
        try history.play(steps: 600)
        var random = history.random
        try Self.compareEveryAnswer(old, subject.store, names: old.book.accounts.map(\.name), random: &random)
    }

    /// The same histories and questions, held to the old engine's answers frozen in `Fixtures/`
    /// (`AccountFixture`): every step's answer and every answer after them, byte for byte.
    @Test(arguments: TestStoreKind.allCases, [UInt64(1), 2, 3])
    func everyAnswerIsTheFrozenAnswerOfTheOldEngine(kind: TestStoreKind, seed: UInt64) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let lines = try AccountFixture.lines("differential-seed\(seed).jsonl")
        #expect(lines.count > 1_000)
        let listed = try AccountFixture.replay(lines, into: subject.store, policy: Self.policy)
        #expect(listed > 0, "no leaderboard listed anyone: the comparison proves little")
    }

    /// Every question about every account, asked of both.
    static func compareEveryAnswer(_ old: Accounts, _ store: SQLAccountStore, names: [String], random: inout SplitMix64) throws {
        let asked = names + names.map { $0.uppercased() } + ["nobody", "Ann", "\u{0410}nn"]
        for name in asked {
            #expect(try store.account(named: name) == old.book.account(named: name).map(Self.stored))
            try expectSame(store.profile(name), AccountReplies.profile(name, in: old.book))
            for after in [nil, "0", "-1", "x", "100000"] as [String?] {
                let limit = Int.random(in: 1...7, using: &random)
                try expectSame(store.history(name, after: after, limit: limit, id: .int(7)),
                               AccountReplies.history(name, after: after, limit: limit, id: .int(7), in: old.book))
            }
            var cursor: String?
            repeat {
                let page = try store.history(name, after: cursor, limit: 3, id: nil)
                expectSame(page, AccountReplies.history(name, after: cursor, limit: 3, id: nil, in: old.book))
                guard case .success(let line) = page, let object = try JSONParser.parse(Array(line.dropLast())).objectValue else { break }
                cursor = object["next"]?.stringValue
            } while cursor != nil
            for other in names.prefix(8) + ["nobody"] {
                try expectSame(store.crosstable(name, other), AccountReplies.crosstable(name, other, in: old.book))
            }
        }
        for account in old.book.accounts {
            #expect(try store.account(for: account.identity) == Self.stored(account))
            #expect(try store.account(id: account.id) == Self.stored(account))
        }
        var listed = 0
        for variant in Variant.allCases {
            for after in [nil, "0", "1", "2", "5", "-1", "z"] as [String?] {
                for limit in [0, 1, 3, 50] {
                    let new = try store.leaderboard(variant, after: after, limit: limit)
                    expectSame(new, old.leaderboard(variant, after: after, limit: limit))
                    if case .success(let info) = new { listed = max(listed, info.fields["players"]?.arrayValue?.count ?? 0) }
                }
            }
        }
        #expect(listed > 0, "no leaderboard listed anyone: the comparison proves little")
    }

    static func stored(_ account: AccountBook.Account) -> StoredAccount {
        StoredAccount(id: account.id, identity: account.identity, name: account.name, bot: account.bot, createdWall: account.createdWall,
                      ratings: account.ratings)
    }

    static func expectSame(_ new: Result<AccountInfo, WireError>, _ old: Result<AccountInfo, WireError>,
                    sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(new == old, sourceLocation: sourceLocation)
        if case .success(let a) = new, case .success(let b) = old {
            #expect(JSONWriter.bytes(.object(a.fields)) == JSONWriter.bytes(.object(b.fields)), sourceLocation: sourceLocation)
        }
    }

    static func expectSame(_ new: Result<[UInt8], WireError>, _ old: Result<[UInt8], WireError>, sourceLocation: SourceLocation = #_sourceLocation) {
        if case .success(let a) = new, case .success(let b) = old, a != b {
            Issue.record("history differs:\nnew \(String(decoding: a, as: UTF8.self))old \(String(decoding: b, as: UTF8.self))", sourceLocation: sourceLocation)
        } else {
            #expect(new == old, sourceLocation: sourceLocation)
        }
    }
}
