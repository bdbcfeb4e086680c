import SetRatings
import SetRules
import SetWire

/// One line of a match journal: an input to the match's host, with the instant it happened.
/// Replaying the records through a host rebuilds the match exactly.
enum JournalRecord: Equatable {
    /// The first line: what match this is. A classic match writes no variant, as before variants.
    case header(name: String, mode: Mode, rules: RuleSettings, variant: Variant = .classic)
    /// `account`: the account that took the seat, and whether it asked for a casual game; nil: a
    /// guest. `rating`: the account's rating as the seat's `player_joined` showed it, so a replay
    /// after a restart makes that line again exactly (nil in journals written before it was kept).
    case seated(seat: Seat, name: String, token: String, at: Instant, account: SeatAccount? = nil, rating: Rating? = nil)
    /// A game was dealt from `seed`.
    case game(number: Int, seed: UInt64, commitment: String, at: Instant)
    /// An accepted action; `seq` is the host's event count after it.
    case acted(seat: Seat, action: Action, seq: Int, at: Instant)
    case away(seat: Seat, at: Instant)
    case back(seat: Seat, at: Instant)
    /// Timers fired with no action to carry them: replay must fire them at the same instant.
    case tick(seq: Int, at: Instant)
    /// The number of spectators changed (an event, so it is numbered like one).
    case watchers(count: Int, seq: Int, at: Instant)
    /// The journal stopped taking writes at `at`: the match stood still from then on. Written,
    /// with what happened meanwhile, only once writes work again.
    case stalled(at: Instant)
    /// The server restarted: every seat still connected when it stopped was marked away then,
    /// keeping its window (a restart is nobody's drop).
    case restarted(at: Instant)
    /// Writes work again: the match goes on (`seq`: the events numbered after it goes on).
    case unstalled(seq: Int, at: Instant)
    /// A chat line, as said (already made printable); `seat` nil: a spectator's.
    case chat(room: ChatRoom, seat: Seat?, name: String, text: String, at: Instant)
    /// What decided a claim under lag compensation. No input: replay skips it, `setgame replay`
    /// prints it, so a close race can be explained.
    case race(RaceDecision, at: Instant)

    static let version = 1

    /// The event number the match had reached after this record, for those that say.
    var seq: Int? {
        switch self {
        case .acted(_, _, let seq, _), .tick(let seq, _), .watchers(_, let seq, _), .unstalled(let seq, _): seq
        default: nil
        }
    }

    var instant: Instant? {
        switch self {
        case .header: nil
        case .seated(_, _, _, let at, _, _), .game(_, _, _, let at), .acted(_, _, _, let at), .away(_, let at),
             .back(_, let at), .tick(_, let at), .watchers(_, _, let at), .stalled(let at), .unstalled(_, let at), .restarted(let at),
             .chat(_, _, _, _, let at), .race(_, let at): at
        }
    }

    func encoded() -> [UInt8] {
        // The frequent records are written directly, keys in sorted order (as `JSONWriter` would).
        switch self {
        case .acted(let seat, let action, let seq, let at): return JournalLines.acted(seat: seat, action: action, seq: seq, at: at)
        case .tick(let seq, let at): return JournalLines.tick(seq: seq, at: at)
        default: return genericEncoded()
        }
    }

