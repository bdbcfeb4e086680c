import SetDatabase
import SetNet
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: an arena's duels and its players' accounts, over real sockets: a casual arena's
/// duel between two accounts moves no rating and a rated one moves both, each counted in the
/// arena; each account's `profile` lists its arenas; a duel only one player sits in is the
/// absent player's no-show and the win of the one who came.
@Suite struct ArenaAccountTests {
    typealias Room = ArenaRoomTests
    typealias Asked = ArenaRequestTests

    /// A new connection joined to `arena` as `name` with the account `key`.
    static func joined(_ server: TestServer, _ arena: String, _ name: String, key: String) throws -> TestClient {
        let client = try Asked.client(server)
        let answer = try Asked.answer(client, .join(ArenaJoinRequest(arena: arena, name: name, account: key)), id: "j-\(name)")
        guard case .arena = answer else { throw ClientTimedOut(waitingFor: "\(name)'s arena, got \(answer)") }
        return client
    }

    /// Sits `client` with its account in the duel `notice` names, on its arena connection.
    static func sit(_ client: TestClient, _ name: String, key: String, in notice: ArenaPairingNotice) throws {
        var join = JoinRequest(name: name, match: notice.match, token: notice.token)
        join.account = key
        client.send(.join(join))
        _ = try client.waitFor("\(name)'s seat in \(notice.match)") { message in
            if case .error(let error, _) = message { Issue.record("\(name) refused: \(error.code)") }
            if case .snapshot = message { return true } else { return nil }
        }
    }

    /// ann and bob, two accounts, play `arena`'s first duel: ann takes a set (a game with no
    /// set is aborted, rated or not) and resigns. The game over's rating changes, and bob's
    /// arena connection once bob's win is counted in the arena.
    static func annResigns(in arena: String, rated: Bool, _ server: TestServer) throws -> ([RatingChange], TestClient) {
        let made = try Asked.answer(try Asked.client(server), .create(ArenaCreation(arena: arena, minutes: 10, rated: rated, startsInS: 60)),
                                    id: "c")
        guard case .arena(let view, _) = made, view.rated == rated else { throw ClientTimedOut(waitingFor: "arena \(arena), got \(made)") }
        let ann = try Self.joined(server, arena, "ann", key: AccountTests.annKey)
        let bob = try Self.joined(server, arena, "bob", key: AccountTests.bobKey)
        server.advance(by: 60_000)
        let ratings = try Self.playAnnResigns(ann, in: try Room.pairing(ann), bob, in: try Room.pairing(bob))
        let counted = try Room.pushed(bob, "bob's win counted") { Room.entry($0, "bob")?.score == 2 }
        #expect(Room.entry(counted, "ann")?.games == 1, "the duel counts in the arena, rated or not")
        withExtendedLifetime(ann) {}
        return (ratings, bob)
    }

    /// ann and bob, each on their client, sit with their accounts in the duel their pairings
    /// name; ann takes a set and resigns. The game over's rating changes.
    static func playAnnResigns(_ ann: TestClient, in anns: ArenaPairingNotice, _ bob: TestClient, in bobs: ArenaPairingNotice) throws -> [RatingChange] {
        try Self.sit(ann, "ann", key: AccountTests.annKey, in: anns)
        try Self.sit(bob, "bob", key: AccountTests.bobKey, in: bobs)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        ann.send(.act(.resign, seat: nil))
        let over = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { throw ClientTimedOut(waitingFor: "game over, got \(over)") }
        return ratings
    }

    static func profile(_ client: TestClient, _ name: String) throws -> [String: JSONValue] {
        client.send(.account(.profile(name: name)), id: .string("p-\(name)"))
        return try client.waitFor("\(name)'s profile") { message in
            if case .accountInfo(let info, .string("p-\(name)")?) = message { return info.fields }
            if case .error(let error, .string("p-\(name)")?) = message { Issue.record("\(error.code): \(error.message)"); return [:] }
            return nil
        }
    }

