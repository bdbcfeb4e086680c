import SetRatings
import SetRules
import SetWire

/// The book's finished games, kept compact: a million games must fit in a server's memory
/// beside everything else (issue 25's benchmark). Each game is one plain struct of numbers
/// (no references, so a snapshot writes and reads the array as bytes); player names are
/// interned, match names and odd strings kept once in `texts`, and games are found by their
/// seed commitment through an open-addressing index of game numbers.
///
/// Of a past game the store keeps what history and a restored scoreboard show, and no more:
/// each seat's rating before and after, rounded as they are shown, and whether the rating after
/// was provisional; not the server-clock end time, which nothing shows. Each account's current
/// rating, which the next game is rated from, stays exact in the book, and the log keeps every
/// figure.
struct GameStore: Equatable {
    /// One seat of a stored game; `account` and `name` are -1 when absent. Its sets and whether
    /// it was rated live in the game's own bytes, so a seat is 16 bytes.
    struct Seat: Equatable {
        var account: Int32 = -1
        var name: Int32 = -1
        var points: Int32 = 0
        /// Rounded, as history shows them; meaningful when the seat was rated.
        var ratingBefore: Int16 = 0, ratingAfter: Int16 = 0
    }

    /// A game's yes-or-no facts and its seat count, in one byte.
    struct Flags: OptionSet, Equatable {
        let rawValue: UInt8
        static let rated = Flags(rawValue: 1 << 0)
        static let textCommitment = Flags(rawValue: 1 << 1)
        static let secondSeat = Flags(rawValue: 1 << 2)
        static let firstSeat = Flags(rawValue: 1 << 3)
        static let firstRated = Flags(rawValue: 1 << 4)
        static let firstProvisional = Flags(rawValue: 1 << 5)
        static let secondRated = Flags(rawValue: 1 << 6)
        static let secondProvisional = Flags(rawValue: 1 << 7)

        static func seatRated(_ index: Int) -> Flags { index == 0 ? .firstRated : .secondRated }
        static func seatProvisional(_ index: Int) -> Flags { index == 0 ? .firstProvisional : .secondProvisional }
    }

    /// One stored game: plain numbers only, 96 bytes.
    struct Game: Equatable {
        /// The seed commitment's digits, or (`Flags.textCommitment`) an index into `texts` (`a`)
        /// with a stable hash of the text (`b`).
        var commitment = Digest()
        /// Up to 49 days; Unix seconds up to 2106 (clamped beyond).
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
        var flags: Flags = []
        /// Sets each seat took (a game has at most 27).
        var firstSets: UInt8 = 0, secondSets: UInt8 = 0
        var first = Seat(), second = Seat()

        func seat(_ index: Int) -> Seat { index == 0 ? first : second }

        var seatCount: Int { flags.contains(.secondSeat) ? 2 : flags.contains(.firstSeat) ? 1 : 0 }
        var rated: Bool { flags.contains(.rated) }
        var textCommitment: Bool { flags.contains(.textCommitment) }

        func sets(of index: Int) -> Int { Int(index == 0 ? firstSets : secondSets) }
        func isRated(seat index: Int) -> Bool { flags.contains(.seatRated(index)) }
        func isProvisional(seat index: Int) -> Bool { flags.contains(.seatProvisional(index)) }

        func account(of index: Int) -> Int? {
            guard index < seatCount else { return nil }
            let id = seat(index).account
            return id < 0 ? nil : Int(id)
        }

        /// The index-key of the commitment: its first word, or its text's stable hash.
        var key: UInt64 { textCommitment ? commitment.b : commitment.a }

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

    /// The games in order, in chunks: a copy of the store (a snapshot written in the
    /// background) shares them, so the loop's next append copies one chunk, not a million games.
    private(set) var games: ChunkedArray<Game>
    static let defaultChunkSize = 1 << 16
    private(set) var texts: [String] = []
    private(set) var names: [String] = []
    private var nameIDs: [String: Int32] = [:]
    /// Open addressing over `games`: each slot a game number, -1 empty; twice as many slots as games at least.
    private var slots: [Int32] = Array(repeating: -1, count: 16)

