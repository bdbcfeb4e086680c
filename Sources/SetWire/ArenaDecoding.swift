import SetRules

/// Reading the arena's server messages, as a client (the terminal, the bot, the TV) does.
extension ServerMessageCoding {
    private static func text(_ f: FieldReader, _ key: String) throws(WireError) -> String {
        try f.required(key, "a string") { k throws(WireError) in try f.string(k) }
    }

    private static func flag(_ f: FieldReader, _ key: String) throws(WireError) -> Bool {
        guard let value = f.value(key) else { return false }
        guard case .bool(let flag) = value else { throw f.bad(key, "true or false") }
        return flag
    }

    private static func objects(_ f: FieldReader, _ key: String) throws(WireError) -> [FieldReader] {
        guard let items = f.value(key)?.arrayValue else { throw f.missing(key, "an array") }
        var readers: [FieldReader] = []
        for item in items {
            guard let members = item.objectValue else { throw f.bad(key, "an array of objects") }
            readers.append(FieldReader(members))
        }
        return readers
    }

    private static func state(_ f: FieldReader) throws(WireError) -> ArenaState {
        try f.required("state", "an arena state") { k throws(WireError) in try f.choice(k, ArenaState.self) }
    }

    /// The header's fields, at the top level of an arena message (`f`) or a listed arena's entry.
    private static func arenaHeader(_ f: FieldReader) throws(WireError) -> ArenaHeader {
        ArenaHeader(arena: try text(f, "arena"), variant: try f.choice("variant", Variant.self) ?? .classic, rated: try flag(f, "rated"),
                    state: try state(f), endsAt: try f.serverTimeRequired("endsAt"))
    }

    static func arenaEntry(_ g: FieldReader) throws(WireError) -> ArenaEntry {
        ArenaEntry(
            rank: try g.countRequired("rank"), name: try text(g, "name"), score: try g.countRequired("score"),
            games: try g.countRequired("games"), wins: try g.countRequired("wins"), streak: try g.countRequired("streak"),
            fire: try flag(g, "fire"), rating: try g.int("rating", in: 0...10_000, "a rating").map { Int($0) },
            provisional: try flag(g, "provisional"), bot: try flag(g, "bot"), paused: try flag(g, "paused"),
            playing: try g.string("playing"), performance: try g.int("performance", in: -10_000...20_000, "a performance").map { Int($0) })
    }

    static func arenas(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        var summaries: [ArenaSummary] = []
        for g in try objects(f, "arenas") {
            summaries.append(ArenaSummary(header: try arenaHeader(g), startsAt: try g.serverTimeRequired("startsAt"),
                                          players: try g.countRequired("players"), leader: try g.string("leader")))
        }
        return .arenas(summaries, id: id)
    }

    static func arena(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        var standings: [ArenaEntry] = []
        for g in try objects(f, "standings") { standings.append(try arenaEntry(g)) }
        var boards: [ArenaBoard] = []
        for g in try objects(f, "boards") {
            guard let players = g.value("players")?.arrayValue?.compactMap(\.stringValue), players.count == 2 else {
                throw g.bad("players", "the two players' names")
            }
            guard let scores = g.value("scores")?.arrayValue?.compactMap(\.intValue), scores.count == 2,
                  scores.allSatisfy(WireRange.count.contains) else { throw g.bad("scores", "the two players' arena scores") }
            boards.append(ArenaBoard(match: try text(g, "match"), players: players, scores: scores.map { Int($0) }))
        }
        return .arena(ArenaView(header: try arenaHeader(f), startsAt: try f.serverTimeRequired("startsAt"), standings: standings, boards: boards),
                      id: id)
    }

    static func arenaPairing(_ f: FieldReader) throws(WireError) -> ServerMessage {
        .arenaPairing(ArenaPairingNotice(arena: try text(f, "arena"), match: try text(f, "match"), token: try text(f, "token"),
                                         opponent: try text(f, "opponent")))
    }

    static func arenaResults(_ f: FieldReader, id: JSONValue?) throws(WireError) -> ServerMessage {
        var standings: [ArenaEntry] = []
        for g in try objects(f, "standings") { standings.append(try arenaEntry(g)) }
        guard let winners = f.value("winners")?.arrayValue?.compactMap(\.stringValue) else { throw f.missing("winners", "an array of names") }
        return .arenaResults(ArenaResults(header: try arenaHeader(f), standings: standings, winners: winners), id: id)
    }
}
