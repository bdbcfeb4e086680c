import Foundation
import SetRatings
import SetRules
@testable import SetServer
import SetWire
import Testing

/// A random history (accounts made, renamed, games of every kind) told to the accounts log's
/// engine (`Accounts`) and, when there is one, to a SQL store, checking at each step that both
/// decide alike. The same seed makes the same history.
struct RandomHistory {
    let old: Accounts
    let store: SQLAccountStore?
    let policy: RatingPolicy
    var random: SplitMix64
    var wall: Int64 = 1_000_000
    var identities: [PlayerIdentity] = []
    var commitments: [String] = []
    let stems = ["ann", "bob", "Cy", "dee", "Eve", "fay", "gus", "hal", "ivy"]
    /// Each step with the old engine's answer, as `AccountFixture` keeps them.
    var lines: [JSONValue] = []

    init(old: Accounts, store: SQLAccountStore?, policy: RatingPolicy, seed: UInt64) {
        (self.old, self.store, self.policy, random) = (old, store, policy, SplitMix64(seed: seed))
    }

    /// Six accounts, then `steps` steps: a new account or a rename now and then, else a game.
    mutating func play(steps: Int) throws {
        for _ in 0..<6 { try newAccount() }
        for _ in 0..<steps {
            wall += Int64.random(in: 0...120, using: &random)
            switch Int.random(in: 0..<40, using: &random) {
            case 0, 1: try newAccount()
            case 2: try rename()
            default: try game()
            }
        }
    }

    mutating func newAccount() throws {
        let identity: PlayerIdentity = Bool.random(using: &random) ? .accountKey(digest: String(format: "%064x", identities.count))
            : .sshKey(fingerprint: "SHA256:k\(identities.count)")
        let name = stems.randomElement(using: &random)! + (Bool.random(using: &random) ? "" : String(Int.random(in: 1...30, using: &random)))
        let bot = Int.random(in: 0..<5, using: &random) == 0
        let before = old.book.account(named: name)
        old.wallSeconds = { [wall] in wall }
        let seated = old.seat(name, identity: identity, bot: bot)
        lines.append(["step": "create", "identity": .string(AccountRecord.text(identity)), "name": .string(name), "bot": .bool(bot),
                      "wall": .int(wall), "answer": (try? seated.get()).flatMap { $0.map { .int(Int64($0.id)) } } ?? "name_taken"])
        guard let store else {
            if case .success = seated { identities.append(identity) }
            return
        }
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

    mutating func rename() throws {
        guard let identity = identities.randomElement(using: &random), let account = old.book.account(for: identity) else { return }
        let name = stems.randomElement(using: &random)! + String(Int.random(in: 1...40, using: &random))
        let seated = old.seat(name, identity: identity, bot: account.bot)
        lines.append(["step": "rename", "id": .int(Int64(account.id)), "name": .string(name),
                      "answer": (try? seated.get()).flatMap { $0.map { .string($0.name) } } ?? "name_taken"])
        guard let store else { return }
        do {
            let renamed = try store.rename(account.id, to: name)
            #expect(renamed.name == name)
            #expect(try seated.get()?.name == name)
        } catch StoreError.nameTaken {
            if case .success = seated { Issue.record("the old engine renamed \(account.id) to \(name)") }
        }
    }

    mutating func game() throws {
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
        old.wallSeconds = { [wall] in wall }
        let decided = old.record(of: finished, journal: journal)
        #expect(old.record(decided))
        let answer = AccountFixture.json(AccountBook.concernsAccounts(decided) ? decided : nil)
        lines.append(["step": "game", "finished": AccountFixture.json(finished), "journal": .string(journal), "wall": .int(wall), "answer": answer])
        guard let store else { return }
        let recorded = try store.record(finished, journal: journal, wallSeconds: wall, policy: policy)
        if AccountBook.concernsAccounts(decided) {
            #expect(recorded == decided)
        } else {
            #expect(recorded == nil)
        }
        // Recorded again (a recovery): the record it has, nothing moved.
        if Int.random(in: 0..<10, using: &random) == 0 {
            #expect(try store.record(finished, journal: journal, wallSeconds: wall + 5, policy: policy) == recorded)
            lines.append(["step": "game", "finished": AccountFixture.json(finished), "journal": .string(journal), "wall": .int(wall + 5), "answer": answer])
        }
    }
}
