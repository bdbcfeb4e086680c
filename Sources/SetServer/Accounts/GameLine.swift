import Glibc
import SetRatings
import SetRules

/// A game line of the accounts log read straight from its bytes into a `GameRecord`, with no
/// JSON tree between: a start without a snapshot reads a million of them, and building each
/// line's dictionaries cost most of that start (issue 25). It reads only what it can read
/// exactly as `AccountRecord.decode` does and declines (nil) everything else: an escape in a
/// string, an unknown or repeated key, a number with a fraction or exponent, a value of another
/// type, anything the general path would refuse. A declined line goes the general way, so the
/// two give the same record or the same refusal.
enum GameLine {
    /// The game on `line`, or nil when this reader does not understand the line all the way.
    static func record(_ line: UnsafeBufferPointer<UInt8>) -> GameRecord? {
        var reader = GameLineReader(bytes: line)
        return reader.game()
    }

    /// The high bit of each of eight bytes (the first in memory lowest) that ends or breaks a
    /// plain run of a string: a quote, a backslash, a control character, a byte past ASCII.
    /// The lowest bit set is exact; bits above it may be set wrongly by a borrow, and are not
    /// used (the "Bit Twiddling Hacks" tests for a zero byte and a byte below n).
    static func special(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func zeroes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        return word & highs | (word &- ones &* 0x20) & ~word & highs | zeroes(word ^ ones &* 0x22) | zeroes(word ^ ones &* 0x5C)
    }
}

/// The keys of a game line, a player and a rating, each kind in the order the server writes
/// them (sorted).
private enum GameKey: Int, CaseIterable {
    case commitment, durationMs, endedAt, game, journal, match, mode, outcome, players, rated, reason, type, variant, wall, winner
    case account, after, before, name, points, setTimes, sets
    case r, rd, vol

    static let ofGame = commitment.rawValue...winner.rawValue, ofPlayer = account.rawValue...sets.rawValue, ofRating = r.rawValue...vol.rawValue
    static let requiredOfGame = bits(ofGame) & ~winner.bit, requiredOfPlayer = bits([.name, .points, .sets]), requiredOfRating = bits(ofRating)

    /// The key as the log spells it.
    var spelling: StaticString {
        switch self {
        case .type: "type"
        case .match: "match"
        case .game: "game"
        case .commitment: "commitment"
        case .mode: "mode"
        case .variant: "variant"
        case .rated: "rated"
        case .outcome: "outcome"
        case .reason: "reason"
        case .players: "players"
        case .endedAt: "endedAt"
        case .durationMs: "durationMs"
        case .wall: "wall"
        case .journal: "journal"
        case .winner: "winner"
        case .account: "account"
        case .name: "name"
        case .points: "points"
        case .sets: "sets"
        case .setTimes: "setTimes"
        case .before: "before"
        case .after: "after"
        case .r: "r"
        case .rd: "rd"
        case .vol: "vol"
        }
    }

    /// The key's bit in a set of keys seen.
    var bit: UInt32 { 1 << UInt32(rawValue) }

    static func bits(_ keys: ClosedRange<Int>) -> UInt32 { keys.reduce(0) { $0 | 1 << UInt32($1) } }

    static func bits(_ keys: [GameKey]) -> UInt32 { keys.reduce(0) { $0 | $1.bit } }
}

/// Each case of an enum the log names by raw value, with its spelling.
private struct Spellings<Choice: CaseIterable & RawRepresentable & Sendable>: Sendable where Choice.RawValue == String {
    let cases: [(choice: Choice, spelling: [UInt8])] = Choice.allCases.map { ($0, Array($0.rawValue.utf8)) }
}

