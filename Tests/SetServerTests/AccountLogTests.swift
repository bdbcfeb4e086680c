import Foundation
import SetRatings
import SetRules
@testable import SetServer
import Testing

/// The accounts log on real files: what a crash leaves (a torn last line) is dropped, a damaged
/// log is set aside and written anew without its bad lines, and records that break the book's
/// rules are damage.
@Suite struct AccountLogTests {
    func folder() throws -> JournalDirectory {
        let path = NSTemporaryDirectory() + "setgame-account-log-\(UUID().uuidString)"
        let directory = JournalDirectory(path: path, log: .silent)
        try directory.prepareChecked()
        return directory
    }

    func finished(_ a: Int?, _ b: Int?, commitment: String, sets: [Int] = [1, 0]) -> FinishedGame {
        FinishedGame(match: "m", game: 1, commitment: commitment, mode: .duel, variant: .classic,
                     result: MatchResult(reason: .noSetsLeft, by: nil, scores: [30, 0], winner: .first),
                     seats: [.init(account: a, name: "ann", casual: false, sets: sets[0], setTimes: Array(repeating: 900, count: sets[0])),
                             .init(account: b, name: "bob", casual: false, sets: sets[1], setTimes: [])],
                     endedAt: 5_000, durationMs: 4_000)
    }

    /// Two accounts and a rated game between them, written through `Accounts`.
    func filled(_ directory: JournalDirectory) throws -> Accounts {
        let accounts = try Accounts(directory: directory, faults: nil, log: .silent)
        _ = accounts.seat("ann", identity: .accountKey(digest: "a"), bot: false)
        _ = accounts.seat("bob", identity: .sshKey(fingerprint: "SHA256:b"), bot: true)
        #expect(accounts.record(accounts.record(of: finished(0, 1, commitment: "c1"), journal: "m.jsonl")))
        return accounts
    }

    var logPath: (JournalDirectory) -> String { { "\($0.accountsPath)/\(AccountLog.fileName)" } }

    @Test func aRestartRebuildsTheSameBook() throws {
        let directory = try folder()
        let before = try filled(directory).book
        let after = try Accounts(directory: directory, faults: nil, log: .silent).book
        #expect(after.accounts.map(\.name) == ["ann", "bob"] && after.accounts[1].bot)
        #expect(after.account(for: .sshKey(fingerprint: "SHA256:b"))?.id == 1)
        #expect(after.accounts.map { $0.ratings[.classic] } == before.accounts.map { $0.ratings[.classic] })
        #expect(after.games == before.games && after.accounts[0].wins == 1 && after.accounts[1].losses == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: logPath(directory))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aTornLastLineIsDroppedAndCutOff() throws {
        let directory = try folder()
        _ = try filled(directory)
        let handle = try #require(FileHandle(forWritingAtPath: logPath(directory)))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"type":"rename","id":0,"na"#.utf8))
        handle.closeFile()
        let lines = ServerLogLines()
        let accounts = try Accounts(directory: directory, faults: nil, log: lines.log)
        #expect(accounts.book.accounts.count == 2 && accounts.book.games.count == 1)
        #expect(lines.all.contains { $0.contains("dropped a torn last line") })
        #expect(try String(contentsOfFile: logPath(directory), encoding: .utf8).hasSuffix("}\n"))
    }

    /// A record that breaks the rules (a second owner of a name) is damage: the file goes to
    /// `damaged/`, and the log is written anew without it, every other record kept (issue 32
    /// item 9: one bad line never costs the records after it).
    @Test func damageIsSetAsideAndEveryOtherRecordIsKept() throws {
        let directory = try folder()
        _ = try filled(directory)
        let handle = try #require(FileHandle(forWritingAtPath: logPath(directory)))
        handle.seekToEndOfFile()
        handle.write(Data(("{\"id\":2,\"identity\":\"key:c\",\"name\":\"ANN\",\"type\":\"account\",\"wall\":1}\n"
                           + "{\"id\":0,\"name\":\"annie\",\"type\":\"rename\"}\n").utf8))
        handle.closeFile()
        let lines = ServerLogLines()
        let accounts = try Accounts(directory: JournalDirectory(path: directory.path, log: lines.log), faults: nil, log: lines.log)
        #expect(accounts.book.accounts.map(\.name) == ["annie", "bob"] && accounts.book.games.count == 1)
        #expect(lines.all.contains { $0.contains("accounts.jsonl holds 1 bad record(s) (record 4: the name \"ANN\" is owned already)") }, "\(lines.all)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.damagedPath).count == 1)
        let again = try Accounts(directory: directory, faults: nil, log: .silent)
        #expect(again.book.accounts.map(\.name) == ["annie", "bob"] && again.book.games == accounts.book.games)
        #expect(try String(contentsOfFile: logPath(directory), encoding: .utf8).split(separator: "\n").count == 4)
        // The records before the damage are kept byte for byte: set times and all.
        #expect(again.book.accounts[0].setTimes.count == 1 && again.book.accounts[0].setTimes.best == 900 && again.book.accounts[0].setTimes.median == 900)
    }

