import SetRules

/// Turns a line from a client into a request, or a coded error saying exactly what is wrong.
package enum ClientMessageDecoder {
    package static let maxNameLength = 24
    package static let maxMatchNameLength = 32
    /// The most matches one `list` page holds, and how many it holds when the client does not say.
    package static let maxListLimit = 50
    package static let defaultListLimit = 20

    /// Decodes one line; `bytes` excludes the newline.
    package static func decode(_ bytes: [UInt8]) -> Result<ClientRequest, WireError> {
        // The frequent actions in their plain form are read directly; the rest, and every
        // error, by parsing, which gives the same request (`ActionLineTests`).
        if let action = ActionLine.decode(bytes) { return .success(action) }
        return decodeParsing(bytes)
    }

    /// Decodes one line by parsing it into a `JSONValue` first: the general way.
    static func decodeParsing(_ bytes: [UInt8]) -> Result<ClientRequest, WireError> {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            return .failure(WireError(.badJSON, "Not valid JSON: \(error.reason) at byte \(error.offset)."))
        }
        return decode(document)
    }

    /// Whether a line holds nothing but whitespace, as `Character.isWhitespace` has it: such lines
    /// are ignored, so a person typing in nc can press Enter freely. Only a line with no ASCII
    /// besides whitespace is looked at as text.
    package static func isBlank(_ line: [UInt8]) -> Bool {
        var ascii = true
        for byte in line {
            if byte >= 0x80 {
                ascii = false
            } else if byte != 0x20 && !(0x09...0x0D).contains(byte) {
                return false
            }
        }
        return ascii || String(decoding: line, as: UTF8.self).allSatisfy(\.isWhitespace)
    }

    package static func decode(_ document: JSONValue) -> Result<ClientRequest, WireError> {
        guard let members = document.objectValue else {
            return .failure(WireError(.notAnObject, "Each line must be one JSON object, not a \(document.typeName)."))
        }
        let fields = FieldReader(members)
        do throws(WireError) {
            let id = try requestID(fields)
            do throws(WireError) {
                return .success(ClientRequest(id: id, try message(fields)))
            } catch {
                var error = error
                if let id { error.details["id"] = id }
                return .failure(error)
            }
        } catch {
            return .failure(error)
        }
    }

    static func requestID(_ fields: FieldReader) throws(WireError) -> JSONValue? {
        guard let id = fields.value("id") else { return nil }
        switch id {
        case .string(let text) where text.utf8.count <= 64: return id
        case .int: return id
        default: throw fields.bad("id", "a string of at most 64 bytes or an integer")
        }
    }

    static func message(_ fields: FieldReader) throws(WireError) -> ClientMessage {
        guard let name = try fields.string("type") else {
            throw fields.missing("type", "one of \(RequestType.known)")
        }
        guard let type = RequestType(rawValue: name) else {
            throw WireError(.unknownType, "Unknown message type \"\(name)\"; known types: \(RequestType.known).",
                            details: ["field": "type"])
        }
        switch type {
        case .join: return .join(try join(fields))
        case .list:
            let after = try fields.string("after")
            if let after, after.utf8.count > 64 { throw fields.bad("after", "the `next` cursor of an earlier page") }
            let limit = try fields.int("limit", in: 1...Int64(maxListLimit), "a number of matches from 1 to \(maxListLimit)")
            return .list(after: after, limit: limit.map { Int($0) })
        case .snapshot: return .snapshot
        case .ping: return .ping(time: try fields.int("time", in: Int64.min...Int64.max, "an integer"))
        case .pong:
            guard let time = try fields.int("time", in: Int64.min...Int64.max, "the time of the server's ping") else {
                throw fields.missing("time", "the time of the server's ping")
            }
            return .pong(time: time)
        case .select:
            guard let card = try fields.card("card") else {
                throw fields.missing("card", "the card to touch, by id 0-80")
            }
            return .act(.select(card), seat: try fields.seat("seat"))
        case .claim:
            let seen = try fields.int("seen", in: 0...Int64(Int32.max), "the seq of the last event you had received").map { Int($0) }
            return .act(.claim, seat: try fields.seat("seat"), seen: seen)
        case .deal: return .act(.deal, seat: try fields.seat("seat"))
        case .hint: return .act(.hint, seat: try fields.seat("seat"))
        case .pass: return .act(.pass, seat: try fields.seat("seat"))
        case .resign: return .act(.resign, seat: try fields.seat("seat"))
        case .rematch: return .act(.rematch, seat: try fields.seat("seat"))
        case .chat:
            // Checked and made printable by the server (`ChatText.said`); here only its size is bounded.
            guard let text = try fields.string("text") else { throw fields.missing("text", "what to say, one line") }
            return .chat(room: try fields.choice("room", ChatRoom.self), text: text)
        case .door: return .door(try door(fields))
        case .profile: return .account(try accountQuery(.profile, fields))
        case .history: return .account(try accountQuery(.history, fields))
        case .crosstable: return .account(try accountQuery(.crosstable, fields))
        case .leaderboard: return .account(try accountQuery(.leaderboard, fields))
        case .lobby, .challenge, .accept, .decline: return .lobby(try lobby(type, fields))
        case .health: return .health
        case .arenas, .arenaCreate, .arenaJoin, .arenaPause, .arenaResume, .arenaLeave, .arenaResults: return .arena(try arena(type, fields))
        }
    }

    static func door(_ fields: FieldReader) throws(WireError) -> DoorAttestation {
        guard let address = try fields.string("address") else { throw fields.missing("address", "the player's IP address") }
        guard DoorAttestation.isAddress(address) else { throw fields.bad("address", "an IPv4 or IPv6 address") }
        let fingerprint = try fields.string("fingerprint")
        if let fingerprint, !DoorAttestation.isFingerprint(fingerprint) {
            throw fields.bad("fingerprint", "an ssh key fingerprint, SHA256: and 43 base64 characters")
        }
        var houseBot = false
        if let bot = fields.value("bot") {
            guard case .bool(let value) = bot else { throw fields.bad("bot", "true or false") }
            houseBot = value
        }
        let match = try fields.string("match")
        if let match, !isAcceptable(matchName: match) || !match.hasPrefix(DoorAttestation.botMatchPrefix) {
            throw fields.bad("match", "a door bot match's name, \(DoorAttestation.botMatchPrefix) and up to \(maxMatchNameLength - DoorAttestation.botMatchPrefix.count) letters, digits, '-', '_' or '.'")
        }
        return DoorAttestation(fingerprint: fingerprint, address: address, houseBot: houseBot, match: match)
    }

    static func join(_ fields: FieldReader) throws(WireError) -> JoinRequest {
        let version = try fields.int("protocol", in: 0...Int64(Int32.max), "a protocol version number")
        if let version, !ProtocolVersion.supported.contains(Int(version)) {
            throw WireError(.unsupportedVersion,
                            "Protocol \(version) is not supported; this server speaks \(ProtocolVersion.supported.map(String.init).joined(separator: ", ")).",
                            details: ["supported": .array(ProtocolVersion.supported.map { .int(Int64($0)) })])
        }
        guard let name = try fields.string("name") else { throw fields.missing("name", "your name, 1-\(maxNameLength) characters") }
        if let requirement = nameRequirement(name, maxLength: maxNameLength) { throw fields.bad("name", requirement) }
        guard PlayerName.isVisible(name) else {
            throw fields.bad("name", "a name that shows: at least one letter, digit or sign, no invisible characters (such as U+3164 HANGUL FILLER), "
                             + "and at most \(ServerText.maxMarks) accents or other combining marks on one character")
        }
        let match = try fields.string("match")
        if let match, !isAcceptable(matchName: match) {
            throw fields.bad("match", "1-\(maxMatchNameLength) letters, digits, '-', '_' or '.'")
        }
        var request = JoinRequest(
            role: try fields.choice("role", Role.self) ?? .player, name: name, match: match,
            mode: try fields.choice("mode", Mode.self) ?? .duel, seat: try fields.seat("seat"),
            token: try fields.string("token"),
            lastSeq: try fields.int("lastSeq", in: 0...Int64(Int32.max), "a non-negative integer").map { Int($0) },
            variant: try fields.choice("variant", Variant.self))
        request.protocolVersion = Int(version ?? Int64(ProtocolVersion.current))
        if let takeOver = fields.value("takeOver") {
            guard case .bool(let value) = takeOver else { throw fields.bad("takeOver", "true or false") }
            request.takeOver = value
        }
        request.account = try accountKey(fields)
        request.ticket = try fields.string("ticket")
        if let ticket = request.ticket, !Redirect.isTicket(ticket) { throw fields.bad("ticket", "a handoff ticket, 43 base64url characters") }
        if let bot = fields.value("bot") {
            guard case .bool(let value) = bot else { throw fields.bad("bot", "true or false") }
            request.bot = value
        }
        if let casual = fields.value("casual") {
            guard case .bool(let value) = casual else { throw fields.bad("casual", "true or false") }
            request.casual = value
        }
        return request
    }

    /// An account key: 64 lowercase hex digits (32 random bytes a client made).
    static func accountKey(_ fields: FieldReader) throws(WireError) -> String? {
        guard let account = try fields.string("account") else { return nil }
        guard account.utf8.count == 64, account.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw fields.bad("account", "an account key, 64 lowercase hex digits")
        }
        return account
    }

    /// Printable: no control, format or separator characters (which could break a screen or a
    /// log line), no unassigned code points, and no spaces at either end.
    /// What a name must be, said for the one `name` fails, for a `bad_field` ("\"name\" must be
    /// …"); nil when it is acceptable. A name of the right length refused for a character that
    /// must not be in it says so: "1-24 printable characters" read as if its length were wrong.
    package static func nameRequirement(_ name: String, maxLength: Int) -> String? {
        guard !isAcceptable(name: name, maxLength: maxLength) else { return nil }
        guard !name.isEmpty, name.count <= maxLength, name.utf8.count <= 4 * maxLength else { return "1-\(maxLength) printable characters" }
        if name.first == " " || name.last == " " { return "a name with no space at either end" }
        return "printable characters only, with no control, format or unassigned character (such as a zero-width space)"
    }

    package static func isAcceptable(name: String, maxLength: Int) -> Bool {
        // Characters and bytes are both capped: one character can carry many combining marks.
        guard !name.isEmpty, name.utf8.count <= 4 * maxLength, name.first != " ", name.last != " " else { return false }
        // Printable ASCII (space to tilde) is all acceptable and one character a byte: most names
        // are checked without looking up a Unicode property.
        if name.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) { return name.utf8.count <= maxLength }
        return name.count <= maxLength
            && name.unicodeScalars.allSatisfy { !refusedCategories.contains($0.properties.generalCategory) && ($0 == " " || !$0.properties.isWhitespace) }
    }

    /// What a name may not hold: characters that could break a screen or a log line, or that mean nothing yet.
    private static let refusedCategories: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator,
                                                                          .unassigned, .surrogate, .privateUse]

    /// 1–32 of `A–Z a–z 0–9 - _ .`: safe in a file name and on a screen.
    package static func isAcceptable(matchName: String) -> Bool {
        !matchName.isEmpty && matchName.utf8.count <= maxMatchNameLength
            && matchName.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
    }
}

