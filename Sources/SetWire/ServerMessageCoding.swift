import SetRules

/// Server messages to and from JSON. The server encodes; clients, bots and tests decode.
package enum ServerMessageCoding {
    package static func encode(_ message: ServerMessage) -> JSONValue {
        switch message {
        case .welcome(let server, let versions, let time, let limits):
            return ["type": .string(ServerMessageType.welcome.rawValue), "server": .string(server), "protocol": .int(ProtocolVersion.current),
                    "versions": .array(versions.map { .int($0) }), "time": .int(time), "limits": encode(limits)]
        case .joined(let role, let match, let mode, let seat, let token, let resumed, let id):
            var members: [String: JSONValue] = ["type": .string(ServerMessageType.joined.rawValue), "role": .string(role.rawValue), "match": .string(match),
                                                "mode": .string(mode.rawValue), "seat": .seat(seat), "resumed": .bool(resumed)]
            if let token { members["token"] = .string(token) }
            return with(id, members)
        case .snapshot(let view): return encode(view)
        case .event(let event): return EventCoding.encode(event)
        case .insight(let match, let seq, let sets):
            return ["type": .string(ServerMessageType.insight.rawValue), "match": .string(match), "seq": .int(seq), "setsOnTable": .int(sets)]
        case .matches(let listings, let next, let id):
            var members: [String: JSONValue] = ["type": .string(ServerMessageType.matches.rawValue), "matches": .array(listings.map(encode))]
            if let next { members["next"] = .string(next) }
            return with(id, members)
        case .ack(let id, let seq): return ["type": .string(ServerMessageType.ack.rawValue), "id": id, "seq": .int(seq)]
        case .pong(let time, let clientTime, let id):
            var members: [String: JSONValue] = ["type": .string(ServerMessageType.pong.rawValue), "time": .int(time)]
            if let clientTime { members["clientTime"] = .int(clientTime) }
            return with(id, members)
        case .error(let error, let id):
            var members = error.details
            members["type"] = .string(ServerMessageType.error.rawValue)
            members["code"] = .string(error.code.rawValue)
            members["message"] = .string(error.message)
            members["fatal"] = .bool(error.fatal)
            return with(id, members)
        case .goodbye(let reason): return ["type": .string(ServerMessageType.goodbye.rawValue), "reason": .string(reason)]
        case .ping(let time, let echo):
            var members: [String: JSONValue] = ["type": .string(ServerMessageType.ping.rawValue), "time": .int(time)]
            if echo { members["echo"] = .bool(true) }
            return .object(members)
        case .roundTrips(let match, let ms):
            return ["type": .string(ServerMessageType.roundTrips.rawValue), "match": .string(match), "rttMs": roundTrips(ms)]
        case .chat(let line):
            var members: [String: JSONValue] = [
                "type": .string(ServerMessageType.chat.rawValue), "match": .string(line.match), "room": .string(line.room.rawValue),
                "name": .string(line.name), "role": .string(line.role.rawValue), "text": .string(line.text), "time": .int(line.time)]
            if let seat = line.seat { members["seat"] = .seat(seat) }
            return .object(members)
        case .lobby(let entries, let id): return encode(entries, id: id)
        case .challenge(let notice, let id): return encode(notice, id: id)
        case .health(let report, let id): return encode(report, id: id)
        case .redirect(let redirect, let id):
            var members: [String: JSONValue] = ["type": .string(ServerMessageType.redirect.rawValue), "match": .string(redirect.match),
                                                "address": .string(redirect.address)]
            if let ticket = redirect.ticket { members["ticket"] = .string(ticket) }
            return with(id, members)
        case .arenas(let summaries, let id): return encode(summaries, id: id)
        case .arena(let view, let id): return encode(view, id: id)
        case .arenaPairing(let notice): return encode(notice)
        case .arenaResults(let results, let id): return encode(results, id: id)
        case .accountInfo(let info, let id):
            var members = info.fields
            members["type"] = .string(info.type.rawValue)
            return with(id, members)
        }
    }

    /// The message as one line, newline included: what goes on the socket. The frequent kinds are
    /// written directly; the rest through `JSONValue`.
    package static func line(_ message: ServerMessage) -> [UInt8] {
        switch message {
        case .event(let event): return EventLines.line(event)
        case .ack(let id, let seq): return EventLines.ack(id: id, seq: seq)
        case .insight(let match, let seq, let sets): return EventLines.insight(match: match, seq: seq, setsOnTable: sets)
        default: return genericLine(message)
        }
    }

    /// Any message through `JSONValue` and `JSONWriter`: the reference the direct lines must equal.
    package static func genericLine(_ message: ServerMessage) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        JSONWriter.write(encode(message), into: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    static func with(_ id: JSONValue?, _ members: [String: JSONValue]) -> JSONValue {
        var members = members
        if let id { members["id"] = id }
        return .object(members)
    }

    /// Rule settings as the snapshot's `rules` object; journals store them the same way.
    package static func encodeRules(_ settings: RuleSettings) -> JSONValue { .rules(settings) }

    package static func decodeRules(_ value: JSONValue) -> RuleSettings? {
        try? decodeRulesOrProblem(value).get()
    }

    /// The rules object, or why it is not one: a type mismatch or a setting out of its range.
    package static func decodeRulesOrProblem(_ value: JSONValue) -> Result<RuleSettings, WireError> {
        do throws(WireError) { return .success(try FieldReader(["rules": value]).rules("rules")) } catch { return .failure(error) }
    }

    static func encode(_ limits: ServerLimits) -> JSONValue {
        ["maxLineBytes": .int(limits.maxLineBytes), "messagesPerSecond": .int(limits.messagesPerSecond),
         "messageBurst": .int(limits.messageBurst), "maxConnections": .int(limits.maxConnections),
         "outboundQueueBytes": .int(limits.outboundQueueBytes), "idleTimeoutMs": .int(limits.idleTimeoutMs),
         "seatWaitMs": .int(limits.seatWaitMs)]
    }

    static func roundTrips(_ ms: [Int64?]) -> JSONValue { .array(ms.map { $0.map(JSONValue.int) ?? .null }) }

    static func roundTrips(_ f: FieldReader) throws(WireError) -> [Int64?] {
        guard let items = f.value("rttMs")?.arrayValue else { return [] }
        guard items.count <= Seat.allCases.count else { throw f.bad("rttMs", "one round trip per seat") }
        var ms: [Int64?] = []
        for item in items {
            if case .null = item { ms.append(nil); continue }
            guard let value = item.intValue, (0...3_600_000).contains(value) else { throw f.bad("rttMs", "milliseconds or null per seat") }
            ms.append(value)
        }
        return ms
    }

    static func encode(_ player: PlayerInfo) -> JSONValue {
        var members: [String: JSONValue] = ["seat": .seat(player.seat), "name": .string(player.name), "present": .bool(player.present),
                                            "score": .int(player.score)]
        // A guest's line is what it was before accounts: no rating at all.
        if let rating = player.rating {
            members["rating"] = .int(rating)
            members["provisional"] = .bool(player.provisional)
        }
        return .object(members)
    }

    /// One match of a `matches` line, read back (the nodes' shared summaries keep it this way too).
    package static func listing(_ members: [String: JSONValue]) throws(WireError) -> MatchListing {
        try listing(FieldReader(members))
    }

    static func listing(_ g: FieldReader) throws(WireError) -> MatchListing {
        MatchListing(
            name: try g.required("name", "a name") { k throws(WireError) in try g.string(k) },
            mode: try g.required("mode", "a mode") { k throws(WireError) in try g.choice(k, Mode.self) },
            phase: try g.required("state", "a state") { k throws(WireError) in try g.choice(k, MatchPhase.self) },
            players: try players(g), spectators: try g.countRequired("spectators"),
            variant: try g.choice("variant", Variant.self) ?? .classic, address: try g.string("address"))
    }

    /// One match of a `matches` line.
    package static func encode(_ listing: MatchListing) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(listing.name), "mode": .string(listing.mode.rawValue), "state": .string(listing.phase.rawValue),
            "players": .array(listing.players.map(encode)), "spectators": .int(listing.spectators)]
        // The classic game says nothing, so its lines are what they were before variants.
        if listing.variant != .classic { members["variant"] = .string(listing.variant.rawValue) }
        if let address = listing.address { members["address"] = .string(address) }
        return .object(members)
    }

    static func encode(_ view: MatchView) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": .string(ServerMessageType.snapshot.rawValue), "match": .string(view.match), "seq": .int(view.seq), "time": .int(view.time),
            "mode": .string(view.mode.rawValue), "state": .string(view.phase.rawValue), "game": .int(view.game),
            "players": .array(view.players.map(encode)), "spectators": .int(view.spectators),
            "table": .cards(view.table), "deck": .int(view.deck),
            "selection": view.selectionSeat.map { ["seat": .seat($0), "cards": .cards(view.selection)] } ?? .null,
            "window": .window(view.window),
            "shown": view.shown.map { ["cards": .cards($0.cards), "isSet": .bool($0.isSet)] } ?? .null,
            "tableChangedAt": .int(view.tableChangedAt), "rules": .rules(view.rules),
            "commitment": view.commitment.map(JSONValue.string) ?? .null,
            "result": .result(view.result), "seed": .seed(view.seed),
            "rematch": .array(view.rematchAsked.map { .seat($0) }),
        ]
        if let sets = view.setsOnTable { members["setsOnTable"] = .int(sets) }
        if !view.roundTripMs.isEmpty { members["rttMs"] = roundTrips(view.roundTripMs) }
        if view.variant != .classic { members["variant"] = .string(view.variant.rawValue) }
        if view.variant == .chain { members["chain"] = .cards(view.chain) }
        if let forfeitAt = view.forfeitAt { members["forfeitAt"] = .int(forfeitAt) }
        if !view.lastRatings.isEmpty { members["ratings"] = .array(view.lastRatings.map(\.json)) }
        return .object(members)
    }

    /// Decodes one line from a server.
    package static func decode(_ bytes: [UInt8]) -> Result<ServerMessage, WireError> {
        do {
            return decode(try JSONParser.parse(bytes))
        } catch {
            return .failure(WireError(.badJSON, "Not valid JSON: \(error.reason) at byte \(error.offset)."))
        }
    }

    package static func decode(_ document: JSONValue) -> Result<ServerMessage, WireError> {
        guard let members = document.objectValue else { return .failure(WireError(.notAnObject, "Not an object.")) }
        do throws(WireError) {
            return .success(try decode(FieldReader(members)))
        } catch {
            return .failure(error)
        }
    }

    static func decode(_ f: FieldReader) throws(WireError) -> ServerMessage {
        let name = try f.required("type", "a message type") { k throws(WireError) in try f.string(k) }
        guard let type = ServerMessageType(rawValue: name) else { throw WireError(.unknownType, "Unknown message type \"\(name)\".") }
        let id = f.value("id")
        func text(_ key: String) throws(WireError) -> String { try f.required(key, "a string") { k throws(WireError) in try f.string(k) } }
        switch type {
        case .welcome:
            guard let versions = f.value("versions")?.arrayValue?.compactMap(\.intValue) else { throw f.bad("versions", "an array") }
            return .welcome(server: try text("server"), versions: versions.map { Int($0) }, time: try f.serverTimeRequired("time"),
                            limits: try limits(try f.object("limits") ?? FieldReader([:])))
        case .joined:
            return .joined(role: try f.required("role", "a role") { k throws(WireError) in try f.choice(k, Role.self) },
                           match: try text("match"),
                           mode: try f.required("mode", "a mode") { k throws(WireError) in try f.choice(k, Mode.self) },
                           seat: try f.seat("seat"), token: try f.string("token"),
                           resumed: f.value("resumed")?.boolValue ?? false, id: id)
        case .snapshot: return .snapshot(try view(f))
        case .event: return .event(try EventCoding.decode(f))
        case .insight:
            return .insight(match: try text("match"), seq: try f.countRequired("seq"),
                            setsOnTable: try f.countRequired("setsOnTable", upTo: WireRange.setsOnTable.upperBound))
        case .matches:
            guard let items = f.value("matches")?.arrayValue else { throw f.bad("matches", "an array") }
            var listings: [MatchListing] = []
            for item in items {
                guard let members = item.objectValue else { throw f.bad("matches", "an array of objects") }
                listings.append(try listing(FieldReader(members)))
            }
            return .matches(listings, next: try f.string("next"), id: id)
        case .ack:
            guard let id else { throw f.missing("id", "the request's id") }
            return .ack(id: id, seq: try f.countRequired("seq"))
        case .pong:
            // `clientTime` is the client's own number echoed back: any integer, checked where it is used.
            return .pong(time: try f.serverTimeRequired("time"),
                         clientTime: try f.int("clientTime", in: Int64.min...Int64.max, "an integer"), id: id)
        case .error:
            let code = try f.required("code", "an error code") { k throws(WireError) in try f.choice(k, ErrorCode.self) }
            var details = f.members
            for key in ["type", "code", "message", "fatal", "id"] { details[key] = nil }
            return .error(WireError(code, try text("message"), fatal: f.value("fatal")?.boolValue ?? false, details: details), id: id)
        case .goodbye: return .goodbye(reason: try text("reason"))
        case .ping: return .ping(time: try f.serverTimeRequired("time"), echo: f.value("echo")?.boolValue ?? false)
        case .roundTrips: return .roundTrips(match: try text("match"), ms: try roundTrips(f))
        case .chat:
            let role = try f.required("role", "a role") { k throws(WireError) in try f.choice(k, Role.self) }
            let seat = try f.seat("seat")
            guard (seat == nil) == (role == .spectator) else { throw f.bad("seat", "a player's seat, and none for a spectator") }
            return .chat(ChatLine(match: try text("match"),
                                  room: try f.required("room", "a room") { k throws(WireError) in try f.choice(k, ChatRoom.self) },
                                  name: try text("name"), seat: seat, text: try text("text"), time: try f.serverTimeRequired("time")))
        case .profile: return .accountInfo(accountInfo(.profile, f), id: id)
        case .history: return .accountInfo(accountInfo(.history, f), id: id)
        case .crosstable: return .accountInfo(accountInfo(.crosstable, f), id: id)
        case .leaderboard: return .accountInfo(accountInfo(.leaderboard, f), id: id)
        case .lobby: return try lobby(f, id: id)
        case .challenge: return try challenge(f, id: id)
        case .health: return try health(f, id: id)
        case .redirect: return .redirect(Redirect(match: try text("match"), address: try text("address"), ticket: try f.string("ticket")), id: id)
        case .arenas: return try arenas(f, id: id)
        case .arena: return try arena(f, id: id)
        case .arenaPairing: return try arenaPairing(f)
        case .arenaResults: return try arenaResults(f, id: id)
        }
    }

    /// An account answer's fields, as the server wrote them, for the reader to take what it needs.
    static func accountInfo(_ type: AccountInfoType, _ f: FieldReader) -> AccountInfo {
        var fields = f.members
        fields["type"] = nil
        fields["id"] = nil
        return AccountInfo(type, fields)
    }

    static func limits(_ f: FieldReader) throws(WireError) -> ServerLimits {
        var limits = ServerLimits()
        func read(_ key: String) throws(WireError) -> Int64? { try f.int(key, in: 0...Int64.max, "a non-negative integer") }
        if let value = try read("maxLineBytes") { limits.maxLineBytes = Int(value) }
        if let value = try read("messagesPerSecond") { limits.messagesPerSecond = Int(value) }
        if let value = try read("messageBurst") { limits.messageBurst = Int(value) }
        if let value = try read("maxConnections") { limits.maxConnections = Int(value) }
        if let value = try read("outboundQueueBytes") { limits.outboundQueueBytes = Int(value) }
        if let value = try read("idleTimeoutMs") { limits.idleTimeoutMs = value }
        if let value = try read("seatWaitMs") { limits.seatWaitMs = value }
        return limits
    }

    static func players(_ f: FieldReader) throws(WireError) -> [PlayerInfo] {
        guard let items = f.value("players")?.arrayValue, items.count <= Seat.allCases.count else {
            throw f.bad("players", "an array of at most two players")
        }
        var players: [PlayerInfo] = []
        for item in items {
            guard let members = item.objectValue else { throw f.bad("players", "an array of objects") }
            let g = FieldReader(members)
            players.append(PlayerInfo(
                seat: try g.required("seat", "a seat") { k throws(WireError) in try g.seat(k) },
                name: try g.required("name", "a name") { k throws(WireError) in try g.string(k) },
                present: g.value("present")?.boolValue ?? false, score: try g.scoreRequired("score"),
                rating: try g.int("rating", in: 0...100_000, "a rating").map { Int($0) }, provisional: g.value("provisional")?.boolValue ?? false))
        }
        guard Swift.Set(players.map(\.seat)).count == players.count else { throw f.bad("players", "players in distinct seats") }
        return players
    }

    static func rematch(_ f: FieldReader) throws(WireError) -> [Seat] {
        let items = f.value("rematch")?.arrayValue ?? []
        var seats: [Seat] = []
        for item in items {
            guard let n = item.intValue, let seat = Seat(rawValue: Int(n)), !seats.contains(seat) else {
                throw f.bad("rematch", "an array of distinct seats")
            }
            seats.append(seat)
        }
        return seats
    }

    static func view(_ f: FieldReader) throws(WireError) -> MatchView {
        let selection = try f.object("selection")
        let shown = try f.object("shown")
        let (table, deck) = try f.tableAndDeck(table: "table", deck: "deck")
        var ratings: [RatingChange] = []
        if let items = f.value("ratings") {
            guard let list = items.arrayValue, list.count <= Seat.allCases.count else { throw f.bad("ratings", "an array of rating changes") }
            for item in list { ratings.append(try RatingChange.decode(item)) }
        }
        var view = MatchView(
            match: try f.required("match", "a name") { k throws(WireError) in try f.string(k) },
            seq: try f.countRequired("seq"), time: try f.serverTimeRequired("time"),
            mode: try f.required("mode", "a mode") { k throws(WireError) in try f.choice(k, Mode.self) },
            phase: try f.required("state", "a state") { k throws(WireError) in try f.choice(k, MatchPhase.self) },
            game: try f.countRequired("game"), players: try players(f), spectators: try f.countRequired("spectators"),
            table: table, deck: deck,
            selection: try selection.map { s throws(WireError) in try s.cards("cards") } ?? [],
            selectionSeat: try selection?.seat("seat"),
            window: try f.window("window"),
            shown: try shown.map { s throws(WireError) in
                Match.ShownTrio(cards: try s.cards("cards"), isSet: s.value("isSet")?.boolValue ?? false)
            },
            tableChangedAt: try f.serverTimeRequired("tableChangedAt"), rules: try f.rules("rules"),
            commitment: try f.string("commitment"), result: try f.result("result"), seed: try f.seedValue("seed"),
            rematchAsked: try rematch(f),
            setsOnTable: try f.int("setsOnTable", in: WireRange.setsOnTable, "a count").map { Int($0) },
            forfeitAt: try f.serverTime("forfeitAt"),
            variant: try f.choice("variant", Variant.self) ?? .classic,
            chain: f.value("chain") == nil ? [] : try f.cards("chain"))
        view.roundTripMs = try roundTrips(f)
        view.lastRatings = ratings
        return view
    }
}