    /// One account is one player in an arena: under a second name it would be paired with itself
    /// and score its own wins. The second name is refused with the one it plays under, which
    /// joins it again; the standings hold it once.
    @Test func anAccountIsOnePlayerInAnArena() throws {
        let server = try TestServer()
        defer { server.stop() }
        try Room.create(server, "friday", startsInS: 60)
        let ann = try Self.joined(server, "friday", "ann", key: AccountTests.annKey)
        let second = try Asked.client(server)
        let answer = try Asked.answer(second, .join(ArenaJoinRequest(arena: "friday", name: "ann2", account: AccountTests.annKey)), id: "again")
        guard case .error(let refused, _) = answer else { Issue.record("a second entry: \(answer)"); return }
        #expect(refused.code == .nameTaken && refused.details["suggestion"] == .string("ann"))
        guard case .arena(let view, _) = try Asked.answer(second, .join(ArenaJoinRequest(arena: "friday", name: "ann", account: AccountTests.annKey)),
                                                          id: "same") else { Issue.record("refused under its own name"); return }
        #expect(view.standings.map(\.name) == ["ann"])
        withExtendedLifetime(ann) {}
    }

    /// A line is its player's, not its name's: a connected guest's line is not another
    /// connection's, a guest's is no account's, an account's is no one else's even once it has
    /// renamed and another account took the old name, and a name drawn like a line's is that line's.
    @Test func aNameAloneTakesNoOnesLine() throws {
        let server = try TestServer()
        defer { server.stop() }
        try Room.create(server, "lines", startsInS: 60)
        let max = try Asked.client(server)
        guard case .arena = try Asked.answer(max, .join(ArenaJoinRequest(arena: "lines", name: "max")), id: "max") else {
            Issue.record("the guest max did not join")
            return
        }
        let ann = try Self.joined(server, "lines", "ann", key: AccountTests.annKey)
        func refusal(_ name: String, key: String?) throws -> WireError? {
            let client = try Asked.client(server)
            let answer = try Asked.answer(client, .join(ArenaJoinRequest(arena: "lines", name: name, account: key)), id: "steal")
            if case .error(let error, _) = answer { return error }
            return nil
        }
        #expect(try refusal("max", key: nil)?.message.contains("by a guest who is here") == true, "another guest while max is here")
        #expect(try refusal("max", key: AccountTests.bobKey)?.message.contains("another player's line") == true, "an account")
        #expect(try refusal("m\u{0430}x", key: nil)?.message.contains("looks like max's name") == true, "a look-alike")
        // ann renames (a solo game under a new name); bob's key takes her old name, not her line.
        let renamed = try TestClient.joined(port: server.port, name: "anna", key: AccountTests.annKey, match: "solo-ann")
        let taker = try TestClient.joined(port: server.port, name: "ann", key: AccountTests.bobKey, match: "solo-bob")
        #expect(try refusal("ann", key: AccountTests.bobKey)?.code == .nameTaken, "bob's account under ann's old name")
        #expect(try refusal("anna", key: AccountTests.annKey)?.details["suggestion"] == .string("ann"), "ann plays as ann here still")
        let standings = try Asked.answer(try Asked.client(server), .join(ArenaJoinRequest(arena: "lines", name: "eve", watch: true)), id: "w")
        guard case .arena(let view, _) = standings else {
            Issue.record("no standings: \(standings)")
            return
        }
        #expect(view.standings.map(\.name).sorted() == ["ann", "max"])
        withExtendedLifetime((max, ann, renamed, taker)) {}
    }

