import SetBench
import SetBot
import SetClient
import SetDoor
import SetLocal
import SetNet
import SetReplay
import SetRules
import SetServer
import SetTerminal

/// What the user asked the executable to do, fully parsed and validated.
package enum Command: Equatable, Sendable {
    /// The top-level help.
    case overview
    /// One command's help.
    case help(CommandSpec)
    case version
    /// Print the rules with these settings, and the variant's own section.
    case rules(RuleSettings, variant: Variant = .classic)
    case serve(ServeCommand)
    case play(PlayOptions)
    /// `join`, or `watch` (as a spectator).
    case join(ClientOptions)
    /// `bot`: `count` bots like `BotOptions` (named NAME-1… when more than one).
    case bot(BotOptions, count: Int = 1)
    /// `door`: one ssh player's session, run by sshd.
    case door(DoorOptions)
    /// `profile`, `history` or `leaderboard`.
    case account(AccountCommand)
    /// `arena`: list, open, or print the standings of an arena.
    case arena(ArenaCommand)
    /// `arena HOST NAME`: a person joins the arena NAME and plays its duels.
    case arenaJoin(ClientOptions, arena: String)
    /// `watch HOST --arena NAME`: the arena's TV, its top board as a spectator.
    case arenaWatch(ClientOptions, arena: String)
    /// `nodes`: the nodes sharing a store, drained or forgotten by an operator.
    case nodes(NodesCommand)
    case replay(ReplayOptions)
    case bench(BenchOptions)
    case benchRules
    /// Print the gallery of all 81 cards.
    case cards(CardsOptions)
}

/// What `setgame serve` was asked for: the server's own configuration, and what the executable
/// does around it.
package struct ServeCommand: Equatable, Sendable {
    package var config: ServerConfig
    package var logFormat = ServerLog.Format.text
    /// Check the options and the data folder, say what would be served, and exit.
    package var check = false
    /// With `--check --address`: ask the server running there instead (`ServerProbe`).
    package var probe: ServerProbe?

    package init(config: ServerConfig, logFormat: ServerLog.Format = .text, check: Bool = false) {
        self.config = config
        self.logFormat = logFormat
        self.check = check
    }
}

