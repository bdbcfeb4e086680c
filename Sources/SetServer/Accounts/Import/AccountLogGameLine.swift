import Glibc
import SetRatings
import SetRules

/// A game line of the accounts log read straight from its bytes, without a JSON tree (issue 43:
/// the tree, a dictionary per object, was a fifth of a million-game import's CPU). It takes only
/// the shape the old server wrote: no whitespace, every string plain ASCII without escapes,
/// integers of up to 18 digits, each known member once and no other; anything else (or a game
/// the record check would refuse) is nil, and the caller reads the line through the tree
/// (`AccountLogRecord.decodeThroughTree`), which then says exactly what it always said.
enum AccountLogGameLine {
    /// The game `line` holds when it is a game line of the plain shape, nil otherwise.
    static func decode(_ line: [UInt8]) -> GameRecord? {
        line.withUnsafeBufferPointer { bytes in
            var reader = Reader(bytes: bytes)
            guard let game = reader.game(), reader.position == bytes.count,
                  AccountLogRecord.problem(in: game) == nil else { return nil }
            return game
        }
    }

    /// A game's members, as the old server named them (`keys`, in the cases' order).
    private enum Member: Int, KeyNamed {
        case commitment, durationMs, endedAt, game, journal, match, mode, outcome, players, rated, reason, type, variant, wall, winner

        static let keys: [StaticString] = ["commitment", "durationMs", "endedAt", "game", "journal", "match", "mode", "outcome",
                                           "players", "rated", "reason", "type", "variant", "wall", "winner"]
    }

    /// A seat's members.
    private enum PlayerMember: Int, KeyNamed {
        case account, after, before, name, points, sets, setTimes

        static let keys: [StaticString] = ["account", "after", "before", "name", "points", "sets", "setTimes"]
    }

    /// A rating's members.
    private enum RatingMember: Int, KeyNamed {
        case r, rd, vol

        static let keys: [StaticString] = ["r", "rd", "vol"]
    }

    /// A cursor over one line; each read returns nil at the first byte it does not expect.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        /// The game object, from its `{` to its `}`.
        mutating func game() -> GameRecord? {
            var record = GameRecord(match: "", game: 0, commitment: "", mode: .duel, variant: .classic, rated: false, outcome: .win,
                                    reason: .noSetsLeft, winner: nil, players: [], endedAt: 0, durationMs: 0, wallSeconds: 0, journal: "")
            var seen: UInt32 = 0
            let ok = members(Member.self, seen: &seen) { reader, member in
                switch member {
                case .commitment: return reader.string().map { record.commitment = $0 } != nil
                case .durationMs: return reader.natural().map { record.durationMs = Int64($0) } != nil
                case .endedAt: return reader.natural().map { record.endedAt = Int64($0) } != nil
                case .game: return reader.natural().map { record.game = $0 } != nil
                case .journal: return reader.string().map { record.journal = $0 } != nil
                case .match: return reader.string().map { record.match = $0 } != nil
                case .mode: return reader.string().flatMap(Mode.init(rawValue:)).map { record.mode = $0 } != nil
                case .outcome: return reader.string().flatMap(GameRecord.Outcome.init(rawValue:)).map { record.outcome = $0 } != nil
                case .players: return reader.players().map { record.players = $0 } != nil
                case .rated: return reader.bool().map { record.rated = $0 } != nil
                case .reason: return reader.string().flatMap(MatchResult.Reason.init(rawValue:)).map { record.reason = $0 } != nil
                case .type: return reader.string() == "game"
                case .variant: return reader.string().flatMap(Variant.init(rawValue:)).map { record.variant = $0 } != nil
                case .wall: return reader.natural().map { record.wallSeconds = Int64($0) } != nil
                case .winner: return reader.natural().map { record.winner = Seat(rawValue: $0) } != nil
                }
            }
            // Every member but the winner must be there.
            let required: UInt32 = (1 << Member.keys.count - 1) & ~(1 << Member.winner.rawValue)
            guard ok, seen & required == required else { return nil }
            return record
        }

        /// `[` up to two seats `]`.
        mutating func players() -> [GameRecord.Player]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var players: [GameRecord.Player] = []
            if take(UInt8(ascii: "]")) { return players }
            repeat {
                guard players.count < 2, let player = player() else { return nil }
                players.append(player)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? players : nil
        }

