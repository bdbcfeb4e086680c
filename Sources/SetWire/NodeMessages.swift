/// A server's word that the match asked for lives on another node (Protocol.md, "Several servers
/// (nodes)"): the client connects to `address` and sends the same request again there.
package struct Redirect: Hashable, Sendable {
    package var match: String
    /// "HOST:PORT" of the node that holds the match.
    package var address: String
    /// Only to a door connection: the one-use handoff ticket the join on `address` carries in
    /// place of the door's identity.
    package var ticket: String?

    package init(match: String, address: String, ticket: String? = nil) {
        self.match = match
        self.address = address
        self.ticket = ticket
    }

    /// Whether `text` can be a ticket: 32 bytes in unpadded base64url.
    package static func isTicket(_ text: String) -> Bool {
        text.utf8.count == 43 && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
        }
    }

    /// The address as a place to connect to; nil when it is not "HOST:PORT" with a port 1-65535.
    package var place: ServerPlace? { ServerPlace(address: address) }
}

/// Where a client connects: a server's TCP address, or the door's Unix socket on its own host.
package enum ServerPlace: Hashable, Sendable {
    case tcp(host: String, port: UInt16)
    case door(UnixRoute)

    /// "HOST:PORT" (an IPv6 host in brackets); nil for anything else.
    package init?(address: String) {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]), port > 0 else { return nil }
        var host = String(address[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.utf8.count <= 253, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x2F }) else { return nil }
        self = .tcp(host: host, port: port)
    }

    /// For messages and logs: "host:port", or the door socket's path.
    package var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .door(let route): route.path
        }
    }
}

extension ServerMessageCoding {
    static func encode(_ redirect: Redirect) -> JSONValue {
        var members: [String: JSONValue] = ["type": .string(ServerMessageType.redirect.rawValue), "match": .string(redirect.match),
                                            "address": .string(redirect.address)]
        if let ticket = redirect.ticket { members["ticket"] = .string(ticket) }
        return .object(members)
    }

    static func redirect(_ f: FieldReader) throws(WireError) -> ServerMessage {
        func text(_ key: String) throws(WireError) -> String { try f.required(key, "a string") { k throws(WireError) in try f.string(k) } }
        let address = try text("address")
        guard ServerPlace(address: address) != nil else { throw f.bad("address", "HOST:PORT") }
        return .redirect(Redirect(match: try text("match"), address: address, ticket: try f.string("ticket")))
    }
}