    /// Through `JSONValue`: the reference the direct lines are tested against.
    func genericEncoded() -> [UInt8] {
        var members: [String: JSONValue]
        switch self {
        case .header(let name, let mode, let rules, let variant):
            members = ["type": "match", "version": .int(Int64(Self.version)), "name": .string(name),
                       "mode": .string(mode.rawValue), "rules": ServerMessageCoding.encodeRules(rules)]
            if variant != .classic { members["variant"] = .string(variant.rawValue) }
        case .seated(let seat, let name, let token, let at, let account, let rating):
            members = ["type": "seat", "seat": seatValue(seat), "name": .string(name), "token": .string(token), "at": .int(at.milliseconds)]
            // A guest's seat is written as before accounts.
            if let account {
                members["account"] = .int(Int64(account.id))
                if account.casual { members["casual"] = .bool(true) }
            }
            if let rating {
                members["rating"] = .double(rating.rating)
                members["deviation"] = .double(rating.deviation)
                members["volatility"] = .double(rating.volatility)
            }
        case .game(let number, let seed, let commitment, let at):
            members = ["type": "game", "game": .int(Int64(number)), "seed": .string(String(seed)),
                       "commitment": .string(commitment), "at": .int(at.milliseconds)]
        case .acted(let seat, let action, let seq, let at):
            members = ["type": "act", "seat": seatValue(seat), "action": .string(RequestType(action).rawValue), "seq": .int(Int64(seq)),
                       "at": .int(at.milliseconds)]
            if case .select(let card) = action { members["card"] = .int(Int64(card.id)) }
        case .away(let seat, let at): members = ["type": "away", "seat": seatValue(seat), "at": .int(at.milliseconds)]
        case .back(let seat, let at): members = ["type": "back", "seat": seatValue(seat), "at": .int(at.milliseconds)]
        case .tick(let seq, let at): members = ["type": "tick", "seq": .int(Int64(seq)), "at": .int(at.milliseconds)]
        case .watchers(let count, let seq, let at):
            members = ["type": "watchers", "count": .int(Int64(count)), "seq": .int(Int64(seq)), "at": .int(at.milliseconds)]
        case .stalled(let at): members = ["type": "stalled", "at": .int(at.milliseconds)]
        case .restarted(let at): members = ["type": "restarted", "at": .int(at.milliseconds)]
        case .unstalled(let seq, let at): members = ["type": "unstalled", "seq": .int(Int64(seq)), "at": .int(at.milliseconds)]
        case .chat(let room, let seat, let name, let text, let at):
            members = ["type": "chat", "room": .string(room.rawValue), "name": .string(name), "text": .string(text), "at": .int(at.milliseconds)]
            if let seat { members["seat"] = seatValue(seat) }
        case .race(let race, let at):
            func claim(_ entry: RaceEntry) -> JSONValue {
                .object(["seat": seatValue(entry.seat), "arrived": .int(entry.arrivedAt.milliseconds), "creditMs": .int(entry.creditMs)])
            }
            members = ["type": "race", "capMs": .int(race.capMs), "winner": claim(race.winner), "at": .int(at.milliseconds)]
            if let loser = race.loser { members["loser"] = claim(loser) }
        }
        var bytes = JSONWriter.bytes(.object(members))
        bytes.append(0x0A)
        return bytes
    }

    private func seatValue(_ seat: Seat) -> JSONValue { .int(Int64(seat.rawValue)) }

    /// Why a line is not a record.
    struct Unreadable: Error {
        var reason: String
    }

