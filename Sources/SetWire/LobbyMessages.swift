import SetRules

/// A request about the lobby: being listed in it, and challenges between those who are.
package enum LobbyRequest: Hashable, Sendable {
    /// Be listed under the join's name (its account key and variant as `join` takes them) until
    /// this connection joins a match or closes; sent again, it refreshes the list.
    case enter(JoinRequest)
    /// Ask the player listed as `name` for a duel of `variant` (nil: the challenger's own).
    case challenge(name: String, variant: Variant?)
    /// Take up the open challenge from `from`.
    case accept(from: String)
    /// Turn down the open challenge from `from`.
    case decline(from: String)

    /// The request's `type` on the wire.
    package var type: RequestType {
        switch self {
        case .enter: .lobby
        case .challenge: .challenge
        case .accept: .accept
        case .decline: .decline
        }
    }
}

/// One player listed in the lobby: the variant they came for and their rating in it (nil: a guest).
package struct LobbyEntry: Hashable, Sendable {
    package var name: String
    package var variant: Variant
    package var rating: Int?
    package var provisional: Bool

    package init(name: String, variant: Variant, rating: Int? = nil, provisional: Bool = false) {
        self.name = name
        self.variant = variant
        self.rating = rating
        self.provisional = provisional
    }
}

/// Where a challenge stands.
package enum ChallengeState: String, CaseIterable, Sendable {
    /// Made, and waiting for its answer until `expiresAt`.
    case open
    /// Taken up: the two join `match` with their own `token`.
    case accepted
    /// Turned down.
    case declined
    /// Not answered by `expiresAt`: both sides are told, and it can no longer be accepted.
    case expired
}

/// What both sides of a challenge are told about it.
package struct ChallengeNotice: Hashable, Sendable {
    package var from: String
    package var to: String
    package var variant: Variant
    package var state: ChallengeState
    /// Open only: the server time after which it can no longer be accepted.
    package var expiresAt: Int64?
    /// Open only: the challenger's rating in the variant (nil: a guest).
    package var rating: Int?
    /// Accepted only: the match to join, and this reader's own seat token for it.
    package var match: String?
    package var token: String?

    package init(from: String, to: String, variant: Variant, state: ChallengeState, expiresAt: Int64? = nil, rating: Int? = nil,
                 match: String? = nil, token: String? = nil) {
        self.from = from
        self.to = to
        self.variant = variant
        self.state = state
        self.expiresAt = expiresAt
        self.rating = rating
        self.match = match
        self.token = token
    }
}

extension ClientMessageDecoder {
    /// A lobby request of `type`.
    static func lobby(_ type: RequestType, _ fields: FieldReader) throws(WireError) -> LobbyRequest {
        func name(_ key: String) throws(WireError) -> String {
            guard let name = try fields.string(key) else { throw fields.missing(key, "a player's name") }
            if let requirement = nameRequirement(name, maxLength: maxNameLength) { throw fields.bad(key, requirement) }
            return name
        }
        switch type {
        case .challenge: return .challenge(name: try name("name"), variant: try fields.choice("variant", Variant.self))
        case .accept: return .accept(from: try name("from"))
        case .decline: return .decline(from: try name("from"))
        default: return .enter(try join(fields))
        }
    }
}

extension ClientMessageEncoder {
    static func encode(_ request: LobbyRequest) -> [String: JSONValue] {
        var members: [String: JSONValue]
        switch request {
        case .enter(let join):
            members = ["name": .string(join.name)]
            if let variant = join.variant { members["variant"] = .string(variant.rawValue) }
            if let account = join.account { members["account"] = .string(account) }
        case .challenge(let name, let variant):
            members = ["name": .string(name)]
            if let variant { members["variant"] = .string(variant.rawValue) }
        case .accept(let from), .decline(let from): members = ["from": .string(from)]
        }
        members["type"] = .string(request.type.rawValue)
        return members
    }
}

extension ServerMessageCoding {
    static func encode(_ entries: [LobbyEntry], id: JSONValue?) -> JSONValue {
        with(id, ["type": .string(ServerMessageType.lobby.rawValue), "players": .array(entries.map { entry in
            var members: [String: JSONValue] = ["name": .string(entry.name), "variant": .string(entry.variant.rawValue)]
            if let rating = entry.rating {
                members["rating"] = .int(Int64(rating))
                members["provisional"] = .bool(entry.provisional)
            }
            return .object(members)
        })])
    }

    static func encode(_ notice: ChallengeNotice, id: JSONValue?) -> JSONValue {
        var members: [String: JSONValue] = ["type": .string(ServerMessageType.challenge.rawValue), "from": .string(notice.from),
                                            "to": .string(notice.to), "variant": .string(notice.variant.rawValue),
                                            "state": .string(notice.state.rawValue)]
        if let expiresAt = notice.expiresAt { members["expiresAt"] = .int(expiresAt) }
        if let rating = notice.rating { members["rating"] = .int(Int64(rating)) }
        if let match = notice.match { members["match"] = .string(match) }
        if let token = notice.token { members["token"] = .string(token) }
        return with(id, members)
    }

    static func lobby(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        guard let items = f.value("players")?.arrayValue else { throw f.missing("players", "an array of players") }
        var entries: [LobbyEntry] = []
        for item in items {
            guard let members = item.objectValue else { throw f.bad("players", "an array of objects") }
            let g = FieldReader(members)
            entries.append(LobbyEntry(
                name: try g.required("name", "a name") { k throws(WireError) in try g.string(k) },
                variant: try g.choice("variant", Variant.self) ?? .classic,
                rating: try g.int("rating", in: 0...10_000, "a rating").map { Int($0) },
                provisional: g.value("provisional")?.boolValue ?? false))
        }
        return .lobby(entries, id: id)
    }

    static func challenge(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        func text(_ key: String) throws(WireError) -> String { try f.required(key, "a string") { k throws(WireError) in try f.string(k) } }
        return .challenge(ChallengeNotice(
            from: try text("from"), to: try text("to"), variant: try f.choice("variant", Variant.self) ?? .classic,
            state: try f.required("state", "a challenge state") { k throws(WireError) in try f.choice(k, ChallengeState.self) },
            expiresAt: try f.int("expiresAt", in: 0...(1 << 53), "a server time"),
            rating: try f.int("rating", in: 0...10_000, "a rating").map { Int($0) },
            match: try f.string("match"), token: try f.string("token")), id: id)
    }
}