    /// One address has at most its share of players in an arena at once (two here, eight by
    /// default): a crowd of names that never sit would each cost a real player a seat wait.
    /// Its players' second connections, its watchers and other addresses are not held back, and
    /// a player who leaves frees a place.
    @Test func oneAddressHasItsShareOfPlayersInAnArena() throws {
        let server = try TestServer { $0.perAddress.arenaPlayers = 2 }
        defer { server.stop() }
        try Room.create(server, "crowd", startsInS: 60)
        func join(_ name: String, key: String? = nil, from address: String = "127.0.0.1", watch: Bool = false) throws -> (TestClient, ServerMessage) {
            let client = TestClient(connectedSocket: try Sockets.connect(host: "127.0.0.1", port: server.port, from: address))
            _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
            return (client, try Asked.answer(client, .join(ArenaJoinRequest(arena: "crowd", name: name, account: key, watch: watch)), id: name))
        }
        func joinedArena(_ answer: ServerMessage) -> Bool { if case .arena = answer { true } else { false } }
        let (ann, annJoined) = try join("ann", key: AccountTests.annKey)
        let (bob, bobJoined) = try join("bob")
        #expect(joinedArena(annJoined) && joinedArena(bobJoined))
        let (_, third) = try join("cy")
        guard case .error(let refusal, _) = third else {
            Issue.record("a third player from one address joined: \(third)")
            return
        }
        #expect(refusal.code == .addressLimit && refusal.message.contains("2 players in the arena crowd"), "\(refusal.message)")
        let (annAgain, again) = try join("ann", key: AccountTests.annKey)
        #expect(joinedArena(again), "a player's own second connection: \(again)")
        let (_, watching) = try join("eve", watch: true)
        #expect(joinedArena(watching), "a watcher: \(watching)")
        let (_, elsewhere) = try join("cy", from: "127.0.0.2")
        #expect(joinedArena(elsewhere), "another address: \(elsewhere)")
        bob.hangUp()
        // The server pauses a player whose last connection closed, and tells the others.
        _ = try Room.pushed(ann, "bob paused once gone") { Room.entry($0, "bob")?.paused == true }
        let (_, after) = try join("dan")
        #expect(joinedArena(after), "bob left, so dan may join: \(after)")
        withExtendedLifetime((ann, annAgain)) {}
    }

