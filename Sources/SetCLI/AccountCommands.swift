import SetNet
import SetRules
import SetWire

/// `setgame profile`, `history` and `leaderboard`: one question to a server, its answer printed.
package struct AccountCommand: Equatable, Sendable {
    package var host: String
    package var port: UInt16
    package var query: AccountQuery
    /// Print the server's answer as its JSON line, for programs.
    package var json = false

    package init(host: String, port: UInt16, query: AccountQuery, json: Bool = false) {
        self.host = host
        self.port = port
        self.query = query
        self.json = json
    }

    /// `history` without a name asks about this client's own account on the server.
    package var asksOwnHistory: Bool {
        if case .history(nil, _, _, _) = query { return true }
        return false
    }
}

extension Commands {
    static let jsonOption = OptionSpec("json", nil, "print the server's answer as one JSON object, for programs")

    package static let profile = CommandSpec(
        "profile", "Show a player's ratings per mode, games, wins, losses and set times on a server.",
        positionals: [address, PositionalSpec("NAME", "the player")],
        options: [jsonOption])

    package static let history = CommandSpec(
        "history", "List a player's finished games on a server, newest first (without NAME: your own).",
        positionals: [address, PositionalSpec("NAME", "the player (default: your own account on that server)")],
        options: [
            OptionSpec("limit", "N", "games per page, 1-50 (default 20)"),
            OptionSpec("after", "CURSOR", "the page after the one that printed this cursor"),
            jsonOption,
        ])

    package static let leaderboard = CommandSpec(
        "leaderboard", "List a server's best established players of one mode.",
        positionals: [address],
        options: [
            modeOption("whose ratings to list (default classic)"),
            OptionSpec("limit", "N", "players per page, 1-50 (default 20)"),
            OptionSpec("after", "CURSOR", "the page after the one that printed this cursor"),
            jsonOption,
        ])

    /// The account questions among the subcommands.
    enum Question { case profile, history, leaderboard }

    static func accountCommand(_ parsed: ParsedArguments, _ question: Question) throws(UsageError) -> AccountCommand {
        let spec = switch question {
        case .profile: profile
        case .history: history
        case .leaderboard: leaderboard
        }
        let values = OptionValues(parsed, command: spec.name)
        let server = try values.address()
        let name = parsed.positionals.dropFirst().first
        if let name, !ClientMessageDecoder.isAcceptable(name: name, maxLength: ClientMessageDecoder.maxNameLength) {
            throw UsageError("'\(name)' is not a player's name (1-\(ClientMessageDecoder.maxNameLength) printable characters)", command: spec.name)
        }
        let limit = try values.number("limit", in: 1...ClientMessageDecoder.maxPageLimit)
        let after = values.text("after")
        let query: AccountQuery
        switch question {
        case .profile:
            guard let name else { throw UsageError("profile needs the player's NAME", command: spec.name) }
            query = .profile(name: name)
        case .history: query = .history(name: name, after: after, limit: limit)
        case .leaderboard:
            query = .leaderboard(variant: try variant(values) ?? .classic, after: after, limit: limit)
        }
        return AccountCommand(host: server.host, port: server.port, query: query, json: values.flag("json"))
    }
}
