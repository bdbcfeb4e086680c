import SetRatings
import SetRules
import SetWire

/// One line of the accounts log (`accounts.jsonl`): an account made, a name taken, a game
/// finished. Ratings are never stored apart: they are what the game records say they became.
enum AccountRecord: Equatable {
    case created(id: Int, identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64)
    case renamed(id: Int, name: String)
    case game(GameRecord)

    struct Unreadable: Error {
        var reason: String
    }

    func encoded() -> [UInt8] {
        var bytes = JSONWriter.bytes(json)
        bytes.append(0x0A)
        return bytes
    }

    var json: JSONValue {
        switch self {
        case .created(let id, let identity, let name, let bot, let wall):
            var members: [String: JSONValue] = ["type": "account", "id": .int(Int64(id)), "identity": .string(Self.text(identity)),
                                                "name": .string(name), "wall": .int(wall)]
            if bot { members["bot"] = .bool(true) }
            return .object(members)
        case .renamed(let id, let name): return ["type": "rename", "id": .int(Int64(id)), "name": .string(name)]
        case .game(let game):
            var members: [String: JSONValue] = [
                "type": "game", "match": .string(game.match), "game": .int(Int64(game.game)), "commitment": .string(game.commitment),
                "mode": .string(game.mode.rawValue), "variant": .string(game.variant.rawValue), "rated": .bool(game.rated),
                "outcome": .string(game.outcome.rawValue), "reason": .string(game.reason.rawValue),
                "players": .array(game.players.map(Self.json)), "endedAt": .int(game.endedAt), "durationMs": .int(game.durationMs),
                "wall": .int(game.wallSeconds), "journal": .string(game.journal)]
            if let winner = game.winner { members["winner"] = .int(Int64(winner.rawValue)) }
            return .object(members)
        }
    }

    private static func json(_ player: GameRecord.Player) -> JSONValue {
        var members: [String: JSONValue] = ["name": .string(player.name), "points": .int(Int64(player.points)), "sets": .int(Int64(player.sets)),
                                            "setTimes": .array(player.setTimes.map { .int(Int64($0)) })]
        if let account = player.account { members["account"] = .int(Int64(account)) }
        if let before = player.before { members["before"] = json(before) }
        if let after = player.after { members["after"] = json(after) }
        return .object(members)
    }

    /// Full precision: a rating rebuilt from the log must equal the one computed live.
    private static func json(_ rating: Rating) -> JSONValue {
        ["r": .string(String(rating.rating)), "rd": .string(String(rating.deviation)), "vol": .string(String(rating.volatility))]
    }

    static func text(_ identity: PlayerIdentity) -> String {
        switch identity {
        case .guest: "guest"
        case .sshKey(let fingerprint): "ssh:" + fingerprint
        case .accountKey(let digest): "key:" + digest
        }
    }

    static func identity(_ text: String) -> PlayerIdentity? {
        if text.hasPrefix("ssh:") { return .sshKey(fingerprint: String(text.dropFirst(4))) }
        if text.hasPrefix("key:") { return .accountKey(digest: String(text.dropFirst(4))) }
        return nil
    }

    /// Why the log's reader would refuse this record as written (nil: it reads it back): the
    /// writer asks before writing, so no record the next start refuses is ever written.
    func refusal(of bytes: [UInt8]) -> String? {
        do throws(Unreadable) {
            _ = try Self.decode(Array(bytes.dropLast()))
            return nil
        } catch {
            return error.reason
        }
    }

    /// Reads one line; anything not exactly a record the server writes is unreadable. A game
    /// line is read straight from its bytes (`GameLine`) when it can be; any line it declines is
    /// parsed into a JSON tree first, which gives the same record or says what is wrong.
    static func decode(_ line: [UInt8]) throws(Unreadable) -> AccountRecord {
        if let game = line.withUnsafeBufferPointer(GameLine.record) { return .game(game) }
        return try decodeParsed(line)
    }

