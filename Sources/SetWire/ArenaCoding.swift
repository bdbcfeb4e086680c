import SetRules

// Arena messages to and from JSON (the contract in Protocol.md, "Arenas").

extension ClientMessageDecoder {
    /// An arena's name is shorter than a match's: its duels are `arena-NAME-N`.
    package static let maxArenaNameLength = 20

    /// 1–20 of `A–Z a–z 0–9 - _`.
    package static func isAcceptable(arenaName: String) -> Bool {
        isAcceptable(matchName: arenaName) && arenaName.utf8.count <= maxArenaNameLength && !arenaName.contains(".")
    }

    /// An arena request of `type`.
    static func arena(_ type: RequestType, _ fields: FieldReader) throws(WireError) -> ArenaRequest {
        func arenaName() throws(WireError) -> String {
            guard let name = try fields.string("arena") else { throw fields.missing("arena", "an arena's name") }
            guard isAcceptable(arenaName: name) else { throw fields.bad("arena", "1-\(maxArenaNameLength) letters, digits, '-' or '_'") }
            return name
        }
        func flag(_ key: String) throws(WireError) -> Bool? {
            guard let value = fields.value(key) else { return nil }
            guard case .bool(let flag) = value else { throw fields.bad(key, "true or false") }
            return flag
        }
        switch type {
        case .arenaCreate:
            guard let minutes = try fields.int("minutes", in: 1...180, "a number of minutes from 1 to 180") else {
                throw fields.missing("minutes", "a number of minutes from 1 to 180")
            }
            let variant = try fields.choice("variant", Variant.self) ?? .classic
            return .create(ArenaCreate(arena: try arenaName(), minutes: Int(minutes), variant: variant, rated: try flag("rated") ?? true,
                                       startsInS: Int(try fields.int("startsInS", in: 0...3_600, "seconds from 0 to 3600") ?? 0),
                                       account: try accountKey(fields)))
        case .arenaJoin:
            let arena = try arenaName()
            guard let name = try fields.string("name") else { throw fields.missing("name", "your name, 1-\(maxNameLength) characters") }
            guard isAcceptable(name: name, maxLength: maxNameLength), PlayerName.isVisible(name) else {
                throw fields.bad("name", "1-\(maxNameLength) printable characters")
            }
            let ticket = try fields.string("ticket")
            if let ticket, !Redirect.isTicket(ticket) { throw fields.bad("ticket", "a handoff ticket, 43 base64url characters") }
            return .join(arena: arena, name: name, account: try accountKey(fields), bot: try flag("bot") ?? false,
                         watch: try flag("watch") ?? false, ticket: ticket)
        case .arenaPause: return .pause
        case .arenaResume: return .resume
        case .arenaLeave: return .leave
        case .arenaResults: return .results(arena: try arenaName())
        default: return .list
        }
    }
}

extension ClientMessageEncoder {
    static func encode(_ request: ArenaRequest) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        switch request {
        case .list, .pause, .resume, .leave: break
        case .create(let create):
            members = ["arena": .string(create.arena), "minutes": .int(Int64(create.minutes)), "variant": .string(create.variant.rawValue),
                       "rated": .bool(create.rated), "startsInS": .int(Int64(create.startsInS))]
            if let account = create.account { members["account"] = .string(account) }
        case .join(let arena, let name, let account, let bot, let watch, let ticket):
            members = ["arena": .string(arena), "name": .string(name)]
            if let account { members["account"] = .string(account) }
            if bot { members["bot"] = .bool(true) }
            if watch { members["watch"] = .bool(true) }
            if let ticket { members["ticket"] = .string(ticket) }
        case .results(let arena): members = ["arena": .string(arena)]
        }
        members["type"] = .string(request.type.rawValue)
        return members
    }
}

extension ServerMessageCoding {
    static func encode(_ listings: [ArenaSummary], id: JSONValue?) -> JSONValue {
        with(id, ["type": .string(ServerMessageType.arenas.rawValue), "arenas": .array(listings.map { listing in
            var members: [String: JSONValue] = [
                "arena": .string(listing.arena), "variant": .string(listing.variant.rawValue), "rated": .bool(listing.rated),
                "state": .string(listing.phase.rawValue), "startsAt": .int(listing.startsAt), "endsAt": .int(listing.endsAt),
                "players": .int(Int64(listing.players))]
            if let leader = listing.leader { members["leader"] = .string(leader) }
            return .object(members)
        })])
    }

    static func encode(_ state: ArenaState, id: JSONValue?) -> JSONValue {
        with(id, ["type": .string(ServerMessageType.arena.rawValue), "arena": .string(state.arena), "variant": .string(state.variant.rawValue),
                  "rated": .bool(state.rated), "state": .string(state.phase.rawValue), "startsAt": .int(state.startsAt),
                  "endsAt": .int(state.endsAt), "standings": .array(state.standings.map(encode)),
                  "boards": .array(state.boards.map { board in
                      .object(["match": .string(board.match), "players": .array(board.players.map { .string($0) }),
                               "scores": .array(board.scores.map { .int(Int64($0)) })])
                  })])
    }

    static func encode(_ pairing: ArenaPairing, id: JSONValue?) -> JSONValue {
        with(id, ["type": .string(ServerMessageType.arenaPairing.rawValue), "arena": .string(pairing.arena), "match": .string(pairing.match),
                  "token": .string(pairing.token), "opponent": .string(pairing.opponent)])
    }