/// The command tree, declared as data, and the pure function from arguments to a `Command`.
package enum Commands {
    package static let version = "0.1.0"

    /// Options that set the rules, one per `RuleSettings.Key`.
    package static let ruleOptions: [OptionSpec] = RuleSettings.Key.allCases.map { key in
        let placeholder = switch key.value(in: .standard) {
        case .milliseconds: "MS"
        case .points: "POINTS"
        case .flag: "on|off"
        }
        return OptionSpec(key.flag, placeholder, key.summary)
    }

    package static let rules = CommandSpec(
        "rules", "Print the rules of Set and of a duel, with the timings and points in force.",
        options: ruleOptions + [modeOption("the variant whose rules to add")])

    package static let serve = CommandSpec(
        "serve", "Host matches: players and spectators connect over TCP and speak newline-delimited JSON (Protocol.md).",
        options: [
            OptionSpec("host", "ADDRESS", "IPv4 address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)"),
            OptionSpec("port", "PORT", "TCP port (default 7380; 0 picks a free one and prints it)"),
            OptionSpec("data", "DIR", "where match journals are kept"),
            OptionSpec("store", "URL", "the accounts database: a SQLite file, or postgresql://USER@HOST:PORT/DB to share one (default: DIR/accounts/accounts.sqlite3, or memory)"),
            OptionSpec("empty-store", nil, "start with an empty accounts store although DIR holds journals and its accounts.sqlite3 is missing"),
            OptionSpec("node", "NAME", "be one of several servers sharing the PostgreSQL --store (Protocol.md, \"Several servers (nodes)\")"),
            OptionSpec("advertise", "HOST:PORT", "where clients reach this node; other nodes send them here (needs --node)"),
            OptionSpec("seed", "N", "deal game n from seed N+n-1 instead of at random (for demos and tests)"),
            OptionSpec("seat-wait-ms", "MS", "how long in all, per game, a seat may be away before it forfeits (default 120000)"),
            OptionSpec("lag-compensation-ms", "MS", "most a duel claim is credited for its sender's round trip; 0 off (default 200)"),
            OptionSpec("max-connections", "N", "connections beyond this are refused (default 8192; fitted to the file descriptor limit)"),
            OptionSpec("max-matches", "N", "matches beyond this are refused (default 4096)"),
            OptionSpec("messages-per-second", "N", "each connection's rate limit; bursts of twice as many (default 50)"),
            OptionSpec("connections-per-address", "N", "connections one IP address may hold (default max-connections/16, at least 4)"),
            OptionSpec("matches-per-address", "N", "live matches one IP address may have created (default max-matches/16, at least 4)"),
            OptionSpec("waiting-per-address", "N", "of those, duels waiting for a second player (default 8)"),
            OptionSpec("unattended-per-address", "N", "of those, matches whose players all left, waiting out their seat wait (default 16)"),
            OptionSpec("connect-rate-per-address", "N", "new connections one IP address may open a second, bursts of twice as many (default 20)"),
            OptionSpec("placements-per-address", "N", "new named matches a node places in the store for one IP address before a player starts them (default 8)"),
            OptionSpec("arena-players-per-address", "N", "players one IP address may have in one arena at once (default 8)"),
            OptionSpec("accounts-per-address", "N", "new accounts one IP address may make at once, then one a minute (default 20)"),
            OptionSpec("accounts-per-network", "N", "new accounts one /24 (IPv4) or /48 (IPv6) may make at once, then one every 30 s (default 40)"),
            OptionSpec("renames-per-address", "N", "renames one IP address may make at once, then one a minute (default 20)"),
            OptionSpec("proxy-from", "ADDR[,ADDR]", "proxies (haproxy send-proxy-v2) whose connections begin with a PROXY v2 header: their players count by the address it carries"),
            OptionSpec("lobby-size", "N", "players the lobby lists at once (default 200)"),
            OptionSpec("lobby-per-address", "N", "of those, from one IP address (default 20)"),
            OptionSpec("keep-finished", "N", "finished journals kept in DIR/finished, newest first (default 10000)"),
            OptionSpec("keep-finished-days", "D", "finished journals older than this are deleted (default 30)"),
            OptionSpec("door-socket", "PATH", "also listen on this Unix socket for the ssh door (setgame door; README, \"Open an ssh door\")"),
            OptionSpec("door-user", "NAME[,NAME]", "the users whose door may use --door-socket (default: the user serving)"),
            OptionSpec("log-format", ServerLog.Format.allCases.map(\.rawValue).joined(separator: "|"), "text lines, or one JSON object per line for log collectors (default text)"),
            OptionSpec("arena-schedule", "SPEC", "keep arenas on a schedule, SPEC PREFIX=EVERY:MINUTES:MODE (e.g. hourly=60:10:classic): one every EVERY minutes, MINUTES long, named PREFIX-YYMMDDHHMM after its start (UTC), listed a period (at most an hour) ahead; repeatable"),
            OptionSpec("chat", ChatMode.allCases.map(\.rawValue).joined(separator: "|"), "who may talk in a match: everyone, players only, or nobody (default on)"),
            OptionSpec("check", nil, "check the options and the data folder, print what would be served, and exit"),
            OptionSpec("address", "HOST:PORT", "with --check: ask the server running there whether it is ready (listening, its store reachable, a node's lease held); exit 0 if it is"),
            OptionSpec("alive", nil, "with --check --address: ask only whether the server answers, whatever its store says (a liveness probe)"),
        ] + ruleOptions)

    package static let replay = CommandSpec(
        "replay", "Print a match from its journal move by move, and check each revealed seed against its commitment.",
        positionals: [PositionalSpec("FILE", "a journal, e.g. ~/.local/state/setgame/matches/finished/NAME-....jsonl")],
        options: [OptionSpec("speed", "X", "replay in time: 1 is real time, 10 ten times as fast (default: at once)"),
                  OptionSpec("cast", "OUT", "write what a spectator saw (80×24, at the pace played) as an asciinema recording")])

    package static let bench = CommandSpec(
        "bench", "Measure a server under load: duels of instant bots plus spectators over loopback. 'setgame bench rules' times the rules alone.",
        positionals: [PositionalSpec("rules", "time the pure rules instead")],
        options: [
            OptionSpec("matches", "N", "concurrent duels (default 100)"),
            OptionSpec("spectators", "S", "spectators per match (default 2)"),
            OptionSpec("pace", "MS", "each bot acts about this often; 0 as fast as it can (default 500)"),
            OptionSpec("duration", "S", "seconds to measure (default 10)"),
            OptionSpec("json", nil, "one JSON object instead of a table"),
            OptionSpec("server", "HOST:PORT,...", "load these servers instead of starting one: duels go to each in turn, a redirect is followed"),
            modeOption("the variant every duel plays"),
            OptionSpec("abuse", AbuseKind.allCases.map(\.rawValue).joined(separator: "|"),
                       "measure one duel alone, then while this abuse runs against the same server"),
            OptionSpec("relay", nil, "then carry the same lines over a bare epoll relay in the same rooms: the server's deliveries as a share of it"),
            OptionSpec("fairness", nil, "claim races between a near and a far player, compensation on and off: win shares"),
            OptionSpec("races", "N", "with --fairness: races counted per setting (default 200)"),
            OptionSpec("delay-ms", "MS", "with --fairness: the far player's delay each way (default 80)"),
            OptionSpec("jitter-ms", "MS", "with --fairness: also race over a link this jittery, ± (default 20; 0 none)"),
            OptionSpec("lag-compensation-ms", "MS", "with --fairness: the server's cap when on (default 200)"),
            OptionSpec("feign-lag-ms", "MS", "with --fairness: also race a near player answering pings this late (default 0: none)"),
        ])

    /// Every subcommand, in the order the overview lists them.
    package static let all: [CommandSpec] = Subcommand.allCases.map(\.spec)

    /// Parses the arguments after the executable's name, filling in what they leave out from `defaults`.
    package static func parse(_ arguments: [String], defaults: CommandDefaults) throws(UsageError) -> Command {
        guard let first = arguments.first else { return .overview }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help": return .overview
        case "--version", "-V", "version": return .version
        case "help":
            guard let topic = rest.first else { return .overview }
            guard let subcommand = Subcommand(rawValue: topic) else {
                throw UsageError("no command named '\(topic)'")
            }
            return .help(subcommand.spec)
        default: break
        }
        guard let subcommand = Subcommand(rawValue: first) else {
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'") }
            throw UsageError("unknown command '\(first)'")
        }
        let spec = subcommand.spec
        let parsed = try ArgumentParser.parse(rest, as: spec)
        if parsed.wantsHelp { return .help(spec) }
        switch subcommand {
        case .serve: return .serve(try serveCommand(parsed, defaults: defaults))
        case .play: return .play(try playOptions(parsed))
        case .join: return .join(try clientOptions(parsed, role: .player, defaults: defaults))
        case .watch: return try watchCommand(parsed, defaults: defaults)
        case .bot: return try botCommand(parsed, defaults: defaults)
        case .door: return .door(try doorOptions(parsed))
        case .profile: return .account(try accountCommand(parsed, .profile))
        case .history: return .account(try accountCommand(parsed, .history))
        case .leaderboard: return .account(try accountCommand(parsed, .leaderboard))
        case .arena: return try arenaCommand(parsed, defaults: defaults)
        case .nodes: return .nodes(try nodesCommand(parsed))
        case .bench: return try benchCommand(parsed)
        case .cards: return .cards(try cardsOptions(parsed))
        case .replay:
            guard let file = parsed.positionals.first else { throw UsageError("replay needs a journal FILE", command: replay.name) }
            let speedText = parsed.values["speed"] ?? "0"
            guard let speed = Double(speedText), speed >= 0, speed.isFinite else {
                throw UsageError("--speed takes a number of times real time, not '\(speedText)'", command: replay.name)
            }
            return .replay(ReplayOptions(file: file, speed: speed, cast: parsed.values["cast"]))
        case .rules:
            return .rules(try settings(from: parsed, command: spec.name),
                          variant: try variant(OptionValues(parsed, command: spec.name)) ?? .classic)
        }
    }

    static func benchCommand(_ parsed: ParsedArguments) throws(UsageError) -> Command {
        if let word = parsed.positionals.first {
            guard word == "rules" else { throw UsageError("unexpected argument '\(word)'; did you mean 'bench rules'?", command: bench.name) }
            return .benchRules
        }
        let values = OptionValues(parsed, command: bench.name)
        var options = BenchOptions()
        options.matches = try values.number("matches", in: 1...100_000) ?? options.matches
        options.spectators = try values.number("spectators", in: 0...100) ?? options.spectators
        options.paceMs = try values.number("pace", in: 0...60_000) ?? options.paceMs
        if let text = values.text("duration") {
            guard let seconds = Double(text), seconds > 0, seconds <= 3_600 else {
                throw UsageError("--duration takes seconds from 0 to 3600, not '\(text)'", command: bench.name)
            }
            options.durationSeconds = seconds
        }
        options.json = values.flag("json")
        options.relay = values.flag("relay")
        options.variant = try variant(values) ?? .classic
        if let abuse = values.text("abuse") {
            guard let kind = AbuseKind(rawValue: abuse) else {
                throw UsageError("--abuse takes one of \(AbuseKind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(abuse)'",
                                 command: bench.name)
            }
            options.abuse = kind
        }
        if let servers = values.text("server") {
            options.servers = try servers.split(separator: ",", omittingEmptySubsequences: false).map { server throws(UsageError) in
                try OptionValues(ParsedArguments(positionals: [String(server)]), command: bench.name).address()
            }
        }
        if values.flag("fairness") {
            var fairness = FairnessOptions()
            fairness.races = try values.number("races", in: 1...100_000) ?? fairness.races
            fairness.delayMs = try values.number("delay-ms", in: 0...1_000) ?? fairness.delayMs
            fairness.jitterMs = try values.number("jitter-ms", in: 0...1_000) ?? fairness.jitterMs
            fairness.capMs = try values.number("lag-compensation-ms", in: 1...1_000) ?? fairness.capMs
            fairness.feignMs = try values.number("feign-lag-ms", in: 0...1_000) ?? fairness.feignMs
            options.fairness = fairness
        }
        return .bench(options)
    }

    static func serveCommand(_ parsed: ParsedArguments, defaults: CommandDefaults) throws(UsageError) -> ServeCommand {
        var config = ServerConfig()
        let values = OptionValues(parsed, command: serve.name)
        config.host = values.text("host") ?? config.host
        config.port = try values.number("port", in: UInt16.min...UInt16.max) ?? config.port
        config.dataDirectory = values.text("data") ?? defaults.dataDirectory
        if let argument = values.text("store") {
            guard let location = StoreLocation(argument: argument) else {
                throw UsageError("--store takes postgresql://USER@HOST:PORT/DB or a SQLite file's path, not '\(argument)'", command: serve.name)
            }
            config.store = location
        }
        config.accounts.allowsEmptyStore = values.flag("empty-store")
        config.cluster.node = values.text("node")
        config.cluster.advertise = values.text("advertise")
        if let problem = config.cluster.problem(store: config.store) { throw UsageError(problem, command: serve.name) }
        if let seed = try values.number("seed", in: UInt64.min...UInt64.max) { config.seeds = .counting(from: seed) }
        config.limits.seatWaitMs = try values.number("seat-wait-ms", in: 1...86_400_000) ?? config.limits.seatWaitMs
        config.lagCompensationMs = try values.number("lag-compensation-ms", in: 0...1_000) ?? ServerConfig.defaultLagCompensationMs
        config.limits.maxConnections = try values.number("max-connections", in: 1...1_000_000) ?? config.limits.maxConnections
        config.limits.messagesPerSecond = try values.number("messages-per-second", in: 1...10_000_000) ?? config.limits.messagesPerSecond
        config.limits.messageBurst = CommandDefaults.messageBurst(forRate: config.limits.messagesPerSecond)
        config.maxMatches = try values.number("max-matches", in: 1...1_000_000) ?? config.maxMatches
        config.perAddress.connections = try values.number("connections-per-address", in: 1...1_000_000)
        config.perAddress.matches = try values.number("matches-per-address", in: 1...1_000_000)
        config.perAddress.waitingMatches = try values.number("waiting-per-address", in: 1...1_000_000)
        config.perAddress.connectsPerSecond = try values.number("connect-rate-per-address", in: 1...1_000_000)
        config.perAddress.placements = try values.number("placements-per-address", in: 1...1_000_000)
        config.perAddress.arenaPlayers = try values.number("arena-players-per-address", in: 1...1_000_000)
        config.perAddress.unattended = try values.number("unattended-per-address", in: 1...1_000_000)
        config.recordLimits.accountsPerAddress.burst = try values.number("accounts-per-address", in: 1...1_000_000)
            ?? config.recordLimits.accountsPerAddress.burst
        config.recordLimits.accountsPerNetwork.burst = try values.number("accounts-per-network", in: 1...1_000_000)
            ?? config.recordLimits.accountsPerNetwork.burst
        config.recordLimits.renamesPerAddress.burst = try values.number("renames-per-address", in: 1...1_000_000)
            ?? config.recordLimits.renamesPerAddress.burst
        config.perAddress.proxies = try proxies(values.text("proxy-from"))
        config.perAddress.lobby.cap = try values.number("lobby-size", in: 1...1_000_000) ?? config.perAddress.lobby.cap
        config.perAddress.lobby.perAddress = try values.number("lobby-per-address", in: 1...1_000_000) ?? config.perAddress.lobby.perAddress
        config.finished.keep = try values.number("keep-finished", in: 0...10_000_000) ?? config.finished.keep
        config.finished.maxAgeDays = try values.number("keep-finished-days", in: 0...36_500) ?? config.finished.maxAgeDays
        config.door.socket = values.text("door-socket")
        if let users = values.text("door-user") {
            guard config.door.socket != nil else { throw UsageError("--door-user needs --door-socket", command: serve.name) }
            for name in users.split(separator: ",").map(String.init) {
                guard let uid = Sockets.uid(ofUser: name) else { throw UsageError("--door-user: no user named '\(name)'", command: serve.name) }
                config.door.uids.insert(uid)
            }
        }
        config.rules = try settings(from: parsed, command: serve.name)
        if let mode = values.text("chat") {
            guard let chosen = ChatMode(rawValue: mode) else {
                throw UsageError("--chat takes \(inWords(ChatMode.allCases.map(\.rawValue))), not '\(mode)'", command: serve.name)
            }
            config.chat.mode = chosen
        }
        for text in values.texts("arena-schedule") {
            switch ArenaSchedule.parse(text) {
            case .success(let schedule): config.arenaSchedules.append(schedule)
            case .failure(let problem): throw UsageError("--arena-schedule\(problem)", command: serve.name)
            }
        }
        var command = ServeCommand(config: config, check: values.flag("check"))
        command.probe = try probe(values)
        if let format = values.text("log-format") {
            guard let chosen = ServerLog.Format(rawValue: format) else {
                throw UsageError("--log-format takes \(inWords(ServerLog.Format.allCases.map(\.rawValue))), not '\(format)'",
                                 command: serve.name)
            }
            command.logFormat = chosen
        }
        return command
    }

    /// The proxies `--proxy-from` names: numeric IPv4 addresses, as the server sees its peers.
    static func proxies(_ text: String?) throws(UsageError) -> Set<String> {
        guard let text else { return [] }
        var proxies: Set<String> = []
        for address in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let octets = address.split(separator: ".", omittingEmptySubsequences: false)
                .compactMap { part in part.count <= 3 && part.utf8.allSatisfy { (48...57).contains($0) } ? UInt8(part) : nil }
            guard octets.count == 4, address.split(separator: ".", omittingEmptySubsequences: false).count == 4 else {
                throw UsageError("--proxy-from takes numeric IPv4 addresses separated by commas, not '\(address)'", command: serve.name)
            }
            proxies.insert(octets.map(String.init).joined(separator: "."))
        }
        return proxies
    }

    /// Rule settings from the rule options present, validated.
    static func settings(from parsed: ParsedArguments, command: String) throws(UsageError) -> RuleSettings {
        var settings = RuleSettings.standard
        for key in RuleSettings.Key.allCases {
            guard let text = parsed.values[key.flag] else { continue }
            if let problem = key.assign(text, to: &settings) { throw UsageError(problem, command: command) }
        }
        if let problem = settings.validationProblem() { throw UsageError(problem, command: command) }
        return settings
    }
}