    static func decode(_ line: [UInt8]) throws(Unreadable) -> JournalRecord {
        let document: JSONValue
        do { document = try JSONParser.parse(line) } catch { throw Unreadable(reason: "not JSON: \(error.reason)") }
        func int(_ key: String) throws(Unreadable) -> Int64 {
            guard let value = document[key]?.intValue else { throw Unreadable(reason: "no integer \(key)") }
            return value
        }
        func text(_ key: String) throws(Unreadable) -> String {
            guard let value = document[key]?.stringValue else { throw Unreadable(reason: "no string \(key)") }
            return value
        }
        func seat() throws(Unreadable) -> Seat {
            guard let seat = Seat(rawValue: Int(try int("seat"))) else { throw Unreadable(reason: "bad seat") }
            return seat
        }
        func at() throws(Unreadable) -> Instant { Instant(milliseconds: try int("at")) }
        /// A finite number, however it was written (`1500.0`, or `1500` by a hand).
        func number(_ key: String) -> Double? {
            switch document[key] {
            case .double(let value)? where value.isFinite: value
            case .int(let value)?: Double(value)
            default: nil
            }
        }
        switch try text("type") {
        case "match":
            guard try int("version") == Int64(version) else { throw Unreadable(reason: "journal version \(try int("version"))") }
            guard let mode = Mode(rawValue: try text("mode")), let rulesValue = document["rules"] else { throw Unreadable(reason: "bad header") }
            var variant = Variant.classic
            if let name = document["variant"] {
                guard let named = name.stringValue.flatMap(Variant.init(rawValue:)) else { throw Unreadable(reason: "bad variant") }
                variant = named
            }
            switch ServerMessageCoding.decodeRulesOrProblem(rulesValue) {
            case .success(let rules): return .header(name: try text("name"), mode: mode, rules: rules, variant: variant)
            case .failure(let problem): throw Unreadable(reason: "bad rules: \(problem.message)")
            }
        case "seat":
            var account: SeatAccount?
            if document["account"] != nil {
                guard let id = Int(exactly: try int("account")), id >= 0 else { throw Unreadable(reason: "bad account") }
                account = SeatAccount(id: id, casual: document["casual"]?.boolValue ?? false)
            }
            var rating: Rating?
            if document["rating"] != nil {
                // In the ranges a rating can reach: a crafted line must not make `rounded` trap.
                guard let value = number("rating"), let deviation = number("deviation"), let volatility = number("volatility"),
                      (-10_000...10_000).contains(value), (0...10_000).contains(deviation), (0...10).contains(volatility) else {
                    throw Unreadable(reason: "bad rating")
                }
                rating = Rating(rating: value, deviation: deviation, volatility: volatility)
            }
            return .seated(seat: try seat(), name: try text("name"), token: try text("token"), at: try at(), account: account, rating: rating)
        case "game":
            guard let seed = UInt64(try text("seed")) else { throw Unreadable(reason: "bad seed") }
            return .game(number: Int(try int("game")), seed: seed, commitment: try text("commitment"), at: try at())
        case "act":
            let name = try text("action")
            guard let type = RequestType(rawValue: name) else { throw Unreadable(reason: "bad action \(name)") }
            var card: Card?
            if type == .select {
                guard let touched = Card(id: Int(try int("card"))) else { throw Unreadable(reason: "bad card") }
                card = touched
            }
            guard let action = type.action(touching: card) else { throw Unreadable(reason: "bad action \(name)") }
            return .acted(seat: try seat(), action: action, seq: Int(try int("seq")), at: try at())
        case "away": return .away(seat: try seat(), at: try at())
        case "back": return .back(seat: try seat(), at: try at())
        case "tick": return .tick(seq: Int(try int("seq")), at: try at())
        case "watchers": return .watchers(count: Int(try int("count")), seq: Int(try int("seq")), at: try at())
        case "stalled": return .stalled(at: try at())
        case "restarted": return .restarted(at: try at())
        case "unstalled": return .unstalled(seq: Int(try int("seq")), at: try at())
        case "chat":
            guard let room = ChatRoom(rawValue: try text("room")) else { throw Unreadable(reason: "bad chat room") }
            return .chat(room: room, seat: document["seat"] == nil ? nil : try seat(), name: try text("name"), text: try text("text"), at: try at())
        case "race":
            func claim(_ value: JSONValue?) throws(Unreadable) -> RaceEntry {
                guard let value, let seat = value["seat"]?.intValue.flatMap({ Seat(rawValue: Int($0)) }),
                      let arrived = value["arrived"]?.intValue, let credit = value["creditMs"]?.intValue, credit >= 0 else {
                    throw Unreadable(reason: "bad race claim")
                }
                return RaceEntry(seat: seat, arrivedAt: Instant(milliseconds: arrived), creditMs: credit)
            }
            let loser: RaceEntry? = if document["loser"] != nil { try claim(document["loser"]) } else { nil }
            return .race(RaceDecision(winner: try claim(document["winner"]), loser: loser, capMs: try int("capMs")), at: try at())
        case let other: throw Unreadable(reason: "unknown record \(other)")
        }
    }
}