    /// Issue 32 item 9: a game line whose rating the reader refuses (the r −12861 an unbounded
    /// update once wrote) costs that game alone: the games and accounts after it are kept.
    @Test func aRatingTheReaderRefusesCostsOnlyItsOwnGame() throws {
        let directory = try folder()
        let accounts = try filled(directory)
        var bad = accounts.record(of: finished(0, 1, commitment: "c2"), journal: "m.jsonl")
        bad.players[0].after?.rating = -12_861
        let handle = try #require(FileHandle(forWritingAtPath: logPath(directory)))
        handle.seekToEndOfFile()
        handle.write(Data(AccountRecord.game(bad).encoded()))
        handle.write(Data(AccountRecord.created(id: 2, identity: .accountKey(digest: "c"), name: "cat", bot: false, wallSeconds: 1).encoded()))
        handle.closeFile()
        let middle = try Accounts(directory: directory, faults: nil, log: .silent)
        #expect(middle.book.games.count == 1 && middle.book.accounts.map(\.name) == ["ann", "bob", "cat"])
        #expect(middle.record(middle.record(of: finished(0, 2, commitment: "c3"), journal: "m.jsonl")))
        let lines = ServerLogLines()
        let again = try Accounts(directory: directory, faults: nil, log: lines.log)
        #expect(again.book.accounts.map(\.name) == ["ann", "bob", "cat"])
        #expect(again.book.games.count == 2 && again.book.hasGame("c3") && !again.book.hasGame("c2"))
        #expect(!lines.all.contains { $0.contains("bad record") }, "the first restart already wrote the log anew: \(lines.all)")
    }

    /// Issue 32 item 9: the writer asks the reader first; a rated game whose ratings would not
    /// read back is recorded unrated (kept, nobody's rating moved), never written to be refused.
    @Test func aRecordTheReaderWouldRefuseIsNeverWritten() throws {
        let directory = try folder()
        let accounts = try filled(directory)
        var bad = accounts.record(of: finished(0, 1, commitment: "c2"), journal: "m.jsonl")
        bad.players[0].after?.rating = -12_861
        let before = accounts.book.accounts[0].ratings[.classic]
        #expect(accounts.record(bad))
        #expect(accounts.book.accounts[0].ratings[.classic] == before && accounts.book.game("c2")?.rated == false)
        let lines = ServerLogLines()
        let again = try Accounts(directory: directory, faults: nil, log: lines.log)
        #expect(again.book.games.count == 2 && again.book.game("c2")?.rated == false)
        #expect(!lines.all.contains { $0.contains("bad record") }, "\(lines.all)")
    }

    @Test func aGameIsRecordedOnceAndAnUnwrittenOneWaitsForTheDisk() throws {
        let directory = try folder()
        let faults = JournalFaults()
        let accounts = try Accounts(directory: directory, faults: faults, log: .silent)
        _ = accounts.seat("ann", identity: .accountKey(digest: "a"), bot: false)
        _ = accounts.seat("bob", identity: .accountKey(digest: "b"), bot: false)
        faults.failing = true
        let record = accounts.record(of: finished(0, 1, commitment: "c1"), journal: "m.jsonl")
        #expect(!accounts.record(record))
        #expect(accounts.book.games.isEmpty && accounts.unwritten.count == 1)
        faults.failing = false
        accounts.retry()
        #expect(accounts.book.games.count == 1 && accounts.unwritten.isEmpty)
        #expect(accounts.record(record))
        #expect(accounts.book.games.count == 1)
        let reread = try Accounts(directory: directory, faults: nil, log: .silent)
        #expect(reread.book.games.count == 1)
    }

    @Test func onlyADuelOfTwoAccountsWithASetTakenIsRated() throws {
        let book = try filled(try folder()).book
        #expect(book.record(of: finished(0, 1, commitment: "x"), wallSeconds: 0, journal: "").rated)
        #expect(!book.record(of: finished(0, nil, commitment: "x"), wallSeconds: 0, journal: "").rated)
        #expect(!book.record(of: finished(0, 0, commitment: "x"), wallSeconds: 0, journal: "").rated)
        let aborted = book.record(of: finished(0, 1, commitment: "x", sets: [0, 0]), wallSeconds: 0, journal: "")
        #expect(!aborted.rated && aborted.outcome == .aborted)
        var casual = finished(0, 1, commitment: "x")
        casual.seats[1].casual = true
        #expect(!book.record(of: casual, wallSeconds: 0, journal: "").rated)
        var tie = finished(0, 1, commitment: "x")
        tie.result = MatchResult(reason: .noSetsLeft, by: nil, scores: [30, 30], winner: nil)
        let drawn = book.record(of: tie, wallSeconds: 0, journal: "")
        #expect(drawn.rated && drawn.outcome == .draw && drawn.score(of: 0) == .draw)
    }