    /// Reads one line through a JSON tree: every record, and every refusal's reason.
    static func decodeParsed(_ line: [UInt8]) throws(Unreadable) -> AccountRecord {
        guard let document = try? JSONParser.parse(line), let members = document.objectValue else { throw Unreadable(reason: "not a JSON object") }
        let f = Fields(members: members)
        switch try f.string("type") {
        case "account":
            guard let identity = identity(try f.string("identity")) else { throw Unreadable(reason: "an account without a key or ssh identity") }
            return .created(id: try f.int("id"), identity: identity, name: try f.name("name"), bot: members["bot"]?.boolValue ?? false,
                            wallSeconds: Int64(try f.int("wall")))
        case "rename": return .renamed(id: try f.int("id"), name: try f.name("name"))
        case "game":
            guard let mode = Mode(rawValue: try f.string("mode")), let variant = Variant(rawValue: try f.string("variant")),
                  let outcome = GameRecord.Outcome(rawValue: try f.string("outcome")),
                  let reason = MatchResult.Reason(rawValue: try f.string("reason")),
                  case .bool(let rated) = members["rated"], let items = members["players"]?.arrayValue, items.count <= 2 else {
                throw Unreadable(reason: "a game record with a bad mode, variant, outcome, reason, rated flag or players")
            }
            var players: [GameRecord.Player] = []
            for item in items {
                guard let fields = item.objectValue else { throw Unreadable(reason: "a player that is not an object") }
                let p = Fields(members: fields)
                let times = (fields["setTimes"]?.arrayValue ?? []).compactMap(\.intValue).map { Int($0) }
                players.append(GameRecord.Player(
                    account: fields["account"] == nil ? nil : try p.int("account"), name: try p.name("name"), points: try p.int("points", signed: true),
                    sets: try p.int("sets"), setTimes: times, before: try p.rating("before"), after: try p.rating("after")))
            }
            let winner = members["winner"] == nil ? nil : Seat(rawValue: try f.int("winner"))
            let record = GameRecord(
                match: try f.string("match"), game: try f.int("game"), commitment: try f.string("commitment"), mode: mode, variant: variant,
                rated: rated, outcome: outcome, reason: reason, winner: winner, players: players, endedAt: Int64(try f.int("endedAt")),
                durationMs: Int64(try f.int("durationMs")), wallSeconds: Int64(try f.int("wall")), journal: try f.string("journal"))
            if let problem = problem(in: record) { throw Unreadable(reason: problem) }
            return .game(record)
        default: throw Unreadable(reason: "an unknown record type")
        }
    }

    /// What makes a game record that reads well unreadable still, nil for nothing.
    static func problem(in game: GameRecord) -> String? {
        if game.rated && (game.players.count != 2 || game.players.contains { $0.account == nil || $0.before == nil || $0.after == nil }) {
            return "a rated game without two accounts' ratings"
        }
        if game.outcome == .win && game.winner == nil { return "a won game without a winner" }
        return nil
    }

    /// Whether a log may name a player so: as a client may ask to be named.
    static func isName(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(printableASCIIName) ?? ClientMessageDecoder.isAcceptable(name: text, maxLength: ClientMessageDecoder.maxNameLength)
    }

    /// `isAcceptable(name:)`'s verdict on a name of printable ASCII, found on its bytes (its
    /// Unicode properties cost a tenth of a start without a snapshot); nil for any other name.
    static func printableASCIIName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count <= ClientMessageDecoder.maxNameLength, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return bytes.first.map { $0 != 0x20 } == true && bytes.last != 0x20
    }

    /// A rating as the log may hold one (`RatingBounds`, the rule the rater keeps to), nil for
    /// any other figures.
    static func rating(_ r: Double, _ rd: Double, _ vol: Double) -> Rating? {
        let rating = Rating(rating: r, deviation: rd, volatility: vol)
        return RatingBounds.contains(rating) ? rating : nil
    }

    /// Typed reads that say which field is wrong.
    private struct Fields {
        let members: [String: JSONValue]

        func string(_ key: String) throws(Unreadable) -> String {
            guard let text = members[key]?.stringValue else { throw Unreadable(reason: "\"\(key)\" is not a string") }
            return text
        }

        func int(_ key: String, signed: Bool = false) throws(Unreadable) -> Int {
            guard let number = members[key]?.intValue, signed || number >= 0, let value = Int(exactly: number) else {
                throw Unreadable(reason: "\"\(key)\" is not a \(signed ? "" : "non-negative ")integer")
            }
            return value
        }

        func name(_ key: String) throws(Unreadable) -> String {
            let text = try string(key)
            guard AccountRecord.isName(text) else {
                throw Unreadable(reason: "\"\(key)\" is not a player's name")
            }
            return text
        }

        func rating(_ key: String) throws(Unreadable) -> Rating? {
            guard let value = members[key] else { return nil }
            guard let fields = value.objectValue,
                  let r = fields["r"]?.stringValue.flatMap(Double.init), let rd = fields["rd"]?.stringValue.flatMap(Double.init),
                  let vol = fields["vol"]?.stringValue.flatMap(Double.init), let rating = AccountRecord.rating(r, rd, vol) else {
                throw Unreadable(reason: "\"\(key)\" is not a rating")
            }
            return rating
        }
    }
}
