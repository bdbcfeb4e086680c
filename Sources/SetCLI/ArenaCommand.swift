import SetClient
import SetRules
import SetWire

/// `setgame arena`: list a server's arenas, open one, or print one's standings.
package struct ArenaCommand: Equatable, Sendable {
    /// What is asked of the server.
    package enum Action: Equatable, Sendable {
        case list
        case results(arena: String)
        case create(ArenaCreation)
    }

    package var host: String
    package var port: UInt16
    package var action: Action
    /// Print the server's answer as its JSON line, for programs.
    package var json = false

    package init(host: String, port: UInt16, action: Action, json: Bool = false) {
        self.host = host
        self.port = port
        self.action = action
        self.json = json
    }

    /// The request it sends.
    package var request: ArenaRequest {
        switch action {
        case .list: .list
        case .results(let arena): .results(arena: arena)
        case .create(let creation): .create(creation)
        }
    }
}

extension Commands {
    package static let arena = CommandSpec(
        "arena", "List a server's arenas (timed tournaments), join one by NAME, open one with --create, or print one's standings with --results.",
        positionals: [address, PositionalSpec("NAME", "the arena to join, or with --results the one whose standings to print")],
        options: [
            OptionSpec("name", "NAME", "joining: your name (default: your login name)"),
            OptionSpec("results", nil, "print NAME's standings: final once it is over, with the winners and each player's performance"),
            OptionSpec("create", "NAME", "open an arena: 1-20 letters, digits, '-' or '_'"),
            OptionSpec("minutes", "M", "with --create: how long it runs, 1-180"),
            modeOption("with --create: the variant (default classic)"),
            casualOption,
            OptionSpec("starts-in", "S", "with --create: seconds until it starts, 0-3600 (default 0)"),
            jsonOption,
        ] + display)

    /// `arena`: a request to the server (`ArenaCommand`), or a person joining NAME (`arenaJoin`).
    static func arenaCommand(_ parsed: ParsedArguments, defaults: CommandDefaults) throws(UsageError) -> Command {
        let values = OptionValues(parsed, command: arena.name)
        let server = try values.address()
        let named = parsed.positionals.dropFirst().first
        func checked(_ name: String) throws(UsageError) -> String {
            guard ArenaRequest.isAcceptable(arenaName: name) else {
                throw UsageError("'\(name)' is not an arena's name (1-\(ArenaRequest.maxNameLength) letters, digits, '-' or '_')", command: arena.name)
            }
            return name
        }
        let joining = named != nil && values.text("create") == nil && !values.flag("results")
        for option in ["name", "colorblind", "no-animation"] where !joining && (values.text(option) != nil || values.flag(option)) {
            throw UsageError("--\(option) goes with joining an arena by its NAME", command: arena.name)
        }
        let action: ArenaCommand.Action
        if let created = values.text("create") {
            guard named == nil, !values.flag("results") else { throw UsageError("--create takes the new arena's name alone", command: arena.name) }
            guard let minutes = try values.number("minutes", in: 1...180) else { throw UsageError("--create needs --minutes M", command: arena.name) }
            action = .create(ArenaCreation(arena: try checked(created), minutes: minutes, variant: try variant(values) ?? .classic,
                                           rated: !values.flag("casual"), startsInS: try values.number("starts-in", in: 0...3_600) ?? 0))
        } else {
            for option in ["minutes", "mode", "starts-in"] where values.text(option) != nil {
                throw UsageError("--\(option) goes with --create", command: arena.name)
            }
            if values.flag("casual") { throw UsageError("--casual goes with --create", command: arena.name) }
            if let named, !values.flag("results") {
                if values.flag("json") { throw UsageError("--json goes with --results, --create or a list", command: arena.name) }
                // A person joins as `join` does: their name, display options and kept account key.
                var options = ClientOptions(host: server.host, port: server.port, name: values.text("name") ?? defaults.loginName,
                                            colorblind: values.flag("colorblind"), animation: !values.flag("no-animation"))
                options.command = defaults.command
                return .arenaJoin(options, arena: try checked(named))
            }
            if let named {
                action = .results(arena: try checked(named))
            } else {
                if values.flag("results") { throw UsageError("--results needs the arena's NAME", command: arena.name) }
                action = .list
            }
        }
        return .arena(ArenaCommand(host: server.host, port: server.port, action: action, json: values.flag("json")))
    }
}
