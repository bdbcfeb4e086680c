import SetArena
import SetDatabase
import SetRules
@testable import SetServer
import SetTestSupport
import Testing

/// An arena duel recounted from its game record (its node killed between the record's commit and
/// the arena's end) counts exactly as the live arena counted it, for every way a duel ends, on a
/// real SQLite file and a real PostgreSQL: a resignation or a forfeit before any set (an aborted
/// game, no winner in the record) is still lost by whoever gave it up, not a draw; and the record
/// of such a game still says aborted, unrated and nobody's win.
@Suite struct ArenaRecountTests {
    /// One way a duel ends: the match's result, the sets each seat took, who sat in each seat,
    /// and the player the live arena names winner (nil: a draw).
    struct Ending {
        var what: String
        var result: MatchResult
        var sets: [Int]
        var seated = ["ann", "bob"]
        var winner: String?
    }

    static let endings: [Ending] = [
        Ending(what: "won on sets", result: MatchResult(reason: .noSetsLeft, by: nil, scores: [60, 30], winner: .first), sets: [2, 1], winner: "ann"),
        Ending(what: "a draw", result: MatchResult(reason: .noSetsLeft, by: nil, scores: [30, 30], winner: nil), sets: [1, 1], winner: nil),
        Ending(what: "ann resigns before any set", result: MatchResult(reason: .resigned, by: .first, scores: [0, 0], winner: .second),
               sets: [0, 0], winner: "bob"),
        Ending(what: "bob resigns before any set, after a wrong claim", result: MatchResult(reason: .resigned, by: .second, scores: [0, -10],
               winner: .first), sets: [0, 0], winner: "ann"),
        Ending(what: "ann resigns after a set", result: MatchResult(reason: .resigned, by: .first, scores: [30, 0], winner: .second),
               sets: [1, 0], winner: "bob"),
        Ending(what: "bob forfeits before any set", result: MatchResult(reason: .forfeited, by: .second, scores: [0, 0], winner: .first),
               sets: [0, 0], winner: "ann"),
        Ending(what: "ann forfeits after a set", result: MatchResult(reason: .forfeited, by: .first, scores: [0, 30], winner: .second),
               sets: [0, 1], winner: "bob"),
        Ending(what: "bob sat first and resigns before any set", result: MatchResult(reason: .resigned, by: .first, scores: [0, 0],
               winner: .second), sets: [0, 0], seated: ["bob", "ann"], winner: "ann"),
        Ending(what: "bob sat first and wins on sets", result: MatchResult(reason: .noSetsLeft, by: nil, scores: [60, 30], winner: .first),
               sets: [2, 1], seated: ["bob", "ann"], winner: "bob"),
    ]

