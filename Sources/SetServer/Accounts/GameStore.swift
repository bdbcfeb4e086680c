import SetRatings
import SetRules

/// The book's finished games, kept compact: a million games must fit in a server's memory
/// beside everything else (issue 25's benchmark). Each game is one plain struct of numbers
/// (no references, so a snapshot writes and reads the array as bytes); player names are
/// interned, match names and odd strings kept once in `texts`, and games are found by their
/// seed commitment through an open-addressing index of game numbers.
///
/// Of a past game's ratings only what history and the scoreboard show is kept, to `Float`
/// precision: the rating before, the rating and deviation after (a rebuilt record gives the
/// rest as a newcomer's). Each account's current rating, which the next game is rated from,
/// stays exact in the book, and the log keeps every figure.
struct GameStore: Equatable {
    /// A seed commitment: 64 lowercase hex digits packed in 32 bytes, or (`Game.textCommitment`)
    /// an index into `texts` with a stable hash of the text.
    struct Digest: Hashable {
        var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0
    }

    /// One seat of a stored game; `account` and `name` are -1 when absent.
    struct Seat: Equatable {
        var account: Int32 = -1
        var name: Int32 = -1
        var points: Int32 = 0
        var sets: UInt16 = 0
        var rated = false
        var beforeRating: Float = 0, afterRating: Float = 0, afterDeviation: Float = 0
    }

    /// One stored game: plain numbers only.
    struct Game: Equatable {
        var commitment = Digest()
        var endedAt: Int64 = 0
        /// Up to 49 days; Unix seconds up to 2106 (clamped beyond: 128 bytes a game, not 136).
        var durationMs: UInt32 = 0
        var wallSeconds: UInt32 = 0
        /// A match named `<prefix>-<number>` (as the lobby names them): the prefix in `names`,
        /// the number in `matchNumber`; any other name (`matchNumber` -1) in `texts`.
        var match: Int32 = 0
        var matchNumber: Int32 = -1
        /// -1: `<match>.jsonl`, the journal a finished match leaves; else an index into `texts`.
        var journal: Int32 = -1
        var game: Int32 = 0
        var mode: UInt8 = 0, variant: UInt8 = 0, outcome: UInt8 = 0, reason: UInt8 = 0
        /// 255: no winner.
        var winner: UInt8 = 255
        var rated = false
        var textCommitment = false
        var seatCount: UInt8 = 0
        var first = Seat(), second = Seat()

        func seat(_ index: Int) -> Seat { index == 0 ? first : second }

        func account(of index: Int) -> Int? {
            guard index < Int(seatCount) else { return nil }
            let id = seat(index).account
            return id < 0 ? nil : Int(id)
        }

        /// The index-key of the commitment: its first word, or its text's stable hash.
        var key: UInt64 { textCommitment ? commitment.b : commitment.a }

        var isRated: Bool { rated }
        var variantValue: Variant { Variant.allCases[Int(variant)] }

        /// 1, ½ or 0 for a seat of a counted duel, as `GameRecord.score(of:)`.
        func score(of index: Int) -> Score? {
            switch GameRecord.Outcome.allCases[Int(outcome)] {
            case .solo, .aborted: nil
            case .draw: .draw
            case .win: Int(winner) == index ? .win : .loss
            }
        }
    }

    private(set) var games: [Game] = []
    private(set) var texts: [String] = []
    private(set) var names: [String] = []
    private var nameIDs: [String: Int32] = [:]
    /// Open addressing over `games`: each slot a game number, -1 empty; twice as many slots as games at least.
    private var slots: [Int32] = Array(repeating: -1, count: 16)

    init() {}

    /// Rebuilds a store from a snapshot's parts; nil if they do not fit together.
    init?(games: [Game], texts: [String], names: [String]) {
        self.games = games
        self.texts = texts
        self.names = names
        for (index, name) in names.enumerated() { nameIDs[name] = Int32(index) }
        guard nameIDs.count == names.count, games.allSatisfy({ Self.fits($0, texts: texts.count, names: names.count) }) else { return nil }
        rebuildIndex(capacity: games.count)
    }

