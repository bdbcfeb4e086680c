import SetNet

/// Typed reads of parsed option values, each failure a usage error naming the option.
struct OptionValues {
    let parsed: ParsedArguments
    let command: String

    init(_ parsed: ParsedArguments, command: String) {
        self.parsed = parsed
        self.command = command
    }

    func text(_ name: String) -> String? { parsed.values[name] }

    /// Every value of a repeatable option, in order.
    func texts(_ name: String) -> [String] { parsed.repeated[name] ?? [] }

    func flag(_ name: String) -> Bool { parsed.flags.contains(name) }

    /// A whole number within `range`.
    func number<T: FixedWidthInteger>(_ name: String, in range: ClosedRange<T>) throws(UsageError) -> T? {
        guard let text = parsed.values[name] else { return nil }
        guard let value = T(text), range.contains(value) else {
            throw UsageError("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'",
                             command: command)
        }
        return value
    }

    /// "HOST[:PORT]" from the first positional, with defaults for what is left out.
    func address() throws(UsageError) -> ServerAddress {
        let defaults = ServerAddress()
        guard let text = parsed.positionals.first else { return defaults }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !(parts.first ?? "").isEmpty || parts.count == 2 else {
            throw UsageError("'\(text)' is not HOST[:PORT]", command: command)
        }
        let host = parts[0].isEmpty ? defaults.host : String(parts[0])
        guard parts.count == 2 else { return ServerAddress(host: host, port: defaults.port) }
        guard let port = UInt16(parts[1]), port > 0 else {
            throw UsageError("'\(parts[1])' in '\(text)' is not a port number 1-65535", command: command)
        }
        return ServerAddress(host: host, port: port)
    }
}
