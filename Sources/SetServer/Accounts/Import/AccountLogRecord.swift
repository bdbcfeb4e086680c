import SetRatings
import SetRules
import SetWire

/// One line of the accounts log an earlier version kept (`accounts.jsonl`), as the import reads
/// it: an account made, a name taken, a game finished. Ratings were never stored apart: they
/// are what the game records say they became.
enum AccountLogRecord: Equatable {
    case created(id: Int, identity: PlayerIdentity, name: String, bot: Bool, wallSeconds: Int64)
    case renamed(id: Int, name: String)
    case game(GameRecord)

    struct Unreadable: Error {
        var reason: String
    }

    /// Reads one line: a game line of the old server's plain shape straight from its bytes
    /// (`AccountLogGameLine`), any other through a JSON tree; anything not exactly a record the
    /// old server wrote is unreadable, and the error says what is wrong.
    static func decode(_ line: [UInt8]) throws(Unreadable) -> AccountLogRecord {
        if let game = AccountLogGameLine.decode(line) { return .game(game) }
        return try decodeThroughTree(line)
    }

    /// Reads one line through a JSON tree: every record, and the words for what is wrong with one.
    static func decodeThroughTree(_ line: [UInt8]) throws(Unreadable) -> AccountLogRecord {
        guard let document = try? JSONParser.parse(line), let members = document.objectValue else { throw Unreadable(reason: "not a JSON object") }
        let f = Fields(members: members)
        switch try f.string("type") {
        case "account":
            guard let identity = PlayerIdentity(storedText: try f.string("identity")) else { throw Unreadable(reason: "an account without a key or ssh identity") }
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
        ClientMessageDecoder.isAcceptable(name: text, maxLength: ClientMessageDecoder.maxNameLength)
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
            guard AccountLogRecord.isName(text) else {
                throw Unreadable(reason: "\"\(key)\" is not a player's name")
            }
            return text
        }

        func rating(_ key: String) throws(Unreadable) -> Rating? {
            guard let value = members[key] else { return nil }
            guard let fields = value.objectValue,
                  let r = fields["r"]?.stringValue.flatMap(Double.init), let rd = fields["rd"]?.stringValue.flatMap(Double.init),
                  let vol = fields["vol"]?.stringValue.flatMap(Double.init), let rating = AccountLogRecord.rating(r, rd, vol) else {
                throw Unreadable(reason: "\"\(key)\" is not a rating")
            }
            return rating
        }
    }
}