/// Writes client messages; used by the terminal client, the bots and the tests.
package enum ClientMessageEncoder {
    package static func encode(_ request: ClientRequest) -> JSONValue {
        var members: [String: JSONValue] = [:]
        switch request.message {
        case .join(let join):
            members = ["type": .string(RequestType.join.rawValue), "protocol": .int(Int64(join.protocolVersion)), "role": .string(join.role.rawValue),
                       "name": .string(join.name), "mode": .string(join.mode.rawValue)]
            if let match = join.match { members["match"] = .string(match) }
            if let seat = join.seat { members["seat"] = .int(Int64(seat.rawValue)) }
            if let token = join.token { members["token"] = .string(token) }
            if let lastSeq = join.lastSeq { members["lastSeq"] = .int(Int64(lastSeq)) }
            if let variant = join.variant { members["variant"] = .string(variant.rawValue) }
            if join.takeOver { members["takeOver"] = .bool(true) }
            if let account = join.account { members["account"] = .string(account) }
            if join.casual { members["casual"] = .bool(true) }
            if join.bot { members["bot"] = .bool(true) }
            if let ticket = join.ticket { members["ticket"] = .string(ticket) }
        case .list(let after, let limit):
            members = ["type": .string(RequestType.list.rawValue)]
            if let after { members["after"] = .string(after) }
            if let limit { members["limit"] = .int(Int64(limit)) }
        case .snapshot: members = ["type": .string(RequestType.snapshot.rawValue)]
        case .ping(let time):
            members = ["type": .string(RequestType.ping.rawValue)]
            if let time { members["time"] = .int(time) }
        case .door(let door):
            members = ["type": .string(RequestType.door.rawValue), "address": .string(door.address)]
            if let fingerprint = door.fingerprint { members["fingerprint"] = .string(fingerprint) }
            if door.houseBot { members["bot"] = .bool(true) }
            if let match = door.match { members["match"] = .string(match) }
        case .pong(let time):
            members = ["type": .string(RequestType.pong.rawValue), "time": .int(time)]
        case .act(let action, let seat, let seen):
            members = ["type": .string(RequestType(action).rawValue)]
            if case .select(let card) = action { members["card"] = .int(Int64(card.id)) }
            if let seat { members["seat"] = .int(Int64(seat.rawValue)) }
            if let seen { members["seen"] = .int(Int64(seen)) }
        case .chat(let room, let text):
            members = ["type": .string(RequestType.chat.rawValue), "text": .string(text)]
            if let room { members["room"] = .string(room.rawValue) }
        case .account(let query): members = encode(query)
        case .lobby(let asked): members = encode(asked)
        case .health: members = ["type": .string(RequestType.health.rawValue)]
        case .arena(let asked): members = encode(asked)
        }
        if let id = request.id { members["id"] = id }
        return .object(members)
    }

    /// The request as one line, newline included.
    package static func line(_ request: ClientRequest) -> [UInt8] {
        var bytes = JSONWriter.bytes(encode(request))
        bytes.append(0x0A)
        return bytes
    }
}
