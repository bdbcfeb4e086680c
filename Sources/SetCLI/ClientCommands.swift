import SetBot
import SetClient
import SetDoor
import SetLocal
import SetNet
import SetRules
import SetTerminal
import SetWire

extension Commands {
    static let address = PositionalSpec("HOST[:PORT]", "the server (default 127.0.0.1:7380)")
    static let display = [
        OptionSpec("colorblind", nil, "also show each card's colour as a letter"),
        OptionSpec("no-animation", nil, "cards appear and leave without moving"),
    ]

    package static let play = CommandSpec(
        "play", "Play Set now: starts a local server and a bot opponent, and joins as a player.",
        options: [
            OptionSpec("level", "LEVEL", "the bot's level: \(levels(default: PlayOptions.defaultLevel))"),
            OptionSpec("solo", nil, "play alone instead of against a bot"),
            modeOption("the variant to play"),
            OptionSpec("new", nil, "start a new game even if an unfinished one is kept (it is resumed otherwise)"),
            OptionSpec("seed", "N", "deal from this seed (the same seed deals the same game)"),
            OptionSpec("daily", nil, "today's deal (UTC), the same for everyone: solo, or against the bot --level names"),
            OptionSpec("name", "NAME", "your name (default: your login name)"),
            OptionSpec("against", "HOST[:PORT]", "join that server instead of starting one: a duel with whoever waits there"),
            casualOption,
        ] + display + ruleOptions)

    package static let join = CommandSpec(
        "join", "Join a match on a server as a player; run it again after a drop to take your seat back.",
        positionals: [address],
        options: [
            OptionSpec("name", "NAME", "your name (default: your login name)"),
            OptionSpec("match", "NAME", "the match to join or create (default: the lobby, to challenge or be paired)"),
            OptionSpec("solo", nil, "a solo match"),
            modeOption("the variant of a match you create (joining, its own)"),
            casualOption,
        ] + display)

    package static let watch = CommandSpec(
        "watch", "Watch a live match as a spectator; without a match name, pick one from a list.",
        positionals: [address, PositionalSpec("MATCH", "the match to watch")],
        options: [
            OptionSpec("name", "NAME", "your name in the spectators' chat (default: your login name)"),
            OptionSpec("arena", "NAME", "follow that arena's top board, then the next (a TV; no MATCH)"),
        ] + display)

    /// `watch`: a match (or the list to pick one from), or with `--arena` the arena's TV.
    static func watchCommand(_ parsed: ParsedArguments, defaults: CommandDefaults) throws(UsageError) -> Command {
        let options = try clientOptions(parsed, role: .spectator, defaults: defaults)
        guard let arena = parsed.values["arena"] else { return .join(options) }
        guard options.match == nil else { throw UsageError("--arena follows the arena's top board: name no MATCH with it", command: watch.name) }
        guard ArenaRequest.isAcceptable(arenaName: arena) else {
            throw UsageError("'\(arena)' is not an arena's name (1-\(ArenaRequest.maxNameLength) letters, digits, '-' or '_')", command: watch.name)
        }
        return .arenaWatch(options, arena: arena)
    }

    package static let bot = CommandSpec(
        "bot", "Run a bot player that joins a server over the protocol, like any client.",
        positionals: [address],
        options: [
            OptionSpec("match", "NAME", "the match to join (default: pair with whoever is waiting)"),
            OptionSpec("arena", "NAME", "join the arena NAME instead: play each duel it deals until its standings are final"),
            OptionSpec("count", "N", "with --arena: run N bots, named NAME-1 to NAME-N (default 1)"),
            OptionSpec("level", "LEVEL", levels(default: BotOptions().level)),
            OptionSpec("name", "NAME", "its name (default: bot-LEVEL)"),
            OptionSpec("seed", "N", "seeds its decisions"),
            modeOption("the variant, for a match it creates or is paired into"),
            casualOption,
        ])

