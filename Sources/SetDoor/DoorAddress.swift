/// How a player reaches this door, as the ssh command a friend pastes: `ssh -p 2222 set@HOST`.
/// Built from what sshd says of the connection it accepted (`SSH_CONNECTION`'s server address
/// and port) and the login, unless the host names the door itself (`setgame door --address`):
/// behind a NAT or a DNS name the address sshd saw is not the one friends type. Pure.
package struct DoorAddress: Equatable, Sendable {
    /// The login: `set` for keys, `guest` without one (a friend of a guest may have no key either).
    package var user: String
    package var host: String
    package var port: Int

    package init(user: String, host: String, port: Int) {
        self.user = user
        self.host = host
        self.port = port
    }

    /// The ssh command that opens this door, without a door command after it: a plain `ssh`
    /// with no command asks sshd for a terminal itself.
    package var command: String { ssh(terminal: false) }

    /// The ssh command that opens this door with a terminal asked for (`ssh -t …`): a stock `ssh`
    /// given a command asks for none, and every door command but the standings needs one.
    package var terminalCommand: String { ssh(terminal: true) }

    /// The door's command for `words` (`join duel-1`, `watch friday`), as a friend pastes it: with
    /// `-t`, so that it works as printed.
    package func command(_ words: String) -> String { terminalCommand + " " + words }

    private func ssh(terminal: Bool) -> String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "ssh " + (terminal ? "-t " : "") + (port == 22 ? "" : "-p \(port) ") + "\(user)@\(host)"
    }

    /// Where this session came in: the `--address` given (`HOST`, `HOST:PORT` or `[V6]:PORT`;
    /// its port defaults to the one sshd saw), else `SSH_CONNECTION`'s third and fourth fields.
    /// Nil when neither says.
    package static func of(user: String, sshConnection: String?, configured: String?) -> DoorAddress? {
        let fields = (sshConnection ?? "").split(separator: " ").map(String.init)
        let seenPort = fields.count >= 4 ? Int(fields[3]) : nil
        if let configured, let (host, port) = split(configured) {
            return DoorAddress(user: user, host: host, port: port ?? seenPort ?? 22)
        }
        guard fields.count >= 4, let port = seenPort else { return nil }
        return DoorAddress(user: user, host: fields[2], port: port)
    }

    /// `HOST`, `HOST:PORT`, `[V6]` or `[V6]:PORT` into its parts; nil when it is none of them.
    package static func split(_ text: String) -> (host: String, port: Int?)? {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return host.isEmpty ? nil : (host, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65_535).contains(port) else { return nil }
            return (host, port)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        // A bare IPv6 address has colons of its own: it is all host.
        if parts.count > 2 { return (text, nil) }
        guard let host = parts.first, !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-.".contains($0) }) else { return nil }
        guard parts.count == 2 else { return (String(host), nil) }
        guard let port = Int(parts[1]), (1...65_535).contains(port) else { return nil }
        return (String(host), port)
    }
}
