import SetRatings
import SetRules
@testable import SetServer
import SetWire
import Testing

/// The history line is written straight into bytes; it must be exactly the line the generic
/// encoder makes of the reply as Protocol.md describes it, built here from the stored records.
@Suite struct HistoryPageTests {
    let hex = String(repeating: "0123456789abcdef", count: 4)
    static let names = ["ann \"the\" \\ 🂡", "bot-hard"]
    static let bots = [false, true]

    /// A store holding two accounts and the games of `games()`, in order.
    func store() throws -> SQLAccountStore {
        try filled(SQLAccountStore.open(.memory, dataFolder: nil, policy: .standard, wallSeconds: 1, log: .silent))
    }

    /// `store` given the two accounts and the games of `games()`, in order.
    func filled(_ store: SQLAccountStore) throws -> SQLAccountStore {
        try store.insertAccount(id: 0, identity: .accountKey(digest: "a"), name: Self.names[0], bot: false, wallSeconds: 1)
        try store.insertAccount(id: 1, identity: .sshKey(fingerprint: "SHA256:b"), name: Self.names[1], bot: true, wallSeconds: 2)
        for game in games() { try store.insert(game, policy: .standard) }
        return store
    }

    func games() -> [GameRecord] {
        let rating = { (value: Double, deviation: Double) in Rating(rating: value, deviation: deviation, volatility: 0.06) }
        func player(_ account: Int?, _ name: String, _ points: Int, rated: Bool, deviation: Double = 60) -> GameRecord.Player {
            GameRecord.Player(account: account, name: name, points: points, sets: points / 3, setTimes: [4_000],
                              before: rated ? rating(1500.4, 350) : nil, after: rated ? rating(1523.6, deviation) : nil)
        }
        let games: [GameRecord] = [
            GameRecord(match: "duel-1", game: 1, commitment: hex, mode: .duel, variant: .classic, rated: true, outcome: .win, reason: .noSetsLeft,
                       winner: .first, players: [player(0, "ann", 9, rated: true), player(1, "bot-hard", 3, rated: true, deviation: 200)],
                       endedAt: 9, durationMs: 61_000, wallSeconds: 1_795_000_000, journal: "duel-1.jsonl"),
            GameRecord(match: "odd match", game: 3, commitment: "text commitment", mode: .duel, variant: .ultra, rated: false, outcome: .draw,
                       reason: .resigned, winner: nil, players: [player(nil, "guest-12", 6, rated: false), player(0, "ann", 6, rated: false)],
                       endedAt: 9, durationMs: 5, wallSeconds: 7, journal: "finished/odd.jsonl"),
            GameRecord(match: "solo-4", game: 2, commitment: String(hex.reversed()), mode: .solo, variant: .chain, rated: false, outcome: .solo,
                       reason: .noSetsLeft, winner: nil, players: [player(0, "ann", 27, rated: false)],
                       endedAt: 9, durationMs: 1, wallSeconds: 8, journal: "solo-4.jsonl"),
            GameRecord(match: "duel-9", game: 1, commitment: "c9", mode: .duel, variant: .junior, rated: false, outcome: .aborted,
                       reason: .resigned, winner: .second, players: [player(1, "bot-hard", 0, rated: false), player(0, "ann", 0, rated: false)],
                       endedAt: 9, durationMs: 1, wallSeconds: 9, journal: "duel-9.jsonl"),
        ]
        return games
    }

    /// The reply as the generic encoder would write it, from the records the store was given.
    func expected(account id: Int, indexes: [Int], next: String?, requestID: JSONValue?) -> [UInt8] {
        let games = games()
        let entries: [JSONValue] = indexes.map { index in
            let game = games[index]
            let seat = game.players.firstIndex { $0.account == id } ?? 0
            let result = switch game.score(of: seat) {
            case .win: "win"
            case .loss: "loss"
            case .draw: "draw"
            case nil: game.outcome.rawValue
            }
            return .object([
                "match": .string(game.match), "game": .int(Int64(game.game)), "mode": .string(game.mode.rawValue),
                "variant": .string(game.variant.rawValue), "rated": .bool(game.rated), "result": .string(result),
                "reason": .string(game.reason.rawValue), "seat": .int(Int64(seat)), "commitment": .string(game.commitment),
                "durationMs": .int(game.durationMs), "wall": .int(game.wallSeconds), "journal": .string(game.journal),
                "players": .array(game.players.map { player in
                    var members: [String: JSONValue] = ["name": .string(player.name), "points": .int(Int64(player.points)),
                                                        "sets": .int(Int64(player.sets))]
                    if let account = player.account { members["bot"] = .bool(Self.bots[account]) } else { members["guest"] = .bool(true) }
                    if let before = player.before, let after = player.after {
                        members["ratingBefore"] = .int(Int64(before.rounded))
                        members["ratingAfter"] = .int(Int64(after.rounded))
                        members["provisional"] = .bool(after.isProvisional)
                    }
                    return .object(members)
                }),
            ])
        }
        var fields: [String: JSONValue] = ["name": .string(Self.names[id]), "games": .array(entries)]
        if let next { fields["next"] = .string(next) }
        return ServerMessageCoding.genericLine(.accountInfo(AccountInfo(.history, fields), id: requestID))
    }