    /// Only established players (RD 110 or less) are listed, best first, a page at a time.
    @Test func theLeaderboardListsEstablishedPlayersBestFirst() throws {
        var book = AccountBook()
        for (id, rating, deviation) in [(0, 1600.0, 60.0), (1, 1700.0, 200.0), (2, 1650.0, 100.0), (3, 1500.0, 110.0)] {
            book.apply(.created(id: id, identity: .accountKey(digest: "\(id)"), name: "p\(id)", bot: id == 2, wallSeconds: 0))
            let after = Rating(rating: rating, deviation: deviation, volatility: 0.06)
            let player = GameRecord.Player(account: id, name: "p\(id)", points: 1, sets: 1, setTimes: [], before: .initial, after: after)
            let other = GameRecord.Player(account: nil, name: "x", points: 0, sets: 0, setTimes: [])
            book.apply(.game(GameRecord(match: "m", game: 1, commitment: "c\(id)", mode: .duel, variant: .classic, rated: true, outcome: .win,
                                        reason: .noSetsLeft, winner: .first, players: [player, other], endedAt: 0, durationMs: 0,
                                        wallSeconds: 0, journal: "m.jsonl")))
        }
        let ranked = AccountReplies.ranking(.classic, in: book, policy: .open)
        let first = try AccountReplies.leaderboard(.classic, ranked: ranked, after: nil, limit: 2, in: book).get()
        #expect(first.fields["players"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } == ["p2", "p0"])
        #expect(first.fields["players"]?.arrayValue?.first?.objectValue?["bot"] == .bool(true))
        let second = try AccountReplies.leaderboard(.classic, ranked: ranked, after: first.fields["next"]?.stringValue, limit: 2,
                                                    in: book).get()
        #expect(second.fields["players"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } == ["p3"])
        #expect(second.fields["next"] == nil)
        #expect(try AccountReplies.leaderboard(.junior, ranked: AccountReplies.ranking(.junior, in: book, policy: .open), after: nil, limit: 2,
                                               in: book).get().fields["players"] == .array([]))
    }

    /// The kept ranking follows each rated game.
    @Test func theLeaderboardFollowsEachRatedGame() throws {
        let accounts = try Accounts(directory: nil, faults: nil, log: .silent, policy: .open)
        _ = accounts.seat("ann", identity: .accountKey(digest: "a"), bot: false)
        _ = accounts.seat("bob", identity: .accountKey(digest: "b"), bot: false)
        func game(_ number: Int, ann: Double, bob: Double) -> GameRecord {
            let rating = { (value: Double) in Rating(rating: value, deviation: 60, volatility: 0.06) }
            return GameRecord(match: "m", game: number, commitment: "c\(number)", mode: .duel, variant: .classic, rated: true,
                              outcome: .win, reason: .noSetsLeft, winner: .first,
                              players: [.init(account: 0, name: "ann", points: 1, sets: 1, setTimes: [], before: .initial, after: rating(ann)),
                                        .init(account: 1, name: "bob", points: 0, sets: 0, setTimes: [], before: .initial, after: rating(bob))],
                              endedAt: 0, durationMs: 0, wallSeconds: 0, journal: "m.jsonl")
        }
        func names() throws -> [String] {
            try accounts.leaderboard(.classic, after: nil, limit: 10).get().fields["players"]?.arrayValue?
                .compactMap { $0.objectValue?["name"]?.stringValue } ?? []
        }
        #expect(try names().isEmpty)
        #expect(accounts.record(game(1, ann: 1600, bob: 1700)))
        #expect(try names() == ["bob", "ann"])
        #expect(accounts.record(game(2, ann: 1800, bob: 1650)))
        #expect(try names() == ["ann", "bob"])
    }

    /// A journal is a file anyone with the folder can edit: a seat naming an account the log does
    /// not hold plays as a guest, and its game is recorded unrated, never trapping the server.
    @Test func aSeatOfAnUnknownAccountIsAGuest() throws {
        let directory = try folder()
        let accounts = try filled(directory)
        let record = accounts.record(of: finished(0, 99, commitment: "c2"), journal: "m.jsonl")
        #expect(!record.rated && record.players.map(\.account) == [0, nil])
        #expect(accounts.record(record))
        #expect(try Accounts(directory: directory, faults: nil, log: .silent).book.games.count == 2)
    }
}
