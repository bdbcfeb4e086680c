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
        let store = subject.store
        let old = try Accounts(directory: nil, faults: nil, log: .silent, policy: Self.policy)
        var random = SplitMix64(seed: seed)
        var wall: Int64 = 1_000_000
        old.wallSeconds = { wall }
        var identities: [PlayerIdentity] = []
        var commitments: [String] = []
        let stems = ["ann", "bob", "Cy", "dee", "Eve", "fay", "gus", "hal", "ivy"]

        func newAccount() throws {
            let identity: PlayerIdentity = Bool.random(using: &random) ? .accountKey(digest: String(format: "%064x", identities.count))
                : .sshKey(fingerprint: "SHA256:k\(identities.count)")
            let name = stems.randomElement(using: &random)! + (Bool.random(using: &random) ? "" : String(Int.random(in: 1...30, using: &random)))
            let bot = Int.random(in: 0..<5, using: &random) == 0
            let before = old.book.account(named: name)
            let seated = old.seat(name, identity: identity, bot: bot)
            do {
                let made = try store.create(identity, name: name, bot: bot, wallSeconds: wall)
                let oldAccount = try #require(try seated.get())
                #expect(made.id == oldAccount.id && made.name == oldAccount.name && made.bot == oldAccount.bot)
                identities.append(identity)
            } catch StoreError.nameTaken {
                #expect(before != nil, "the store says \(name) is taken; the old engine did not")
                if case .success = seated { Issue.record("the old engine made an account named \(name)") }
            }
        }

        func rename() throws {
            guard let identity = identities.randomElement(using: &random), let account = old.book.account(for: identity) else { return }
            let name = stems.randomElement(using: &random)! + String(Int.random(in: 1...40, using: &random))
            let seated = old.seat(name, identity: identity, bot: account.bot)
            do {
                let renamed = try store.rename(account.id, to: name)
                #expect(renamed.name == name)
                #expect(try seated.get()?.name == name)
            } catch StoreError.nameTaken {
                if case .success = seated { Issue.record("the old engine renamed \(account.id) to \(name)") }
            }
        }

        func play() throws {
            let ids = identities.compactMap { old.book.account(for: $0)?.id }
            func someone() -> Int? {
                switch Int.random(in: 0..<12, using: &random) {
                case 0: nil
                case 1: 999  // an id no account has: a guest
                default: ids.randomElement(using: &random)
                }
            }
            let solo = Int.random(in: 0..<8, using: &random) == 0
            var seats = solo ? [someone()] : [someone(), someone()]
            if !solo && Int.random(in: 0..<25, using: &random) == 0 { seats[1] = seats[0] }  // a game against oneself
            let sets = seats.map { _ in Int.random(in: 0..<6, using: &random) == 0 ? 0 : Int.random(in: 0...14, using: &random) }
            let scores = sets.map { $0 * 3 - Int.random(in: 0...2, using: &random) }
            let winner: SetRules.Seat? = solo || scores.count < 2 || scores[0] == scores[1] ? nil : scores[0] > scores[1] ? .first : .second
            let reason = MatchResult.Reason.allCases.randomElement(using: &random)!
            let commitment = Bool.random(using: &random) ? String(format: "%064x", 1_000_000 + commitments.count) : "odd-\(commitments.count)"
            commitments.append(commitment)
            let finished = FinishedGame(
                match: Bool.random(using: &random) ? "m-\(commitments.count)" : "room \(commitments.count)", game: Int.random(in: 1...4, using: &random),
                commitment: commitment, mode: solo ? .solo : .duel, variant: Int.random(in: 0..<4, using: &random) == 0 ? Variant.allCases.randomElement(using: &random)! : .classic,
                result: MatchResult(reason: reason, by: nil, scores: scores, winner: winner),
                seats: zip(seats, sets).map { account, count in
                    FinishedGame.Seated(account: account, name: stems.randomElement(using: &random)!, casual: Int.random(in: 0..<10, using: &random) == 0,
                                        sets: count, setTimes: (0..<count).map { _ in Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 25_000...90_000, using: &random) : Int.random(in: 300...20_000, using: &random) })
                },
                endedAt: Int64(commitments.count) * 1_000, durationMs: Int64.random(in: 1_000...900_000, using: &random))
            let journal = Bool.random(using: &random) ? "\(finished.match).jsonl" : "finished/\(finished.match).jsonl"
            let decided = old.record(of: finished, journal: journal)
            #expect(old.record(decided))
            let recorded = try store.record(finished, journal: journal, wallSeconds: wall, policy: Self.policy)
            if AccountBook.concernsAccounts(decided) {
                #expect(recorded == decided)
            } else {
                #expect(recorded == nil)
            }
            // Recorded again (a recovery): the record it has, nothing moved.
            if Int.random(in: 0..<10, using: &random) == 0 {
                #expect(try store.record(finished, journal: journal, wallSeconds: wall + 5, policy: Self.policy) == recorded)
            }
        }

        for _ in 0..<6 { try newAccount() }
        for _ in 0..<600 {
            wall += Int64.random(in: 0...120, using: &random)
            switch Int.random(in: 0..<40, using: &random) {
            case 0, 1: try newAccount()
            case 2: try rename()
            default: try play()
            }
        }
        try compareEveryAnswer(old, store, names: old.book.accounts.map(\.name), random: &random)
    }

    /// Every question about every account, asked of both.
    func compareEveryAnswer(_ old: Accounts, _ store: SQLAccountStore, names: [String], random: inout SplitMix64) throws {
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

    func expectSame(_ new: Result<AccountInfo, WireError>, _ old: Result<AccountInfo, WireError>,
                    sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(new == old, sourceLocation: sourceLocation)
        if case .success(let a) = new, case .success(let b) = old {
            #expect(JSONWriter.bytes(.object(a.fields)) == JSONWriter.bytes(.object(b.fields)), sourceLocation: sourceLocation)
        }
    }

    func expectSame(_ new: Result<[UInt8], WireError>, _ old: Result<[UInt8], WireError>, sourceLocation: SourceLocation = #_sourceLocation) {
        if case .success(let a) = new, case .success(let b) = old, a != b {
            Issue.record("history differs:\nnew \(String(decoding: a, as: UTF8.self))old \(String(decoding: b, as: UTF8.self))", sourceLocation: sourceLocation)
        } else {
            #expect(new == old, sourceLocation: sourceLocation)
        }
    }
}