    @Test func aPageIsTheLineTheGenericEncoderMakes() throws {
        let store = try store()
        let line = try store.history("ANN \"the\" \\ 🂡", after: nil, limit: 20, id: .int(7)).get()
        #expect(line == expected(account: 0, indexes: [3, 2, 1, 0], next: nil, requestID: .int(7)))
        let bots = try store.history("bot-hard", after: nil, limit: 20, id: nil).get()
        #expect(bots == expected(account: 1, indexes: [3, 0], next: nil, requestID: nil))
    }

    @Test func pagesFollowTheirCursor() throws {
        let store = try store()
        let first = try store.history("ann \"the\" \\ 🂡", after: nil, limit: 3, id: .string("q")).get()
        #expect(first == expected(account: 0, indexes: [3, 2, 1], next: "1", requestID: .string("q")))
        let second = try store.history("ann \"the\" \\ 🂡", after: "1", limit: 3, id: nil).get()
        #expect(second == expected(account: 0, indexes: [0], next: nil, requestID: nil))
        #expect(throws: WireError.self) { try store.history("ann \"the\" \\ 🂡", after: "5", limit: 3, id: nil).get() }
        #expect(throws: WireError.self) { try store.history("nobody", after: nil, limit: 3, id: nil).get() }
    }

    /// A cursor counts the games before its page, 0 through the player's count; anything else is
    /// refused, but only once the player is found: an unknown player is told so whatever the
    /// cursor. On both engines: the page and the player come in one statement.
    @Test(arguments: TestStoreKind.allCases)
    func aCursorOutsideTheCountIsRefusedOnceThePlayerIsFound(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        let store = try filled(subject.store)
        let ann = Self.names[0]
        let code = { (reply: Result<[UInt8], WireError>) -> ErrorCode? in if case .failure(let error) = reply { error.code } else { nil } }
        for cursor in ["-1", "x", "5", "", "1.0", String(Int.max)] {
            #expect(code(try store.history(ann, after: cursor, limit: 3, id: nil)) == .badField, "cursor \(cursor)")
        }
        #expect(code(try store.history("nobody", after: "x", limit: 3, id: nil)) == .noSuchPlayer)
        #expect(try store.history(ann, after: "0", limit: 3, id: nil).get() == expected(account: 0, indexes: [], next: nil, requestID: nil))
        #expect(try store.history(ann, after: "4", limit: 3, id: nil).get() == expected(account: 0, indexes: [3, 2, 1], next: "1", requestID: nil))
        #expect(try store.history(ann, after: nil, limit: 0, id: nil).get() == expected(account: 0, indexes: [], next: "4", requestID: nil))
        #expect(try store.history("bot-hard", after: "2", limit: 1, id: nil).get() == expected(account: 1, indexes: [3], next: "1", requestID: nil))
    }

    /// What the line says, read back as a client reads it: rounded ratings and the provisional mark.
    @Test func aRatedGameShowsRoundedRatingsAndTheProvisionalMark() throws {
        let line = try store().history("bot-hard", after: "1", limit: 1, id: nil).get()
        guard case .success(.accountInfo(let info, _)) = ServerMessageCoding.decode(Array(line.dropLast())) else {
            Issue.record("not an account reply: \(String(decoding: line, as: UTF8.self))")
            return
        }
        let game = try #require(info.fields["games"]?.arrayValue?.first?.objectValue)
        let players = (game["players"]?.arrayValue ?? []).compactMap { $0.objectValue }
        try #require(players.count == 2)
        #expect(game["result"] == .string("loss") && game["seat"] == .int(1) && info.fields["next"] == nil)
        #expect(players.map { $0["ratingBefore"] } == [.int(1500), .int(1500)])
        #expect(players.map { $0["ratingAfter"] } == [.int(1524), .int(1524)])
        #expect(players.map { $0["provisional"] } == [.bool(false), .bool(true)])
        #expect(players.map { $0["bot"] } == [.bool(false), .bool(true)])
    }
}