    package static let door = CommandSpec(
        "door", "Be sshd's ForceCommand: one ssh player's menu or game, reached through serve --door-socket (README, \"Open an ssh door\").",
        options: [
            OptionSpec("socket", "PATH", "the server's door socket (default \(DoorOptions().socket))"),
            OptionSpec("state", "DIR", "where each key's seat tokens are kept (default: the user's state folder)"),
            OptionSpec("guest-user", "NAME", "the login that takes players without a key (default \(DoorOptions().guestUser))"),
            OptionSpec("address", "HOST[:PORT]", "how friends reach this door, for the commands it shows (default: the address and port sshd was reached on)"),
        ])

    static func doorOptions(_ parsed: ParsedArguments) throws(UsageError) -> DoorOptions {
        let values = OptionValues(parsed, command: door.name)
        var options = DoorOptions()
        options.socket = values.text("socket") ?? options.socket
        options.stateFolder = values.text("state")
        options.guestUser = values.text("guest-user") ?? options.guestUser
        if let address = values.text("address") {
            guard DoorAddress.split(address) != nil else {
                throw UsageError("--address is HOST or HOST:PORT, not '\(address)'", command: values.command)
            }
            options.address = address
        }
        return options
    }

    static let casualOption = OptionSpec("casual", nil, "unrated games: a duel between two accounts is rated otherwise")

    /// `--mode M`: which game of Set; `mode` on the wire means solo or duel, so there it is `variant`.
    static func modeOption(_ summary: String) -> OptionSpec {
        OptionSpec("mode", "MODE", "\(summary): \(Variant.allCases.map(\.rawValue).joined(separator: ", "))")
    }

    static func variant(_ values: OptionValues) throws(UsageError) -> Variant? {
        guard let text = values.text("mode") else { return nil }
        guard let variant = Variant(rawValue: text.lowercased()) else {
            let names = Variant.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--mode must be one of \(names), not '\(text)'", command: values.command)
        }
        return variant
    }

    /// Every level, in words: "easy (default), normal, hard or instant".
    static func levels(default chosen: BotLevel) -> String {
        inWords(BotLevel.allCases.map { $0 == chosen ? "\($0.rawValue) (default)" : $0.rawValue })
    }