    @Test func aCasualArenasDuelMovesNoRating() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ratings, bob) = try Self.annResigns(in: "casual", rated: false, server)
        #expect(ratings.isEmpty, "published unrated")
        for name in ["ann", "bob"] {
            let profile = try Self.profile(bob, name)
            #expect(profile["ratings"]?.objectValue?.isEmpty == true, "\(name)'s rating is as it was: \(profile)")
            #expect(profile["games"]?.intValue == 1)
        }
    }

    @Test func aRatedArenasDuelMovesBothRatings() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ratings, bob) = try Self.annResigns(in: "rated", rated: true, server)
        #expect(ratings.count == 2)
        #expect(ratings.first { $0.seat == .second }.map { $0.after > $0.before } == true)
        let classic = try Self.profile(bob, "bob")["ratings"]?.objectValue?["classic"]?.objectValue
        #expect(classic?["rating"]?.intValue == ratings.first { $0.seat == .second }.map { Int64($0.after) })
    }

    /// Each account's profile lists the arenas it joined, with its place, score and games there.
    @Test func aProfileListsItsArenas() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (_, bob) = try Self.annResigns(in: "listed", rated: false, server)
        let profile = try Self.profile(bob, "bob")
        let arenas = profile["arenas"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(arenas.count == 1, "\(profile)")
        let line = try #require(arenas.first)
        #expect(line["arena"] == "listed" && line["variant"] == "classic" && line["rated"] == .bool(false) && line["state"] == "running")
        #expect(line["rank"]?.intValue == 1 && line["score"]?.intValue == 2 && line["games"]?.intValue == 1 && line["players"]?.intValue == 2)
        #expect((line["wall"]?.intValue ?? 0) > 1_000_000_000, "the end, in Unix seconds")
        let anns = try Self.profile(bob, "ann")["arenas"]?.arrayValue?.first?.objectValue
        #expect(anns?["rank"]?.intValue == 2 && anns?["score"]?.intValue == 0 && anns?["games"]?.intValue == 1)
    }

    /// Once the arena's standings are final (its clock ran out and its last duel ended: here
    /// the second duel, which nobody sat in), its node keeps each player's final place in the
    /// store, which the profile then reads without a recount.
    @Test func theFinalPlacesAreKeptWhenTheArenaIsOver() throws {
        let folder = temporaryFolder("setgame-arena-final")
        let server = try TestServer { $0.dataDirectory = folder; $0.limits.idleTimeoutMs = 3_600_000 }
        defer { server.stop() }
        let (_, bob) = try Self.annResigns(in: "kept", rated: false, server)
        server.advance(by: 10 * 60_000)
        _ = try Room.pushed(bob, "the final standings") { $0.state == .finished && $0.boards.isEmpty }
        let database = try SQLiteDatabase(path: folder + "/accounts/accounts.sqlite3")
        let kept = try polled({
            try database.query("SELECT name, final_rank, final_score, final_games FROM arena_players WHERE arena = 'kept' ORDER BY name")
                .map { row throws(DatabaseError) in "\(try row.text(0)) \(try row.optionalInt(1) ?? 0) \(try row.optionalInt(2) ?? 0) \(try row.optionalInt(3) ?? 0)" }
        }, until: { $0 == ["ann 2 0 2", "bob 1 2 2"] })
        #expect(kept == ["ann 2 0 2", "bob 1 2 2"])
        let line = try Self.profile(bob, "bob")["arenas"]?.arrayValue?.first?.objectValue
        #expect(line?["state"] == "finished" && line?["rank"]?.intValue == 1 && line?["games"]?.intValue == 2)
    }

    /// An arena duel's seats wait 30 s at most, whatever the server's seat wait (two minutes by
    /// default): a player who never sits costs the one who came that long, not two minutes.
    @Test func anArenaDuelsSeatsWaitHalfAMinuteAtMost() throws {
        let server = try TestServer { $0.limits.idleTimeoutMs = 3_600_000 }
        defer { server.stop() }
        let arenaWaitMs = ServerConfig().arenaSeatWaitMs
        #expect(ServerLimits().seatWaitMs > arenaWaitMs, "the server's own wait is longer")
        try Room.create(server, "brisk")
        let (ann, _) = try Room.joined(server, "brisk", "ann")
        let (bob, _) = try Room.joined(server, "brisk", "bob")
        _ = try ArenaDuelTests.sit(ann, "ann", in: try Room.pairing(ann))
        server.advance(by: arenaWaitMs)
        let counted = try Room.pushed(ann, "bob's no-show") { Room.entry($0, "bob")?.games == 1 }
        #expect(Room.entry(counted, "ann")?.score == 2)
        withExtendedLifetime(bob) {}
    }

    /// ann sits in her duels, bob never does: each is bob's no-show and ann's win, and after two
    /// in a row bob is paused. ann's arena connection leaves each such duel for the next.
    @Test func aDuelOnlyOneSitsInIsTheAbsentPlayersNoShow() throws {
        // bob stays connected (and so not paused) however long the clock runs: only his no-shows pause him.
        let server = try TestServer { $0.limits.seatWaitMs = 30_000; $0.limits.idleTimeoutMs = 3_600_000 }
        defer { server.stop() }
        try Room.create(server, "oneseat")
        let (ann, _) = try Room.joined(server, "oneseat", "ann")
        let (bob, _) = try Room.joined(server, "oneseat", "bob")
        let first = try Room.pairing(ann), bobs = try Room.pairing(bob)
        _ = try ArenaDuelTests.sit(ann, "ann", in: first)
        server.advance(by: 30_000)
        let second = try Room.pairing(ann)
        #expect(second.match == "arena-oneseat-2")
        let once = try Room.pushed(ann, "bob's first no-show") { Room.entry($0, "bob")?.games == 1 }
        #expect(Room.entry(once, "ann")?.score == 2 && Room.entry(once, "bob")?.score == 0, "the one who came wins")
        #expect(once.standings.allSatisfy { !$0.paused })
        // The absent seat is closed: bob's token no longer takes it, so no game starts in it.
        let late = try TestClient.greeted(port: server.port)
        late.send(.join(JoinRequest(name: "bob", match: bobs.match, token: bobs.token)))
        let refused = try late.waitFor("bob's late join answered") { message -> String? in
            if case .snapshot = message { return "seated" }
            if case .error(let error, _) = message { return error.code.rawValue } else { return nil }
        }
        #expect(refused == ErrorCode.badToken.rawValue)
        // ann's arena connection leaves the duel nobody else came to for her next one.
        _ = try ArenaDuelTests.sit(ann, "ann", in: second)
        server.advance(by: 30_000)
        let twice = try Room.pushed(ann, "bob's second no-show") { Room.entry($0, "bob")?.games == 2 }
        #expect(Room.entry(twice, "bob")?.paused == true && Room.entry(twice, "ann")?.paused == false, "two no-shows in a row pause")
        #expect(Room.entry(twice, "ann")?.score == 4 && Room.entry(twice, "ann")?.games == 2)
        guard case .arenaResults(let stored, _) = try Asked.answer(try Asked.client(server), .results(arena: "oneseat"), id: "r") else {
            Issue.record("no results")
            return
        }
        #expect(stored.standings.map(\.name) == ["ann", "bob"] && stored.standings.map(\.score) == [4, 0], "recounted from the store")
    }
}