    @Test(arguments: TestStoreKind.allCases)
    func everyEndRecountsFromItsRecordAsTheArenaCountedItLive(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let database = subject.database.database
        let ids = [
            "ann": try subject.store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1).id,
            "bob": try subject.store.create(.accountKey(digest: "b"), name: "bob", bot: false, wallSeconds: 1).id,
        ]
        for (index, ending) in Self.endings.enumerated() {
            let game = ArenaGame(number: index + 1, players: ["ann", "bob"])
            // A duel not recorded (a no-show, or one still under way) has no recorded end.
            #expect(try ArenaStore.recordedEnd(of: game, in: "x", database: database) == nil)
            let finished = FinishedGame(
                match: ArenaStore.match(arena: "x", game: game.number), game: 1, commitment: "c\(index)", mode: .duel, variant: .classic,
                result: ending.result,
                seats: zip(ending.seated, ending.sets).map { name, sets in
                    .init(account: ids[name], name: name, casual: false, sets: sets, setTimes: Array(repeating: 2_000, count: sets))
                },
                endedAt: 5_000, durationMs: 60_000)
            let live = ArenaStore.end(of: finished, game: game)
            #expect(live == .played(winner: ending.winner), "\(ending.what): live")
            let record = try #require(try subject.store.record(finished, journal: "j", wallSeconds: 100, policy: .standard))
            #expect(try ArenaStore.recordedEnd(of: game, in: "x", database: database) == live, "\(ending.what): recounted")
            guard !ending.sets.contains(where: { $0 > 0 }) else { continue }
            // What history, profile and ratings show of it is unchanged: aborted, unrated, nobody's win.
            #expect(record.outcome == .aborted && !record.rated && record.winner == nil, "\(ending.what)")
            let results = try database.query("SELECT result FROM account_games WHERE game_id = (SELECT id FROM games WHERE commitment = $1)",
                                             .text(finished.commitment)).map { row throws(DatabaseError) in try row.text(0) as String }
            #expect(results == ["aborted", "aborted"], "\(ending.what)")
        }
        let scored = try database.query("SELECT wins + losses + draws, games FROM accounts ORDER BY name").map { row throws(DatabaseError) in
            [try row.int(0) as Int, try row.int(1) as Int]
        }
        #expect(scored == [[5, 9], [5, 9]], "only the five games with a set taken are scored, all nine kept")
    }

    /// A duel of two guests in an arena is kept too (its arena recounts it from its record), once
    /// however often it is told, and recounts as it was counted live; a game of guests alone
    /// outside an arena is still not kept.
    @Test(arguments: TestStoreKind.allCases)
    func anArenaDuelOfGuestsIsKeptOnceAndRecountsAsItEnded(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let database = subject.database.database
        let game = ArenaGame(number: 1, players: ["ann", "bob"])
        func finished(_ match: String, _ commitment: String) -> FinishedGame {
            FinishedGame(match: match, game: 1, commitment: commitment, mode: .duel, variant: .classic,
                         result: MatchResult(reason: .resigned, by: .first, scores: [0, 0], winner: .second),
                         seats: ["ann", "bob"].map { .init(account: nil, name: $0, casual: false, sets: 0, setTimes: []) },
                         endedAt: 5_000, durationMs: 1_000)
        }
        let duel = finished(ArenaStore.match(arena: "x", game: 1), "c1")
        let record = try #require(try subject.store.record(duel, journal: "j", wallSeconds: 100, policy: .standard))
        #expect(try subject.store.record(duel, journal: "j", wallSeconds: 100, policy: .standard) == record, "told again: the same record")
        #expect(try ArenaStore.recordedEnd(of: game, in: "x", database: database) == ArenaStore.end(of: duel, game: game))
        #expect(try ArenaStore.recordedEnd(of: game, in: "x", database: database) == .played(winner: "bob"))
        #expect(try subject.store.record(finished("friday", "c2"), journal: "j", wallSeconds: 100, policy: .standard) == nil)
        #expect(try database.query("SELECT match FROM games").map { row throws(DatabaseError) in try row.text(0) as String } == ["arena-x-1"])
        #expect(try database.row("SELECT COUNT(*) FROM account_games")?.int(0) as Int? == 0)
    }

    /// The rules' winner comes back from any record: for every result the rules can give a duel
    /// (a no-set end of the deck aside, which the rules never reach: the deck only runs out as
    /// sets are taken), `GameRecord.matchWinner` is the result's winner.
    @Test func theRecordKeepsTheRulesWinnerOfEveryDuel() {
        var results: [MatchResult] = [nil, Seat.first, .second].map { MatchResult(reason: .noSetsLeft, by: nil, scores: [0, 0], winner: $0) }
        for reason in [MatchResult.Reason.resigned, .forfeited] {
            for by in Seat.allCases { results.append(MatchResult(reason: reason, by: by, scores: [0, 0], winner: by.other)) }
        }
        for result in results {
            for sets in [[0, 0], [1, 0], [0, 1], [2, 2]] where result.reason != .noSetsLeft || sets != [0, 0] {
                let finished = FinishedGame(match: "m", game: 1, commitment: "c", mode: .duel, variant: .classic, result: result,
                                            seats: sets.enumerated().map { .init(account: $0.offset, name: "p\($0.offset)", casual: false,
                                                                                  sets: $0.element, setTimes: []) },
                                            endedAt: 0, durationMs: 0)
                let record = GameRecord(of: finished, ratings: [:], pairGamesInWindow: 0, wallSeconds: 0, journal: "j", policy: .standard)
                #expect(record.matchWinner == result.winner, "\(result) with sets \(sets)")
            }
        }
    }
}