    /// "a, b or c".
    static func inWords(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    static func level(_ values: OptionValues, default fallback: BotLevel = .normal) throws(UsageError) -> BotLevel {
        guard let text = values.text("level") else { return fallback }
        guard let level = BotLevel(rawValue: text) else {
            let names = BotLevel.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--level must be one of \(names), not '\(text)'", command: values.command)
        }
        return level
    }

    static func clientOptions(_ parsed: ParsedArguments, role: Role, defaults: CommandDefaults) throws(UsageError) -> ClientOptions {
        let spectator = role == .spectator
        let values = OptionValues(parsed, command: spectator ? watch.name : join.name)
        // Said before connecting, in the option's words, not the server's field's.
        if let name = values.text("name"), let requirement = ClientMessageDecoder.nameRequirement(name, maxLength: ClientMessageDecoder.maxNameLength) {
            throw UsageError("--name must be \(requirement)", command: values.command)
        }
        let server = try values.address()
        var options = ClientOptions(host: server.host, port: server.port, name: values.text("name") ?? defaults.loginName,
                                    match: spectator ? parsed.positionals.dropFirst().first : values.text("match"),
                                    mode: values.flag("solo") ? .solo : .duel, role: role,
                                    colorblind: values.flag("colorblind"), animation: !values.flag("no-animation"),
                                    variant: spectator ? nil : try variant(values))
        options.command = defaults.command
        options.casual = !spectator && values.flag("casual")
        if let match = options.match, !spectator {
            options.watchCommand = defaults.watchCommand(host: server.host, port: server.port, match: match)
        }
        return options
    }

    /// The most bots one `setgame bot --count` runs: a bench's arena, not a flood.
    package static let maxBotCount = 1_000

    /// `bot`: its options, and with `--arena` how many such bots (`--count`).
    static func botCommand(_ parsed: ParsedArguments, defaults: CommandDefaults) throws(UsageError) -> Command {
        let values = OptionValues(parsed, command: bot.name)
        var options = try botOptions(parsed, defaults: defaults)
        let count = try values.number("count", in: 1...maxBotCount)
        guard let arena = values.text("arena") else {
            if count != nil { throw UsageError("--count goes with --arena", command: bot.name) }
            return .bot(options)
        }
        guard ArenaRequest.isAcceptable(arenaName: arena) else {
            throw UsageError("'\(arena)' is not an arena's name (1-\(ArenaRequest.maxNameLength) letters, digits, '-' or '_')", command: bot.name)
        }
        // The arena says what is played, and its duels are its own: nothing to choose.
        for option in ["match", "mode"] where values.text(option) != nil {
            throw UsageError("--\(option) does not go with --arena: the arena deals the duels", command: bot.name)
        }
        if values.flag("casual") { throw UsageError("--casual does not go with --arena: the arena says whether it is rated", command: bot.name) }
        options.arena = arena
        // An arena refuses a taken name (no suggestion is taken there).
        options.takesSuggestedName = false
        return .bot(options, count: count ?? 1)
    }

    static func botOptions(_ parsed: ParsedArguments, defaults: CommandDefaults) throws(UsageError) -> BotOptions {
        let values = OptionValues(parsed, command: bot.name)
        let server = try values.address()
        var options = BotOptions()
        options.host = server.host
        options.port = server.port
        options.match = values.text("match")
        options.level = try level(values)
        options.name = values.text("name") ?? CommandDefaults.botName(options.level)
        // The level's name is the house bot's on every server: a name nobody asked for gives way.
        options.takesSuggestedName = values.text("name") == nil
        options.seed = try values.number("seed", in: UInt64.min...UInt64.max) ?? defaults.clockSeed
        options.variant = try variant(values)
        options.casual = values.flag("casual")
        return options
    }

    static func playOptions(_ parsed: ParsedArguments) throws(UsageError) -> PlayOptions {
        let values = OptionValues(parsed, command: play.name)
        var options = PlayOptions()
        options.level = try level(values, default: PlayOptions.defaultLevel)
        options.daily = values.flag("daily")
        // The daily deal is a race against the clock; naming a level races that bot instead.
        options.solo = values.flag("solo") || (options.daily && values.text("level") == nil)
        options.variant = try variant(values) ?? .classic
        options.fresh = values.flag("new")
        options.seed = try values.number("seed", in: UInt64.min...UInt64.max)
        options.name = values.text("name")
        if let against = values.text("against") {
            let addressValues = OptionValues(ParsedArguments(positionals: [against]), command: play.name)
            options.against = try addressValues.address()
        }
        options.casual = values.flag("casual")
        if options.casual && options.against == nil {
            throw UsageError("--casual is for games on a server (--against): a local game is never rated", command: play.name)
        }
        options.colorblind = values.flag("colorblind")
        options.animation = !values.flag("no-animation")
        options.rules = try settings(from: parsed, command: play.name)
        if options.daily && (options.seed != nil || options.against != nil) {
            throw UsageError("--daily deals today's seed on a local server: leave out --\(options.seed != nil ? "seed" : "against")", command: play.name)
        }
        if options.solo && options.against != nil {
            throw UsageError("--solo and --against do not go together: join a solo match with 'setgame join --solo'", command: play.name)
        }
        // --against joins whoever waits there, under that server's rules and deals: what only a
        // local game takes would be dropped without a word.
        if options.against != nil,
           let local = (["level", "seed", "new"] + ruleOptions.map(\.name)).first(where: { parsed.values[$0] != nil || parsed.flags.contains($0) }) {
            throw UsageError("--\(local) is for a local game: --against plays whoever waits on that server, under its rules"
                             + (local == "level" ? "; 'setgame bot HOST --match NAME --level LEVEL' sends a bot there" : ""), command: play.name)
        }
        return options
    }
}