    /// `chunkSize`: games a chunk holds (small in tests, to cross many seams with few games).
    init(chunkSize: Int = GameStore.defaultChunkSize) {
        games = ChunkedArray(chunkSize: chunkSize)
    }

    /// Rebuilds a store from a snapshot's parts; nil if they do not fit together.
    init?(chunks: [[Game]], texts: [String], names: [String], chunkSize: Int = GameStore.defaultChunkSize) {
        guard let games = ChunkedArray(chunks: chunks, chunkSize: chunkSize) else { return nil }
        self.games = games
        self.texts = texts
        self.names = names
        for (index, name) in names.enumerated() { nameIDs[name] = Int32(index) }
        guard nameIDs.count == names.count, games.allSatisfy({ Self.fits($0, texts: texts.count, names: names.count) }) else { return nil }
        rebuildIndex(capacity: count)
    }

    /// The same games, texts and names, however they are cut into chunks.
    static func == (lhs: GameStore, rhs: GameStore) -> Bool {
        lhs.games == rhs.games && lhs.texts == rhs.texts && lhs.names == rhs.names
    }

    var count: Int { games.count }
    var isEmpty: Bool { games.isEmpty }
    var chunks: [[Game]] { games.chunks }

    /// The stored game at `index`, numbers only (for scans that need no strings).
    func stored(_ index: Int) -> Game { games[index] }

    /// The game at `index` as a record (set times live with the accounts, not here).
    subscript(index: Int) -> GameRecord {
        let game = stored(index)
        let match = matchName(of: game)
        let players = (0..<game.seatCount).map { number -> GameRecord.Player in
            let seat = game.seat(number)
            var player = GameRecord.Player(account: seat.account < 0 ? nil : Int(seat.account), name: seat.name < 0 ? "" : names[Int(seat.name)],
                                           points: Int(seat.points), sets: game.sets(of: number), setTimes: [])
            if game.isRated(seat: number) {
                player.before = Self.shownRating(seat.ratingBefore, provisional: false)
                player.after = Self.shownRating(seat.ratingAfter, provisional: game.isProvisional(seat: number))
            }
            return player
        }
        return GameRecord(match: match, game: Int(game.game), commitment: commitmentText(game), mode: Mode.allCases[Int(game.mode)],
                          variant: game.variantValue, rated: game.rated, outcome: GameRecord.Outcome.allCases[Int(game.outcome)],
                          reason: MatchResult.Reason.allCases[Int(game.reason)], winner: game.winner == 255 ? nil : SetRules.Seat(rawValue: Int(game.winner)),
                          players: players, endedAt: 0, durationMs: Int64(game.durationMs), wallSeconds: Int64(game.wallSeconds),
                          journal: game.journal < 0 ? match + ".jsonl" : texts[Int(game.journal)])
    }

    /// A rating as a past game keeps it: its rounded figure, and a deviation on the right side
    /// of the provisional line (the one figure shown of it).
    private static func shownRating(_ rounded: Int16, provisional: Bool) -> Rating {
        Rating(rating: Double(rounded), deviation: provisional ? Rating.initial.deviation : Rating.provisionalDeviation,
               volatility: Rating.initial.volatility)
    }

    /// The number of the game dealt with this commitment.
    func index(of commitment: String) -> Int? {
        let packed = Digest(hex: commitment)
        var slot = Self.mix(packed?.a ?? Self.stableHash(commitment)) & UInt64(slots.count - 1)
        while true {
            let found = slots[Int(slot)]
            if found < 0 { return nil }
            let game = stored(Int(found))
            if let packed, !game.textCommitment, game.commitment == packed { return Int(found) }
            if packed == nil, game.textCommitment, texts[Int(game.commitment.a)] == commitment { return Int(found) }
            slot = (slot + 1) & UInt64(slots.count - 1)
        }
    }

