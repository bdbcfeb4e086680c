import SetArena
import SetDatabase
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44 step 2: an arena's rows on a real SQLite file and a real PostgreSQL. The standings
/// are recounted from the stored games and come out as they were played, from any connection;
/// a game is dealt once and counted once; a game recorded but not yet counted is found.
@Suite struct ArenaStoreTests {
    static func open(_ kind: TestStoreKind) throws -> StoreUnderTest? { try StoreUnderTest.make(kind) }

    @Test(arguments: TestStoreKind.allCases)
    func anArenaIsCreatedOnceAndCountedAgainstItsCreator(kind: TestStoreKind) throws {
        guard let subject = try Self.open(kind) else { return }
        let database = subject.database.database
        #expect(try ArenaStore.create("friday", variant: .junior, rated: false, startsAt: 1_000, endsAt: 61_000, wall: 500,
                                      address: "10.0.0.1", account: "k1", in: database))
        #expect(try !ArenaStore.create("friday", variant: .classic, rated: true, startsAt: 2_000, endsAt: 62_000, wall: 600,
                                       address: "10.0.0.2", account: nil, in: database), "the name is taken")
        #expect(try ArenaStore.create("sunday", variant: .classic, rated: true, startsAt: 2_000, endsAt: 3_000, wall: 700,
                                      address: "10.0.0.1", account: nil, in: database))
        #expect(try ArenaStore.created(since: 0, address: "10.0.0.1", account: "k1", in: database) == (2, 1))
        #expect(try ArenaStore.created(since: 650, address: "10.0.0.1", account: "k1", in: database) == (1, 0))
        let loaded = try #require(try ArenaStore.load("friday", in: database))
        #expect(loaded.variant == .junior && !loaded.rated && loaded.startsAt == 1_000 && loaded.endsAt == 61_000)
        #expect(try ArenaStore.names(endingAfter: 5_000, in: database) == ["friday"])
        #expect(try ArenaStore.load("nothing", in: database) == nil)
    }

    /// Three arenas an hour from one account, whatever addresses it comes from; then an hour later
    /// again. Nothing is written for a refused one.
    @Test(arguments: TestStoreKind.allCases)
    func oneAccountCreatesThreeArenasAnHourFromAnyAddress(kind: TestStoreKind) throws {
        guard let subject = try Self.open(kind) else { return }
        func create(_ name: String, from address: String, at wall: Int64) throws -> Result<StoredArena, WireError> {
            try subject.store.createArena(ArenaCreateRequest(creation: ArenaCreation(arena: name, minutes: 1), address: address,
                                                             accountDigest: "d1", wall: wall, startsAt: wall, endsAt: wall + 60_000))
        }
        for index in 0..<3 { #expect(try create("a\(index)", from: "10.0.0.\(index)", at: 1_000).map(\.name) == .success("a\(index)")) }
        guard case .failure(let limited) = try create("a3", from: "10.0.0.9", at: 2_000) else { Issue.record("a fourth was made"); return }
        #expect(limited.code == .rateLimited)
        #expect(try subject.store.arena(named: "a3") == nil)
        #expect(try create("a3", from: "10.0.0.9", at: 1_000 + ArenaCreateRequest.allowanceMs + 1).map(\.name) == .success("a3"))
    }

    /// Played as a node plays it: each pairing written before it is told, each end counted once
    /// its record would be in; after every step a second connection (another node, or this one
    /// restarted) recounts the same standings.
    @Test(arguments: TestStoreKind.allCases)
    func theStandingsRecountFromTheStoreAsTheyWerePlayed(kind: TestStoreKind) throws {
        guard let subject = try Self.open(kind) else { return }
        let database = subject.database.database, other = try subject.secondConnection()
        #expect(try ArenaStore.create("arena1", variant: .classic, rated: true, startsAt: 0, endsAt: 100_000, wall: 0,
                                      address: "a", account: nil, in: database))
        var arena = Arena(startsAt: 0, endsAt: 100_000, now: 0)
        var dealt: [ArenaGame] = []
        func deal(_ step: ArenaStep) throws {
            for game in step.pairings {
                #expect(try ArenaStore.deal(game, tokens: ["t\(game.number)a", "t\(game.number)b"], in: "arena1", database: database))
                dealt.append(game)
            }
        }
        for (index, name) in ["ann", "bob", "cat", "dan", "eve"].enumerated() {
            let entrant = ArenaEntrant(name: name, rating: index == 4 ? nil : 1_400 + 100 * index, provisional: index == 0, bot: index == 3)
            try ArenaStore.put(StoredArenaPlayer(entrant: entrant), in: "arena1", database: database)
            try deal(arena.join(entrant, at: 0))
        }
        var time: Int64 = 0, round = 0
        while let game = arena.boards.first, round < 12 {
            round += 1
            time += 1_000
            let end: ArenaGameEnd = round % 5 == 0 ? .noShow(absent: [game.players[1]]) : round % 4 == 0 ? .played(winner: nil)
                : .played(winner: game.players[round % 2])
            #expect(try ArenaStore.finish(game.number, end, of: game, in: "arena1", database: database))
            #expect(try !ArenaStore.finish(game.number, end, of: game, in: "arena1", database: database), "counted once")
            try deal(arena.end(game: game.number, end, at: time))
            if round == 6 {
                _ = arena.pause("cat", at: time)
                try ArenaStore.put(StoredArenaPlayer(entrant: ArenaEntrant(name: "cat", rating: 1_600), pause: .asked), in: "arena1", database: database)
            }
            let stored = try #require(try ArenaStore.load("arena1", in: other))
            let recounted = stored.arena(at: time)
            #expect(recounted.standings.map(\.name) == arena.standings.map(\.name))
            #expect(recounted.standings.map(\.record) == arena.standings.map(\.record))
            #expect(recounted.boards == arena.boards && recounted.nextGame == arena.nextGame)
        }
        #expect(round == 12)
        #expect(try !ArenaStore.deal(dealt[0], tokens: ["x", "y"], in: "arena1", database: database), "a game number is dealt once")
        let stored = try #require(try ArenaStore.load("arena1", in: other))
        #expect(stored.players.first { $0.entrant.name == "dan" }?.entrant.bot == true)
        #expect(stored.players.first { $0.entrant.name == "cat" }?.pause == .asked)
        #expect(stored.underWay.map(\.1) == arena.boards.map { ["t\($0.number)a", "t\($0.number)b"] })
    }

    /// A node killed between a duel's record and its count: the record is found by the duel's
    /// match name, and the game counts once.
    @Test(arguments: TestStoreKind.allCases)
    func aRecordedGameNotYetCountedIsFound(kind: TestStoreKind) throws {
        guard let subject = try Self.open(kind) else { return }
        let database = subject.database.database
        _ = try ArenaStore.create("x", variant: .classic, rated: true, startsAt: 0, endsAt: 10, wall: 0, address: "a", account: nil, in: database)
        let game = ArenaGame(number: 3, players: ["ann", "bob"])
        #expect(try ArenaStore.recordedEnd(of: game, in: "x", database: database) == nil)
        try database.execute(
            """
            INSERT INTO games (id, commitment, match, game, mode, variant, rated, outcome, reason, winner, ended_at, duration_ms, wall, journal)
            VALUES (1, 'c', 'arena-x-3', 1, 'duel', 'classic', 1, 'win', 'no_sets_left', 1, 5, 5, 5, 'j')
            """)
        #expect(try ArenaStore.recordedEnd(of: game, in: "x", database: database) == .played(winner: "bob"))
        // Seats are taken in the order the players sat: the winner is the name in the winning seat.
        let later = ArenaGame(number: 4, players: ["ann", "bob"])
        try database.execute(
            """
            INSERT INTO games (id, commitment, match, game, mode, variant, rated, outcome, reason, winner, ended_at, duration_ms, wall, journal)
            VALUES (2, 'd', 'arena-x-4', 1, 'duel', 'classic', 1, 'win', 'no_sets_left', 1, 5, 5, 5, 'j')
            """)
        try database.execute(
            """
            INSERT INTO game_seats (game_id, seat, name, points, sets, set_times)
            VALUES (2, 0, 'bob', 0, 0, ''), (2, 1, 'ann', 3, 1, '')
            """)
        #expect(try ArenaStore.recordedEnd(of: later, in: "x", database: database) == .played(winner: "ann"))
    }
}
