import Foundation
import SetNet
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

/// Accounts, names and ratings over real loopback sockets: rated duels, what is never rated, and
/// ratings that outlive the server.
@Suite(.serialized) struct AccountTests {
    static let annKey = String(repeating: "a1", count: 32)
    static let bobKey = String(repeating: "b2", count: 32)

    func temporaryDirectory() -> String { temporaryFolder("setgame-accounts") }

    func server(data: String? = nil) throws -> TestServer {
        try TestServer { $0.dataDirectory = data }
    }

    /// Connects and joins with an account key (nil: a guest); returns the client once its snapshot came.
    func join(_ server: TestServer, _ name: String, key: String?, match: String = "m", casual: Bool = false,
              role: Role = .player) throws -> TestClient {
        try TestClient.joined(port: server.port, name: name, key: key, match: match, role: role, casual: casual)
    }

    /// A duel in which ann takes one set and then resigns: bob wins.
    func duelAnnResigns(_ server: TestServer, annKey: String? = annKey, bobKey: String? = bobKey, casual: Bool = false,
                        match: String = "m") throws -> (TestClient, TestClient, [RatingChange]) {
        let ann = try join(server, "ann", key: annKey, match: match, casual: casual)
        let bob = try join(server, "bob", key: bobKey, match: match)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        ann.send(.act(.resign, seat: nil))
        let over = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return (ann, bob, []) }
        return (ann, bob, ratings)
    }

    /// Stops `server` and leaves `data` as a kill -9 after the game's last write would: the
    /// journal of `match` live at the top, not yet moved to finished/ (a clean stop moves a match
    /// that is over there). The clients stay connected until then.
    static func kill(_ server: inout TestServer?, data: String, match: String = "m", clients: (TestClient, TestClient)) throws {
        let journal = try String(contentsOfFile: "\(data)/\(match).jsonl", encoding: .utf8)
        withExtendedLifetime(clients) { server?.stop() }
        server = nil
        try? FileManager.default.removeItem(atPath: data + "/finished")
        try journal.write(toFile: "\(data)/\(match).jsonl", atomically: true, encoding: .utf8)
    }

    func ask(_ client: TestClient, _ query: AccountQuery) throws -> AccountInfo {
        client.send(.account(query), id: "q")
        return try client.waitFor("answer") { message -> AccountInfo? in
            if case .accountInfo(let info, _) = message { return info }
            if case .error(let error, _) = message { Issue.record("error \(error.code): \(error.message)"); return AccountInfo(.profile, [:]) }
            return nil
        }
    }

    @Test func aRatedDuelMovesBothRatingsAndTheyOutliveARestart() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data)
        let (ann, bob, ratings) = try duelAnnResigns(first!)
        #expect(ratings.count == 2)
        let annChange = try #require(ratings.first { $0.seat == .first })
        let bobChange = try #require(ratings.first { $0.seat == .second })
        #expect(annChange.before == 1500 && annChange.after < 1500 && annChange.provisional)
        #expect(bobChange.before == 1500 && bobChange.after > 1500)
        #expect(bobChange.shown == "1500 → \(bobChange.after)?, +\(bobChange.after - 1500)")
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil

        let second = try server(data: data)
        defer { second.stop() }
        let eve = try join(second, "eve", key: nil, match: "other")
        let profile = try ask(eve, .profile(name: "bob"))
        let classic = profile.fields["ratings"]?.objectValue?["classic"]?.objectValue
        #expect(classic?["rating"]?.intValue == Int64(bobChange.after))
        #expect(profile.fields["wins"]?.intValue == 1 && profile.fields["games"]?.intValue == 1)
        let history = try ask(eve, .history(name: "ann", after: nil, limit: nil))
        let games = history.fields["games"]?.arrayValue ?? []
        #expect(games.count == 1)
        #expect(games.first?.objectValue?["result"]?.stringValue == "loss")
        #expect(games.first?.objectValue?["rated"]?.boolValue == true)
        let table = try ask(eve, .crosstable(name: "bob", other: "ann"))
        #expect(table.fields["wins"]?.intValue == 1 && table.fields["losses"]?.intValue == 0)
        // Both are provisional after one game: the leaderboard lists established players only.
        let board = try ask(eve, .leaderboard(variant: .classic, after: nil, limit: nil))
        #expect(board.fields["players"]?.arrayValue?.isEmpty == true)
    }

    @Test func anotherAccountAskingForATakenNameIsToldSoWithASuggestion() throws {
        let server = try server()
        defer { server.stop() }
        let ann = try join(server, "ann", key: Self.annKey)
        for key in [Self.bobKey, nil] {
            let other = try TestClient(port: server.port)
            _ = try other.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
            var request = JoinRequest(name: "ANN", match: "x")
            request.account = key
            other.send(.join(request))
            let error = try other.awaitError(.nameTaken)
            #expect(error.details["suggestion"] == .string("ANN2"))
        }
        withExtendedLifetime(ann) {}
    }

    @Test func theOwnerTakesANewNameAndKeepsItsRatings() throws {
        let server = try server()
        defer { server.stop() }
        let (ann, bob, ratings) = try duelAnnResigns(server)
        withExtendedLifetime((ann, bob)) {}
        let renamed = try join(server, "bobby", key: Self.bobKey, match: "later")
        let profile = try ask(renamed, .profile(name: "bobby"))
        let rating = profile.fields["ratings"]?.objectValue?["classic"]?.objectValue?["rating"]?.intValue
        #expect(rating == Int64(ratings.first { $0.seat == .second }?.after ?? 0))
        // The old name is free again for anyone.
        let guest = try join(server, "bob", key: nil, match: "free")
        withExtendedLifetime(guest) {}
    }

    @Test func guestAndCasualDuelsAreRecordedButUnrated() throws {
        let server = try server()
        defer { server.stop() }
        let (ann, bob, guestRatings) = try duelAnnResigns(server, annKey: nil, match: "g")
        #expect(guestRatings.isEmpty)
        let (ann2, bob2, casualRatings) = try duelAnnResigns(server, casual: true, match: "c")
        #expect(casualRatings.isEmpty)
        withExtendedLifetime((ann, bob, ann2, bob2)) {}
        let profile = try ask(bob2, .profile(name: "bob"))
        #expect(profile.fields["ratings"]?.objectValue?.isEmpty == true)
        let history = try ask(bob2, .history(name: nil, after: nil, limit: nil))
        let games = history.fields["games"]?.arrayValue ?? []
        #expect(games.count == 2 && games.allSatisfy { $0.objectValue?["rated"]?.boolValue == false })
        #expect(games.last?.objectValue?["players"]?.arrayValue?.first?.objectValue?["guest"]?.boolValue == true)
    }

    /// One key on two terminals may sit in both seats of a match; the game against itself is
    /// unrated, in its history once, and neither a win nor a loss.
    @Test func anAccountInBothSeatsPlaysItselfForNothing() throws {
        let server = try server()
        defer { server.stop() }
        let left = try join(server, "ann", key: Self.annKey, match: "self")
        let right = try join(server, "ann", key: Self.annKey, match: "self")
        try left.awaitSeq(right.view!.seq)
        try playScriptedTurn(left, right)
        left.send(.act(.resign, seat: nil))
        let over = try right.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return }
        #expect(ratings.isEmpty, "a game against oneself is never rated")
        let profile = try ask(right, .profile(name: "ann"))
        #expect(profile.fields["games"]?.intValue == 1)
        #expect(profile.fields["wins"]?.intValue == 0 && profile.fields["losses"]?.intValue == 0 && profile.fields["draws"]?.intValue == 0)
        #expect(profile.fields["ratings"]?.objectValue?.isEmpty == true)
        let history = try ask(right, .history(name: "ann", after: nil, limit: nil))
        let games = history.fields["games"]?.arrayValue ?? []
        #expect(games.count == 1 && games.first?.objectValue?["rated"]?.boolValue == false)
        // Issue 32 item 11: said as what it is, not as seat 0's win or loss.
        #expect(games.first?.objectValue?["result"]?.stringValue == "self")
        #expect(profile.fields["selfGames"]?.intValue == 1)
    }

    @Test func aDuelWithNoSetTakenIsAbortedAndUnrated() throws {
        let server = try server()
        defer { server.stop() }
        let ann = try join(server, "ann", key: Self.annKey)
        let bob = try join(server, "bob", key: Self.bobKey)
        try ann.awaitSeq(bob.view!.seq)
        ann.send(.act(.resign, seat: nil))
        let over = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return }
        #expect(ratings.isEmpty)
        let history = try ask(bob, .history(name: "bob", after: nil, limit: nil))
        #expect(history.fields["games"]?.arrayValue?.first?.objectValue?["result"]?.stringValue == "aborted")
    }

    /// A join whose account the store could not write is refused, and the match made for it goes
    /// with it: not listed as waiting, not holding the server's last place for a match.
    @Test(arguments: TestStoreKind.allCases) func aJoinTheStoreRefusedLeavesNoMatchBehind(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let faults = StoreFaults()
        let server = try TestServer {
            $0.store = accounts.store
            $0.storeFaults = faults
            $0.maxMatches = 1
        }
        defer { server.stop() }
        faults.failing = true
        let refused = try TestClient.greeted(port: server.port)
        var request = JoinRequest(name: "ann", match: "first", mode: .solo)
        request.account = Self.annKey
        #expect(try refused.joinOutcome(request)?.code == .journalFailed)
        faults.failing = false
        refused.send(.list())
        let listed = try refused.waitFor("list") { if case .matches(let list, _, _) = $0 { list.map(\.name) } else { nil } }
        #expect(listed.isEmpty)
        let guest = try TestClient.greeted(port: server.port)
        #expect(try guest.joinOutcome(JoinRequest(name: "bob", match: "second", mode: .solo)) == nil, "the only place for a match is free")
        withExtendedLifetime(refused) {}
    }

    /// A joiner gone while its new account is written takes the match made for it along: the
    /// write's answer finds nobody to seat, and the match is not left waiting for the seat wait.
    @Test func aJoinerGoneWhileItsAccountIsWrittenLeavesNoMatchBehind() throws {
        guard let accounts = try TestAccounts.make(.sqlite) else { return }
        let faults = StoreFaults()
        let server = try TestServer {
            $0.store = accounts.store
            $0.storeFaults = faults
            $0.limits.messageBurst = 10_000  // the probe asks for the list as often as it must
        }
        defer { server.stop() }
        faults.accountWrites.hold()
        let leaving = try TestClient.greeted(port: server.port)
        var request = JoinRequest(name: "ann", match: "first", mode: .solo)
        request.account = Self.annKey
        leaving.send(.join(request))
        let probe = try TestClient.greeted(port: server.port)
        func listed() throws -> [String] {
            probe.send(.list())
            return try probe.waitFor("list") { if case .matches(let list, _, _) = $0 { list.map(\.name) } else { nil } }
        }
        _ = try polled(listed, until: { $0 == ["first"] })  // made, its account held at the store
        // Gone: the server closes its end once it has read the hang-up, before the write answers.
        shutdown(leaving.fd, Int32(SHUT_WR))
        #expect(leaving.drainToEndOfStream() != nil)
        faults.accountWrites.release()
        #expect(try polled(listed, until: \.isEmpty).isEmpty)
    }

    /// While the accounts store cannot commit (a full disk, a lost database), nobody hears the
    /// game is over; once the record is committed, everyone does, with the ratings it holds.
    @Test(arguments: TestStoreKind.allCases) func theRecordIsCommittedBeforeGameOverReachesAnyone(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let data = temporaryDirectory()
        let faults = StoreFaults()
        let server = try server(data: data, accounts: accounts, storeFaults: faults)
        defer { server.stop() }
        let ann = try join(server, "ann", key: Self.annKey)
        let bob = try join(server, "bob", key: Self.bobKey)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        faults.failing = true
        ann.send(.act(.resign, seat: nil))
        #expect(try nothingPending(bob) && nothingPending(ann))
        server.advance(by: 1_000)  // a sweep tries again, and fails again
        #expect(try nothingPending(bob))
        faults.failing = false
        server.advance(by: 1_000)
        let over = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return }
        #expect(ratings.count == 2)
        #expect(try accounts.games(data: data) == [true])
    }

    /// A crash between the journal's write and the store's commit: the record is written from the
    /// restored journal at the next start, and counted once.
    @Test(arguments: TestStoreKind.allCases) func aGameTheStoreMissedIsRecoveredFromItsJournal(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let data = temporaryDirectory()
        let faults = StoreFaults()
        var first: TestServer? = try server(data: data, accounts: accounts, storeFaults: faults)
        let ann = try join(first!, "ann", key: Self.annKey)
        let bob = try join(first!, "bob", key: Self.bobKey)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        faults.failing = true
        ann.send(.act(.resign, seat: nil))
        #expect(try nothingPending(bob))
        // The process dies here: what follows is what a kill -9 leaves, the journal live at the top.
        try Self.kill(&first, data: data, clients: (ann, bob))

        let second = try server(data: data, accounts: accounts)
        defer { second.stop() }
        #expect(second.logLines.all.contains { $0.contains("recorded m game 1") }, "\(second.logLines.all)")
        let eve = try join(second, "eve", key: nil, match: "other")
        let profile = try ask(eve, .profile(name: "bob"))
        #expect(profile.fields["wins"]?.intValue == 1)
        #expect(profile.fields["ratings"]?.objectValue?["classic"] != nil)
        #expect(try accounts.games(data: data) == [true])
    }

    @Test func aSeatWaitForfeitIsALoss() throws {
        let server = try TestServer { $0.limits.seatWaitMs = 30_000 }
        defer { server.stop() }
        let ann = try join(server, "ann", key: Self.annKey)
        let bob = try join(server, "bob", key: Self.bobKey)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        ann.hangUp()
        _ = try bob.awaitEvent("presence") { if case .presence(.first, false, _) = $0 { true } else { false } }
        server.advance(by: 30_000)
        let over = try bob.awaitEvent("forfeit") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(let result, _, let ratings) = over.body else { return }
        #expect(result.reason == .forfeited && result.winner == .second)
        #expect(try #require(ratings.first { $0.seat == .first }).after < 1500)
        #expect(try #require(ratings.first { $0.seat == .second }).after > 1500)
    }

    /// A kill after both writes (the journal's end of game, then its record) leaves the journal
    /// at the top of the folder: the restart restores the finished match and records nothing twice.
    @Test(arguments: TestStoreKind.allCases) func aKillAfterBothWritesRecordsTheGameOnce(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data, accounts: accounts)
        let (ann, bob, ratings) = try duelAnnResigns(first!)
        #expect(ratings.count == 2)
        try Self.kill(&first, data: data, clients: (ann, bob))

        let second = try server(data: data, accounts: accounts)
        defer { second.stop() }
        #expect(second.restoredMatches == ["m"])
        #expect(!second.logLines.all.contains { $0.contains("recorded m") })
        // The finished match's snapshot still tells how the game moved both ratings.
        let watcher = try join(second, "wat", key: nil, match: "m", role: .spectator)
        #expect(watcher.view?.lastRatings == ratings)
        #expect(watcher.view?.players.map(\.rating) == ratings.map(\.after))
        let eve = try join(second, "eve", key: nil, match: "other")
        let profile = try ask(eve, .profile(name: "bob"))
        #expect(profile.fields["games"]?.intValue == 1)
        #expect(try accounts.games(data: data) == [true])
    }

    /// A leaderboard ranks every account: it costs what a page of the lobby does.
    @Test func aLeaderboardCostsWhatAListDoes() throws {
        let server = try server()
        defer { server.stop() }
        let eve = try join(server, "eve", key: nil)
        for index in 0..<19 {
            eve.send(.account(.leaderboard(variant: .classic, after: nil, limit: nil)), id: .int(Int64(index)))
        }
        for _ in 0..<19 { _ = try eve.waitFor("leaderboard") { if case .accountInfo = $0 { true } else { nil } } }
        eve.send(.account(.leaderboard(variant: .classic, after: nil, limit: nil)), id: "over")
        #expect(try eve.awaitError(.rateLimited).code == .rateLimited)
    }

    /// A game of guests alone goes to the store too, and waits for it the same way; the store
    /// does not keep it (nobody can ask about it).
    @Test(arguments: TestStoreKind.allCases) func aGuestsGameWaitsForTheStoreTooAndIsNotKept(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let data = temporaryDirectory()
        let faults = StoreFaults()
        let server = try server(data: data, accounts: accounts, storeFaults: faults)
        defer { server.stop() }
        let ann = try join(server, "ann", key: nil)
        let bob = try join(server, "bob", key: nil)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        faults.failing = true
        ann.send(.act(.resign, seat: nil))
        #expect(try nothingPending(bob))
        faults.failing = false
        server.advance(by: 1_000)
        _ = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        #expect(try accounts.games(data: data).isEmpty)
        bob.send(.account(.history(name: "bob", after: nil, limit: nil)))
        #expect(try bob.awaitError(.noSuchPlayer).code == .noSuchPlayer)
    }

    /// A guests' game outside an arena whose record the store did not take before a kill is still
    /// not kept when the restart replays its journal (the store decides as for a live game); its
    /// game over is told at once, with no ratings, to a player who resumes.
    @Test(arguments: TestStoreKind.allCases) func aGuestsGameRecoveredFromItsJournalIsNotKept(kind: TestStoreKind) throws {
        guard let accounts = try TestAccounts.make(kind) else { return }
        let data = temporaryDirectory()
        let faults = StoreFaults()
        var first: TestServer? = try server(data: data, accounts: accounts, storeFaults: faults)
        let ann = try join(first!, "ann", key: nil)
        let bob = try join(first!, "bob", key: nil)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        let token = try #require(bob.token), lastSeq = bob.view!.seq
        faults.failing = true
        ann.send(.act(.resign, seat: nil))
        _ = try bob.awaitError(.journalFailed)
        try Self.kill(&first, data: data, clients: (ann, bob))

        let second = try server(data: data, accounts: accounts)
        defer { second.stop() }
        #expect(second.restoredMatches == ["m"])
        let back = try TestClient.greeted(second)
        back.send(.join(JoinRequest(name: "bob", match: "m", token: token, lastSeq: lastSeq)))
        let over = try back.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        if case .gameOver(_, _, let ratings) = over.body { #expect(ratings.isEmpty) }
        #expect(try accounts.games(data: data).isEmpty)
    }
}
