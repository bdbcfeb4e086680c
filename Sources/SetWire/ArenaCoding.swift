import SetRules

extension ClientMessageDecoder {
    /// An arena request of `type`.
    static func arena(_ type: RequestType, _ fields: FieldReader) throws(WireError) -> ArenaRequest {
        func arenaName() throws(WireError) -> String {
            guard let name = try fields.string("arena") else { throw fields.missing("arena", "the arena's name") }
            guard ArenaRequest.isAcceptable(arenaName: name) else {
                throw fields.bad("arena", "1-\(ArenaRequest.maxNameLength) letters, digits, '-' or '_'")
            }
            return name
        }
        func flag(_ key: String, _ absent: Bool) throws(WireError) -> Bool {
            guard let value = fields.value(key) else { return absent }
            guard case .bool(let flag) = value else { throw fields.bad(key, "true or false") }
            return flag
        }
        switch type {
        case .arenaCreate:
            let arena = try arenaName()
            guard let minutes = try fields.int("minutes", in: ArenaRequest.minutesRange, "a number of minutes, 1-180") else {
                throw fields.missing("minutes", "how long it runs, 1-180 minutes")
            }
            return .create(ArenaCreation(
                arena: arena, minutes: Int(minutes), variant: try fields.choice("variant", Variant.self) ?? .classic,
                rated: try flag("rated", true),
                startsInS: Int(try fields.int("startsInS", in: ArenaRequest.startsInRange, "seconds until it starts, 0-3600") ?? 0),
                account: try accountKey(fields)))
        case .arenaJoin:
            let arena = try arenaName()
            guard let name = try fields.string("name") else { throw fields.missing("name", "your name, 1-\(maxNameLength) characters") }
            if let requirement = nameRequirement(name, maxLength: maxNameLength) { throw fields.bad("name", requirement) }
            guard PlayerName.isVisible(name) else { throw fields.bad("name", "1-\(maxNameLength) printable characters that show") }
            let ticket = try fields.string("ticket")
            if let ticket, !Redirect.isTicket(ticket) { throw fields.bad("ticket", "a handoff ticket, 43 base64url characters") }
            return .join(ArenaJoinRequest(arena: arena, name: name, account: try accountKey(fields), bot: try flag("bot", false),
                                          watch: try flag("watch", false), ticket: ticket))
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
        case .create(let creation):
            members = ["arena": .string(creation.arena), "minutes": .int(Int64(creation.minutes)),
                       "variant": .string(creation.variant.rawValue), "rated": .bool(creation.rated),
                       "startsInS": .int(Int64(creation.startsInS))]
            if let account = creation.account { members["account"] = .string(account) }
        case .join(let join):
            members = ["arena": .string(join.arena), "name": .string(join.name)]
            if let account = join.account { members["account"] = .string(account) }
            if join.bot { members["bot"] = .bool(true) }
            if join.watch { members["watch"] = .bool(true) }
            if let ticket = join.ticket { members["ticket"] = .string(ticket) }
        case .results(let arena): members = ["arena": .string(arena)]
        }
        members["type"] = .string(request.type.rawValue)
        return members
    }
}

extension ServerMessageCoding {
    static func encode(_ entry: ArenaEntry) -> JSONValue {
        var members: [String: JSONValue] = [
            "rank": .int(Int64(entry.rank)), "name": .string(entry.name), "score": .int(Int64(entry.score)),
            "games": .int(Int64(entry.games)), "wins": .int(Int64(entry.wins)), "streak": .int(Int64(entry.streak)),
            "fire": .bool(entry.fire), "bot": .bool(entry.bot), "paused": .bool(entry.paused)]
        if let rating = entry.rating {
            members["rating"] = .int(Int64(rating))
            members["provisional"] = .bool(entry.provisional)
        }
        if let playing = entry.playing { members["playing"] = .string(playing) }
        if let performance = entry.performance { members["performance"] = .int(Int64(performance)) }
        return .object(members)
    }

    /// The header's fields, which each arena message carries at its top level.
    static func encode(_ header: ArenaHeader) -> [String: JSONValue] {
        ["arena": .string(header.arena), "variant": .string(header.variant.rawValue), "rated": .bool(header.rated),
         "state": .string(header.state.rawValue), "endsAt": .int(header.endsAt)]
    }

    static func encode(_ summaries: [ArenaSummary], id: JSONValue?) -> JSONValue {
        with(id, ["type": .string(ServerMessageType.arenas.rawValue), "arenas": .array(summaries.map { summary in
            var members = encode(summary.header)
            members["startsAt"] = .int(summary.startsAt)
            members["players"] = .int(Int64(summary.players))
            if let leader = summary.leader { members["leader"] = .string(leader) }
            return .object(members)
        })])
    }

    static func encode(_ view: ArenaView, id: JSONValue?) -> JSONValue {
        var members = encode(view.header)
        members["type"] = .string(ServerMessageType.arena.rawValue)
        members["startsAt"] = .int(view.startsAt)
        members["standings"] = .array(view.standings.map(encode))
        members["boards"] = .array(view.boards.map { board in
            .object(["match": .string(board.match), "players": .array(board.players.map(JSONValue.string)),
                     "scores": .array(board.scores.map { .int(Int64($0)) })])
        })
        return with(id, members)
    }

    static func encode(_ notice: ArenaPairingNotice) -> JSONValue {
        .object(["type": .string(ServerMessageType.arenaPairing.rawValue), "arena": .string(notice.arena), "match": .string(notice.match),
                 "token": .string(notice.token), "opponent": .string(notice.opponent)])
    }

    static func encode(_ results: ArenaResults, id: JSONValue?) -> JSONValue {
        var members = encode(results.header)
        members["type"] = .string(ServerMessageType.arenaResults.rawValue)
        members["standings"] = .array(results.standings.map(encode))
        members["winners"] = .array(results.winners.map(JSONValue.string))
        return with(id, members)
    }
}