        /// One seat's object.
        mutating func player() -> GameRecord.Player? {
            var player = GameRecord.Player(account: nil, name: "", points: 0, sets: 0, setTimes: [], before: nil, after: nil)
            var seen: UInt32 = 0
            let ok = members(PlayerMember.self, seen: &seen) { reader, member in
                switch member {
                case .account: return reader.natural().map { player.account = $0 } != nil
                case .after: return reader.rating().map { player.after = $0 } != nil
                case .before: return reader.rating().map { player.before = $0 } != nil
                case .name: return reader.string().flatMap { AccountLogRecord.isName($0) ? $0 : nil }.map { player.name = $0 } != nil
                case .points: return reader.integer().map { player.points = $0 } != nil
                case .sets: return reader.natural().map { player.sets = $0 } != nil
                case .setTimes: return reader.integers().map { player.setTimes = $0 } != nil
                }
            }
            let required: UInt32 = 1 << PlayerMember.name.rawValue | 1 << PlayerMember.points.rawValue | 1 << PlayerMember.sets.rawValue
            guard ok, seen & required == required else { return nil }
            return player
        }

        /// `{"r":"…","rd":"…","vol":"…"}`, within the bounds a rating keeps.
        mutating func rating() -> Rating? {
            var (r, rd, vol) = (0.0, 0.0, 0.0)
            var seen: UInt32 = 0
            let ok = members(RatingMember.self, seen: &seen) { reader, member in
                guard let figure = reader.string().flatMap(Double.init) else { return false }
                switch member {
                case .r: r = figure
                case .rd: rd = figure
                case .vol: vol = figure
                }
                return true
            }
            guard ok, seen == 0b111 else { return nil }
            return AccountLogRecord.rating(r, rd, vol)
        }

        /// An object's members, each one of `Known` at most once (`seen` marks them), each value
        /// read by `value`; false at anything else.
        mutating func members<Known: KeyNamed>(_ known: Known.Type, seen: inout UInt32, _ value: (inout Reader, Known) -> Bool) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                guard let key = plainString(), take(UInt8(ascii: ":")),
                      let index = Known.keys.firstIndex(where: { Self.equal(key, $0) }), seen & 1 << index == 0,
                      let member = Known(rawValue: index) else { return false }
                seen |= 1 << index
                guard value(&self, member) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }

        static func equal(_ range: UnsafeBufferPointer<UInt8>, _ key: StaticString) -> Bool {
            range.count == key.utf8CodeUnitCount && memcmp(range.baseAddress!, key.utf8Start, range.count) == 0
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// A string's bytes between its quotes when every one is printable ASCII and none a
        /// quote or backslash (no escapes to undo, no UTF-8 to check).
        mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<position - 1])
                }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            return nil
        }

        mutating func string() -> String? {
            plainString().map { String(decoding: $0, as: UTF8.self) }
        }

        mutating func bool() -> Bool? {
            if literal("true") { return true }
            if literal("false") { return false }
            return nil
        }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - position >= count, memcmp(bytes.baseAddress! + position, text.utf8Start, count) == 0 else { return false }
            position += count
            return true
        }

        /// A non-negative integer written plainly (`0`, or digits not starting with 0, at most 18 of them).
        mutating func natural() -> Int? {
            let start = position
            var value = 0
            while position < bytes.count, case let byte = bytes[position], byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                // Wrapping: a number too long to fit is refused by its length below.
                value = value &* 10 &+ Int(byte - UInt8(ascii: "0"))
                position += 1
            }
            let digits = position - start
            guard digits >= 1, digits <= 18, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            // A fraction or an exponent makes it a number the tree reads its own way.
            if position < bytes.count, case let next = bytes[position],
               next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
            return value
        }

        /// An integer, perhaps negative.
        mutating func integer() -> Int? {
            take(UInt8(ascii: "-")) ? natural().map { -$0 } : natural()
        }

        /// `[` integers `]`.
        mutating func integers() -> [Int]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var values: [Int] = []
            if take(UInt8(ascii: "]")) { return values }
            values.reserveCapacity(32)
            repeat {
                guard let value = integer() else { return nil }
                values.append(value)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? values : nil
        }
    }
}

/// A closed set of an object's members, each case the key at its raw value in `keys`.
private protocol KeyNamed {
    init?(rawValue: Int)
    static var keys: [StaticString] { get }
}