    static func == (lhs: GameStore, rhs: GameStore) -> Bool {
        lhs.games == rhs.games && lhs.texts == rhs.texts && lhs.names == rhs.names
    }

    var count: Int { games.count }
    var isEmpty: Bool { games.isEmpty }

    /// The stored game at `index`, numbers only (for scans that need no strings).
    func stored(_ index: Int) -> Game { games[index] }

    /// The game at `index` as a record (set times live with the accounts, not here).
    subscript(index: Int) -> GameRecord {
        let game = games[index]
        let match = game.matchNumber < 0 ? texts[Int(game.match)] : names[Int(game.match)] + "-" + String(game.matchNumber)
        let players = (0..<Int(game.seatCount)).map { number -> GameRecord.Player in
            let seat = game.seat(number)
            var player = GameRecord.Player(account: seat.account < 0 ? nil : Int(seat.account), name: seat.name < 0 ? "" : names[Int(seat.name)],
                                           points: Int(seat.points), sets: Int(seat.sets), setTimes: [])
            if seat.rated {
                player.before = Rating(rating: Double(seat.beforeRating), deviation: Rating.initial.deviation, volatility: Rating.initial.volatility)
                player.after = Rating(rating: Double(seat.afterRating), deviation: Double(seat.afterDeviation), volatility: Rating.initial.volatility)
            }
            return player
        }
        return GameRecord(match: match, game: Int(game.game), commitment: commitmentText(game), mode: Mode.allCases[Int(game.mode)],
                          variant: game.variantValue, rated: game.rated, outcome: GameRecord.Outcome.allCases[Int(game.outcome)],
                          reason: MatchResult.Reason.allCases[Int(game.reason)], winner: game.winner == 255 ? nil : SetRules.Seat(rawValue: Int(game.winner)),
                          players: players, endedAt: game.endedAt, durationMs: Int64(game.durationMs), wallSeconds: Int64(game.wallSeconds),
                          journal: game.journal < 0 ? match + ".jsonl" : texts[Int(game.journal)])
    }

    /// The number of the game dealt with this commitment.
    func index(of commitment: String) -> Int? {
        let packed = Self.pack(commitment)
        var slot = Self.mix(packed?.a ?? Self.stableHash(commitment)) & UInt64(slots.count - 1)
        while true {
            let found = slots[Int(slot)]
            if found < 0 { return nil }
            let game = games[Int(found)]
            if let packed, !game.textCommitment, game.commitment == packed { return Int(found) }
            if packed == nil, game.textCommitment, texts[Int(game.commitment.a)] == commitment { return Int(found) }
            slot = (slot + 1) & UInt64(slots.count - 1)
        }
    }

    /// Keeps a game; its number is the count before.
    mutating func append(_ record: GameRecord) {
        var game = Game()
        if let packed = Self.pack(record.commitment) {
            game.commitment = packed
        } else {
            game.textCommitment = true
            game.commitment = Digest(a: UInt64(texts.count), b: Self.stableHash(record.commitment))
            texts.append(record.commitment)
        }
        if let dash = record.match.lastIndex(of: "-"), let number = Int32(record.match[record.match.index(after: dash)...]),
           number >= 0, String(number) == record.match[record.match.index(after: dash)...] {
            game.match = intern(String(record.match[..<dash]))
            game.matchNumber = number
        } else {
            game.match = Int32(texts.count)
            texts.append(record.match)
        }
        if record.journal != record.match + ".jsonl" {
            game.journal = Int32(texts.count)
            texts.append(record.journal)
        }
        game.endedAt = record.endedAt
        game.durationMs = UInt32(clamping: record.durationMs)
        game.wallSeconds = UInt32(clamping: record.wallSeconds)
        game.game = Int32(clamping: record.game)
        game.mode = UInt8(Mode.allCases.firstIndex(of: record.mode) ?? 0)
        game.variant = UInt8(Variant.allCases.firstIndex(of: record.variant) ?? 0)
        game.outcome = UInt8(GameRecord.Outcome.allCases.firstIndex(of: record.outcome) ?? 0)
        game.reason = UInt8(MatchResult.Reason.allCases.firstIndex(of: record.reason) ?? 0)
        game.winner = record.winner.map { UInt8($0.rawValue) } ?? 255
        game.rated = record.rated
        game.seatCount = UInt8(min(2, record.players.count))
        for (number, player) in record.players.prefix(2).enumerated() {
            var seat = Seat(account: player.account.map { Int32(clamping: $0) } ?? -1, name: intern(player.name),
                            points: Int32(clamping: player.points), sets: UInt16(clamping: player.sets))
            if let before = player.before, let after = player.after {
                seat.rated = true
                (seat.beforeRating, seat.afterRating, seat.afterDeviation) = (Float(before.rating), Float(after.rating), Float(after.deviation))
            }
            if number == 0 { game.first = seat } else { game.second = seat }
        }
        games.append(game)
        if games.count * 2 > slots.count { rebuildIndex(capacity: games.count) } else { insert(games.count - 1) }
    }

