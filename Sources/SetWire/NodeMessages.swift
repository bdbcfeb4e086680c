extension Redirect {
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