    static func encode(_ results: ArenaResults, id: JSONValue?) -> JSONValue {
        with(id, ["type": .string(ServerMessageType.arenaResults.rawValue), "arena": .string(results.arena),
                  "variant": .string(results.variant.rawValue), "rated": .bool(results.rated), "state": .string(results.phase.rawValue),
                  "endsAt": .int(results.endsAt), "standings": .array(results.standings.map(encode)),
                  "winners": .array(results.winners.map { .string($0) })])
    }

    static func encode(_ entry: ArenaEntry) -> JSONValue {
        var members: [String: JSONValue] = [
            "rank": .int(Int64(entry.rank)), "name": .string(entry.name), "score": .int(Int64(entry.score)), "games": .int(Int64(entry.games)),
            "wins": .int(Int64(entry.wins)), "streak": .int(Int64(entry.streak)), "fire": .bool(entry.fire), "bot": .bool(entry.bot),
            "paused": .bool(entry.paused)]
        if let rating = entry.rating {
            members["rating"] = .int(Int64(rating))
            members["provisional"] = .bool(entry.provisional)
        }
        if let playing = entry.playing { members["playing"] = .string(playing) }
        if let performance = entry.performance { members["performance"] = .int(Int64(performance)) }
        return .object(members)
    }

    static func arenas(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        var listings: [ArenaSummary] = []
        for g in try objects(f, "arenas") {
            listings.append(ArenaSummary(
                arena: try arenaText(g, "arena"), variant: try g.choice("variant", Variant.self) ?? .classic, rated: g.value("rated")?.boolValue ?? true,
                phase: try g.required("state", "an arena state") { k throws(WireError) in try g.choice(k, ArenaPhase.self) },
                startsAt: try g.serverTimeRequired("startsAt"), endsAt: try g.serverTimeRequired("endsAt"),
                players: try g.countRequired("players"), leader: try g.string("leader")))
        }
        return .arenas(listings, id: id)
    }

    static func arena(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        var boards: [ArenaBoard] = []
        for g in try objects(f, "boards") {
            let players = g.value("players")?.arrayValue?.compactMap(\.stringValue) ?? []
            let scores = g.value("scores")?.arrayValue?.compactMap(\.intValue).map { Int($0) } ?? []
            guard players.count == 2, scores.count == 2 else { throw g.bad("players", "two players and their two scores") }
            boards.append(ArenaBoard(match: try arenaText(g, "match"), players: players, scores: scores))
        }
        return .arena(ArenaState(
            arena: try arenaText(f, "arena"), variant: try f.choice("variant", Variant.self) ?? .classic, rated: f.value("rated")?.boolValue ?? true,
            phase: try f.required("state", "an arena state") { k throws(WireError) in try f.choice(k, ArenaPhase.self) },
            startsAt: try f.serverTimeRequired("startsAt"), endsAt: try f.serverTimeRequired("endsAt"),
            standings: try standings(f), boards: boards), id: id)
    }

    static func arenaPairing(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        .arenaPairing(ArenaPairing(arena: try arenaText(f, "arena"), match: try arenaText(f, "match"), token: try arenaText(f, "token"),
                                   opponent: try arenaText(f, "opponent")), id: id)
    }

    static func arenaResults(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        .arenaResults(ArenaResults(
            arena: try arenaText(f, "arena"), variant: try f.choice("variant", Variant.self) ?? .classic, rated: f.value("rated")?.boolValue ?? true,
            phase: try f.required("state", "an arena state") { k throws(WireError) in try f.choice(k, ArenaPhase.self) },
            endsAt: try f.serverTimeRequired("endsAt"), standings: try standings(f),
            winners: f.value("winners")?.arrayValue?.compactMap(\.stringValue) ?? []), id: id)
    }

    private static func standings(_ f: FieldReader) throws(WireError) -> [ArenaEntry] {
        var entries: [ArenaEntry] = []
        for g in try objects(f, "standings") {
            func count(_ key: String) throws(WireError) -> Int { Int(try g.int(key, in: 0...Int64(Int32.max), "a count") ?? 0) }
            entries.append(ArenaEntry(
                rank: try g.countRequired("rank"), name: try arenaText(g, "name"), score: try g.countRequired("score"),
                games: try count("games"), wins: try count("wins"), streak: try count("streak"), fire: g.value("fire")?.boolValue ?? false,
                rating: try g.int("rating", in: 0...10_000, "a rating").map { Int($0) }, provisional: g.value("provisional")?.boolValue ?? false,
                bot: g.value("bot")?.boolValue ?? false, paused: g.value("paused")?.boolValue ?? false, playing: try g.string("playing"),
                performance: try g.int("performance", in: 0...10_000, "a rating").map { Int($0) }))
        }
        return entries
    }

    /// The array of objects under `key` (absent: none), each as a reader.
    private static func objects(_ f: FieldReader, _ key: String) throws(WireError) -> [FieldReader] {
        guard let value = f.value(key) else { return [] }
        guard let items = value.arrayValue else { throw f.bad(key, "an array of objects") }
        var readers: [FieldReader] = []
        for item in items {
            guard let members = item.objectValue else { throw f.bad(key, "an array of objects") }
            readers.append(FieldReader(members))
        }
        return readers
    }

    private static func arenaText(_ f: FieldReader, _ key: String) throws(WireError) -> String {
        try f.required(key, "a string") { k throws(WireError) in try f.string(k) }
    }
}