    private mutating func intern(_ name: String) -> Int32 {
        if let id = nameIDs[name] { return id }
        let id = Int32(names.count)
        names.append(name)
        nameIDs[name] = id
        return id
    }

    private func commitmentText(_ game: Game) -> String {
        if game.textCommitment { return texts[Int(game.commitment.a)] }
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        for word in [game.commitment.a, game.commitment.b, game.commitment.c, game.commitment.d] {
            for shift in stride(from: 60, through: 0, by: -4) { bytes.append(digits[Int((word >> UInt64(shift)) & 0xF)]) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func rebuildIndex(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        for index in games.indices { insert(index) }
    }

    private mutating func insert(_ index: Int) {
        let mask = UInt64(slots.count - 1)
        var slot = Self.mix(games[index].key) & mask
        while slots[Int(slot)] >= 0 { slot = (slot + 1) & mask }
        slots[Int(slot)] = Int32(index)
    }

    private static func fits(_ game: Game, texts: Int, names: Int) -> Bool {
        let nameOK = { (seat: Seat) in seat.name >= -1 && Int(seat.name) < names }
        return Int(game.match) < (game.matchNumber < 0 ? texts : names) && game.match >= 0 && Int(game.journal) < texts && game.journal >= -1
            && (!game.textCommitment || game.commitment.a < UInt64(texts)) && Int(game.mode) < Mode.allCases.count
            && Int(game.variant) < Variant.allCases.count && Int(game.outcome) < GameRecord.Outcome.allCases.count
            && Int(game.reason) < MatchResult.Reason.allCases.count && game.seatCount <= 2 && nameOK(game.first) && nameOK(game.second)
            && (game.winner == 255 || game.winner < 2)
    }

    /// 64 lowercase hex digits as 32 bytes; nil for any other text.
    static func pack(_ text: String) -> Digest? {
        var text = text
        // On the bytes, with no array and no branch on digit or letter (which is random, so a
        // branch on it mispredicts): a start without a snapshot packs every game's twice.
        return text.withUTF8 { bytes -> Digest? in
            guard bytes.count == 64 else { return nil }
            var invalid = false
            func word(_ start: Int) -> UInt64 {
                var word: UInt64 = 0
                for byte in bytes[start..<start + 16] {
                    invalid = invalid || !(byte &- 0x30 < 10 || byte &- 0x61 < 6)
                    // '0'...'9' are 0x30...0x39, 'a'...'f' 0x61...0x66: the low four bits, plus 9 for a letter.
                    word = word << 4 | UInt64((byte & 0x0F) &+ (byte >> 6) &* 9)
                }
                return word
            }
            let digest = Digest(a: word(0), b: word(16), c: word(32), d: word(48))
            return invalid ? nil : digest
        }
    }

    /// FNV-1a: the same for a text in every process, unlike `hashValue`.
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    private static func mix(_ key: UInt64) -> UInt64 {
        var x = key
        x ^= x >> 33
        x = x &* 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        return x
    }
}
