import SetRules

/// How a finished rated game moved one seat's rating, as the game-over line tells it.
package struct RatingChange: Hashable, Sendable {
    package var seat: Seat
    package var before: Int
    package var after: Int
    /// Whether the rating after the game is still provisional (shown `1523?`).
    package var provisional: Bool

    package init(seat: Seat, before: Int, after: Int, provisional: Bool) {
        self.seat = seat
        self.before = before
        self.after = after
        self.provisional = provisional
    }

    /// "1500 → 1523, +23", with `?` on a provisional rating, as players read it.
    package var shown: String {
        let delta = after - before
        return "\(before) → \(after)\(provisional ? "?" : ""), \(delta >= 0 ? "+" : "")\(delta)"
    }
}

/// A question about accounts, ratings and finished games (no match needed to ask it).
package enum AccountQuery: Hashable, Sendable {
    /// A player's ratings per variant and totals.
    case profile(name: String)
    /// A player's finished games, newest first. Without a name: the account of `account` (a
    /// client's own key, as `join` carries it), else of the asking connection.
    case history(name: String?, account: String? = nil, after: String?, limit: Int?)
    /// Two players' record against each other.
    case crosstable(name: String, other: String)
    /// The established players of a variant, best first.
    case leaderboard(variant: Variant, after: String?, limit: Int?)

    /// The request type that asks it, which is also the reply's type.
    package var type: AccountInfoType {
        switch self {
        case .profile: .profile
        case .history: .history
        case .crosstable: .crosstable
        case .leaderboard: .leaderboard
        }
    }
}

/// The replies to account questions; each is the question's own type name.
package enum AccountInfoType: String, CaseIterable, Sendable {
    case profile, history, crosstable, leaderboard
}

/// A reply about accounts: its type and its fields as Protocol.md documents them. The server
/// builds the fields; clients read them (the CLI prints them or passes them on as JSON).
package struct AccountInfo: Hashable, Sendable {
    package var type: AccountInfoType
    package var fields: [String: JSONValue]

    package init(_ type: AccountInfoType, _ fields: [String: JSONValue]) {
        self.type = type
        self.fields = fields
    }
}

extension RatingChange {
    var json: JSONValue {
        ["seat": .seat(seat), "before": .int(before), "after": .int(after), "provisional": .bool(provisional)]
    }

    static func decode(_ value: JSONValue) throws(WireError) -> RatingChange {
        guard let members = value.objectValue else { throw WireError(.badField, "\"ratings\" must hold objects.", details: ["field": "ratings"]) }
        let f = FieldReader(members)
        func number(_ key: String) throws(WireError) -> Int {
            Int(try f.required(key, "a rating") { k throws(WireError) in try f.int(k, in: 0...100_000, "a rating") })
        }
        return RatingChange(seat: try f.required("seat", "a seat") { k throws(WireError) in try f.seat(k) },
                            before: try number("before"), after: try number("after"), provisional: f.value("provisional")?.boolValue ?? false)
    }
}

extension ClientMessageDecoder {
    /// The most games one `history` page and players one `leaderboard` page hold.
    package static let maxPageLimit = 50

    static func accountQuery(_ type: AccountInfoType, _ fields: FieldReader) throws(WireError) -> AccountQuery {
        func name(_ key: String) throws(WireError) -> String? {
            guard let name = try fields.string(key) else { return nil }
            guard isAcceptable(name: name, maxLength: maxNameLength) else { throw fields.bad(key, "a player's name") }
            return name
        }
        func required(_ key: String) throws(WireError) -> String {
            guard let value = try name(key) else { throw fields.missing(key, "a player's name") }
            return value
        }
        func page() throws(WireError) -> (String?, Int?) {
            let after = try fields.string("after")
            if let after, after.utf8.count > 64 { throw fields.bad("after", "the `next` cursor of an earlier page") }
            let limit = try fields.int("limit", in: 1...Int64(maxPageLimit), "a number from 1 to \(maxPageLimit)")
            return (after, limit.map { Int($0) })
        }
        switch type {
        case .profile: return .profile(name: try required("name"))
        case .history:
            let (after, limit) = try page()
            return .history(name: try name("name"), account: try accountKey(fields), after: after, limit: limit)
        case .crosstable: return .crosstable(name: try required("name"), other: try required("other"))
        case .leaderboard:
            let (after, limit) = try page()
            return .leaderboard(variant: try fields.choice("variant", Variant.self) ?? .classic, after: after, limit: limit)
        }
    }
}

extension ClientMessageEncoder {
    static func encode(_ query: AccountQuery) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["type": .string(query.type.rawValue)]
        switch query {
        case .profile(let name): members["name"] = .string(name)
        case .history(let name, let account, let after, let limit):
            if let name { members["name"] = .string(name) }
            if let account { members["account"] = .string(account) }
            if let after { members["after"] = .string(after) }
            if let limit { members["limit"] = .int(Int64(limit)) }
        case .crosstable(let name, let other):
            members["name"] = .string(name)
            members["other"] = .string(other)
        case .leaderboard(let variant, let after, let limit):
            members["variant"] = .string(variant.rawValue)
            if let after { members["after"] = .string(after) }
            if let limit { members["limit"] = .int(Int64(limit)) }
        }
        return members
    }
}