/// A cursor over one line, reading the strict subset of JSON that `GameLine` understands.
private struct GameLineReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func game() -> GameRecord? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var seen: UInt32 = 0, last: GameKey?
        var match = "", commitment = "", journal = ""
        var game = 0, endedAt: Int64 = 0, durationMs: Int64 = 0, wall: Int64 = 0
        var mode = Mode.duel, variant = Variant.classic, outcome = GameRecord.Outcome.win, reason = MatchResult.Reason.noSetsLeft
        var rated = false
        var winner: SetRules.Seat?
        var players: [GameRecord.Player] = []
        repeat {
            guard let next = key(among: GameKey.ofGame, after: last), seen & next.bit == 0 else { return nil }
            (last, seen) = (next, seen | next.bit)
            switch next {
            case .type:
                guard let text = text(), text.ascii, equal(text.range, "game") else { return nil }
            case .match: guard let value = string() else { return nil }; match = value
            case .commitment: guard let value = string() else { return nil }; commitment = value
            case .journal: guard let value = string() else { return nil }; journal = value
            case .game: guard let value = count() else { return nil }; game = Int(value)
            case .endedAt: guard let value = count() else { return nil }; endedAt = value
            case .durationMs: guard let value = count() else { return nil }; durationMs = value
            case .wall: guard let value = count() else { return nil }; wall = value
            case .winner:
                guard let value = count() else { return nil }
                winner = SetRules.Seat(rawValue: Int(value))
            case .mode: guard let value = choice(Self.modes) else { return nil }; mode = value
            case .variant: guard let value = choice(Self.variants) else { return nil }; variant = value
            case .outcome: guard let value = choice(Self.outcomes) else { return nil }; outcome = value
            case .reason: guard let value = choice(Self.reasons) else { return nil }; reason = value
            case .rated: guard let value = flag() else { return nil }; rated = value
            case .players:
                guard take(UInt8(ascii: "[")) else { return nil }
                players.reserveCapacity(2)
                if !take(UInt8(ascii: "]")) {
                    repeat {
                        guard players.count < 2, let player = player() else { return nil }
                        players.append(player)
                    } while take(UInt8(ascii: ","))
                    guard take(UInt8(ascii: "]")) else { return nil }
                }
            default: return nil
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), atEnd(), seen & GameKey.requiredOfGame == GameKey.requiredOfGame else { return nil }
        let record = GameRecord(match: match, game: game, commitment: commitment, mode: mode, variant: variant, rated: rated,
                                outcome: outcome, reason: reason, winner: winner, players: players, endedAt: endedAt,
                                durationMs: durationMs, wallSeconds: wall, journal: journal)
        return AccountRecord.problem(in: record) == nil ? record : nil
    }

    mutating func player() -> GameRecord.Player? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var seen: UInt32 = 0, last: GameKey?
        var player = GameRecord.Player(account: nil, name: "", points: 0, sets: 0, setTimes: [])
        repeat {
            guard let next = key(among: GameKey.ofPlayer, after: last), seen & next.bit == 0 else { return nil }
            (last, seen) = (next, seen | next.bit)
            switch next {
            case .account: guard let value = count() else { return nil }; player.account = Int(value)
            case .name:
                guard let text = text() else { return nil }
                let run = UnsafeBufferPointer(rebasing: bytes[text.range])
                if let verdict = AccountRecord.printableASCIIName(run) {
                    guard verdict else { return nil }
                    player.name = String(decoding: run, as: UTF8.self)
                } else {
                    guard let value = String(validating: run, as: UTF8.self), AccountRecord.isName(value) else { return nil }
                    player.name = value
                }
            case .points: guard let value = integer() else { return nil }; player.points = Int(value)
            case .sets: guard let value = count() else { return nil }; player.sets = Int(value)
            case .setTimes:
                guard take(UInt8(ascii: "[")) else { return nil }
                if !take(UInt8(ascii: "]")) {
                    player.setTimes.reserveCapacity(32)
                    repeat {
                        guard let value = integer() else { return nil }
                        player.setTimes.append(Int(value))
                    } while take(UInt8(ascii: ","))
                    guard take(UInt8(ascii: "]")) else { return nil }
                }
            case .before: guard let value = rating() else { return nil }; player.before = value
            case .after: guard let value = rating() else { return nil }; player.after = value
            default: return nil
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), seen & GameKey.requiredOfPlayer == GameKey.requiredOfPlayer else { return nil }
        return player
    }

    mutating func rating() -> Rating? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var seen: UInt32 = 0, last: GameKey?
        var values = (r: 0.0, rd: 0.0, vol: 0.0)
        repeat {
            guard let next = key(among: GameKey.ofRating, after: last), seen & next.bit == 0, let text = text(), text.ascii,
                  let value = DecimalText.double(UnsafeBufferPointer(rebasing: bytes[text.range])) else { return nil }
            (last, seen) = (next, seen | next.bit)
            switch next {
            case .r: values.r = value
            case .rd: values.rd = value
            default: values.vol = value
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), seen == GameKey.requiredOfRating else { return nil }
        return AccountRecord.rating(values.r, values.rd, values.vol)
    }

    // MARK: Tokens

    mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    /// Consumes `byte` after any white space; false if another byte (or none) is there.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    mutating func atEnd() -> Bool {
        skipSpace()
        return at == bytes.count
    }

    /// A string's bytes between its quotes and whether all are ASCII; nil for an escape (left to
    /// the general path), a control character, an unclosed string or no string.
    mutating func text() -> (range: Range<Int>, ascii: Bool)? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = at
        var ascii = true
        // Eight bytes at a time, straight to the first that ends or breaks a plain run.
        while at + 8 <= bytes.count {
            let special = GameLine.special(UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + at).loadUnaligned(as: UInt64.self)))
            if special == 0 {
                at += 8
                continue
            }
            at += special.trailingZeroBitCount / 8
            guard let closed = closes(&ascii) else { continue }
            return closed ? (start..<at - 1, ascii) : nil
        }
        while at < bytes.count {
            guard let closed = closes(&ascii) else { continue }
            return closed ? (start..<at - 1, ascii) : nil
        }
        return nil
    }

    /// Takes the byte at `at` inside a string: true for the closing quote, false for an escape
    /// or a control character, nil for any other (noting one past ASCII).
    mutating func closes(_ ascii: inout Bool) -> Bool? {
        let byte = bytes[at]
        at += 1
        if byte == UInt8(ascii: "\"") { return true }
        if byte == UInt8(ascii: "\\") || byte < 0x20 { return false }
        if byte >= 0x80 { ascii = false }
        return nil
    }

    /// A string; nil also for one that is not UTF-8, which the JSON parser refuses too.
    mutating func string() -> String? {
        guard let text = text() else { return nil }
        let run = UnsafeBufferPointer(rebasing: bytes[text.range])
        return text.ascii ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
    }

    /// `"key":`, one of the keys numbered `keys`. The server writes them in order, so the one
    /// after the last (`previous`) is tried first.
    mutating func key(among keys: ClosedRange<Int>, after previous: GameKey?) -> GameKey? {
        guard let text = text(), take(UInt8(ascii: ":")) else { return nil }
        if let previous, keys.contains(previous.rawValue + 1), let next = GameKey(rawValue: previous.rawValue + 1),
           equal(text.range, next.spelling) {
            return next
        }
        for index in keys {
            let key = GameKey(rawValue: index)!
            if equal(text.range, key.spelling) { return key }
        }
        return nil
    }

    /// Byte by byte: keys and choices are a few bytes, shorter than a call to `memcmp` is worth.
    func equal(_ range: Range<Int>, _ spelling: StaticString) -> Bool {
        guard range.count == spelling.utf8CodeUnitCount else { return false }
        let expected = spelling.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != expected[offset] { return false }
        return true
    }

    func equal(_ range: Range<Int>, _ spelling: [UInt8]) -> Bool {
        guard range.count == spelling.count else { return false }
        return spelling.withUnsafeBufferPointer { expected in
            for offset in 0..<expected.count where bytes[range.lowerBound + offset] != expected[offset] { return false }
            return true
        }
    }

    static let modes = Spellings<Mode>(), variants = Spellings<Variant>(), outcomes = Spellings<GameRecord.Outcome>()
    static let reasons = Spellings<MatchResult.Reason>()

    /// An enum's case by its raw value. Only an ASCII string can be compared byte by byte: a
    /// Swift string compares by canonical equivalence, and "\u{212A}" (Kelvin) equals "K".
    mutating func choice<Choice>(_ spellings: Spellings<Choice>) -> Choice? {
        guard let text = text(), text.ascii else { return nil }
        return spellings.cases.first { equal(text.range, $0.spelling) }?.choice
    }

    mutating func flag() -> Bool? {
        skipSpace()
        let rest = bytes.count - at
        if rest >= 4, equal(at..<at + 4, "true") {
            at += 4
            return true
        }
        if rest >= 5, equal(at..<at + 5, "false") {
            at += 5
            return false
        }
        return nil
    }

    /// A plain integer: no fraction, no exponent, no leading zero, at most 18 digits (so it
    /// fits); nil for anything else. What follows is the caller's to check.
    mutating func integer() -> Int64? {
        skipSpace()
        let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        let start = at
        var value: Int64 = 0
        while at < bytes.count, case let digit = bytes[at] &- 0x30, digit < 10 {
            value = value &* 10 &+ Int64(digit)
            at += 1
        }
        let digits = at - start
        guard digits > 0, digits <= 18, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // A fraction or an exponent makes it a double to the JSON parser: the general path's to read.
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") || bytes[at] | 0x20 == UInt8(ascii: "e") { return nil }
        return negative ? -value : value
    }

    /// A non-negative plain integer, as `AccountRecord`'s unsigned fields require.
    mutating func count() -> Int64? {
        guard let value = integer(), value >= 0 else { return nil }
        return value
    }
}