    /// Keeps a game; its number is the count before.
    mutating func append(_ record: GameRecord) {
        var game = Game()
        if let packed = Digest(hex: record.commitment) {
            game.commitment = packed
        } else {
            game.flags.insert(.textCommitment)
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
        game.durationMs = UInt32(clamping: record.durationMs)
        game.wallSeconds = UInt32(clamping: record.wallSeconds)
        game.game = Int32(clamping: record.game)
        game.mode = UInt8(Mode.allCases.firstIndex(of: record.mode) ?? 0)
        game.variant = UInt8(Variant.allCases.firstIndex(of: record.variant) ?? 0)
        game.outcome = UInt8(GameRecord.Outcome.allCases.firstIndex(of: record.outcome) ?? 0)
        game.reason = UInt8(MatchResult.Reason.allCases.firstIndex(of: record.reason) ?? 0)
        game.winner = record.winner.map { UInt8($0.rawValue) } ?? 255
        if record.rated { game.flags.insert(.rated) }
        if !record.players.isEmpty { game.flags.insert(record.players.count == 1 ? .firstSeat : .secondSeat) }
        for (number, player) in record.players.prefix(2).enumerated() {
            var seat = Seat(account: player.account.map { Int32(clamping: $0) } ?? -1, name: intern(player.name),
                            points: Int32(clamping: player.points))
            if let before = player.before, let after = player.after {
                game.flags.insert(.seatRated(number))
                if after.isProvisional { game.flags.insert(.seatProvisional(number)) }
                (seat.ratingBefore, seat.ratingAfter) = (Int16(clamping: before.rounded), Int16(clamping: after.rounded))
            }
            let sets = UInt8(clamping: player.sets)
            if number == 0 { (game.first, game.firstSets) = (seat, sets) } else { (game.second, game.secondSets) = (seat, sets) }
        }
        games.append(game)
        if count * 2 > slots.count { rebuildIndex(capacity: count) } else { insert(count - 1) }
    }

    private mutating func intern(_ name: String) -> Int32 {
        if let id = nameIDs[name] { return id }
        let id = Int32(names.count)
        names.append(name)
        nameIDs[name] = id
        return id
    }

    /// The match a game was played in, by its name.
    func matchName(of game: Game) -> String {
        game.matchNumber < 0 ? texts[Int(game.match)] : names[Int(game.match)] + "-" + String(game.matchNumber)
    }

    private func commitmentText(_ game: Game) -> String {
        game.textCommitment ? texts[Int(game.commitment.a)] : game.commitment.hex
    }

    /// The commitment as a JSON string, written without making a `String` of it first.
    func commitmentJSON(of game: Game) -> [UInt8] {
        if game.textCommitment { return JSONWriter.bytes(.string(texts[Int(game.commitment.a)])) }
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        game.commitment.appendHex(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    private mutating func rebuildIndex(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        for index in 0..<count { insert(index) }
    }

    private mutating func insert(_ index: Int) {
        let mask = UInt64(slots.count - 1)
        var slot = Self.mix(stored(index).key) & mask
        while slots[Int(slot)] >= 0 { slot = (slot + 1) & mask }
        slots[Int(slot)] = Int32(index)
    }

    private static func fits(_ game: Game, texts: Int, names: Int) -> Bool {
        let nameOK = { (seat: Seat) in seat.name >= -1 && Int(seat.name) < names }
        return Int(game.match) < (game.matchNumber < 0 ? texts : names) && game.match >= 0 && Int(game.journal) < texts && game.journal >= -1
            && (!game.textCommitment || game.commitment.a < UInt64(texts)) && Int(game.mode) < Mode.allCases.count
            && Int(game.variant) < Variant.allCases.count && Int(game.outcome) < GameRecord.Outcome.allCases.count
            && Int(game.reason) < MatchResult.Reason.allCases.count && nameOK(game.first) && nameOK(game.second)
            && (game.winner == 255 || game.winner < 2)
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
