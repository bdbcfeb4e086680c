import SetRules

/// Where a server listens.
public struct ServerAddress: Equatable, Sendable {
    public var host = "127.0.0.1"
    public var port: UInt16 = 7380

    public init(host: String = "127.0.0.1", port: UInt16 = 7380) {
        self.host = host
        self.port = port
    }
}

/// `setgame join` and `setgame watch`: where to connect and how to show it.
public struct JoinOptions: Equatable, Sendable {
    public var server = ServerAddress()
    public var name: String?
    public var match: String?
    public var solo = false
    public var spectator = false
    public var colorblind = false
    public var animation = true

    public init() {}
}

/// `setgame bot`.
public struct BotCommandOptions: Equatable, Sendable {
    public var server = ServerAddress()
    public var match: String?
    public var level = "normal"
    public var name: String?
    public var seed: UInt64?

    public init() {}
}

/// `setgame play`: a local server, a bot and the terminal client in one command.
public struct PlayOptions: Equatable, Sendable {
    public var level = PlayOptions.defaultLevel
    public var solo = false
    /// Start afresh even when an unfinished game is kept.
    public var fresh = false
    public var seed: UInt64?
    public var name: String?
    /// Join this server instead of starting one.
    public var against: ServerAddress?
    public var colorblind = false
    public var animation = true
    public var rules = RuleSettings.standard

    public init() {}

    /// The bot a newcomer meets: easy, which a first-time player beats about half the time
    /// (README, "Choosing the first bot").
    public static let defaultLevel = "easy"
}

extension Commands {
    static let levels = ["easy", "normal", "hard", "instant"]
    static let address = PositionalSpec("HOST[:PORT]", "the server (default 127.0.0.1:7380)")
    static let display = [
        OptionSpec("colorblind", nil, "also show each card's colour as a letter"),
        OptionSpec("no-animation", nil, "cards appear and leave without moving"),
    ]

    public static let play = CommandSpec(
        "play", "Play Set now: starts a local server and a bot opponent, and joins as a player.",
        options: [
            OptionSpec("level", "LEVEL", "the bot's level: easy (default), normal, hard or instant"),
            OptionSpec("solo", nil, "play alone instead of against a bot"),
            OptionSpec("new", nil, "start a new game even if an unfinished one is kept (it is resumed otherwise)"),
            OptionSpec("seed", "N", "deal from this seed (the same seed deals the same game)"),
            OptionSpec("name", "NAME", "your name (default: your login name)"),
            OptionSpec("against", "HOST[:PORT]", "join that server instead of starting one"),
        ] + display + ruleOptions)

    public static let join = CommandSpec(
        "join", "Join a match on a server as a player; run it again after a drop to take your seat back.",
        positionals: [address],
        options: [
            OptionSpec("name", "NAME", "your name (default: your login name)"),
            OptionSpec("match", "NAME", "the match to join or create (default: pair with whoever is waiting)"),
            OptionSpec("solo", nil, "a solo match"),
        ] + display)

    public static let watch = CommandSpec(
        "watch", "Watch a live match as a spectator; without a match name, pick one from a list.",
        positionals: [address, PositionalSpec("MATCH", "the match to watch")],
        options: display)

    public static let bot = CommandSpec(
        "bot", "Run a bot player that joins a server over the protocol, like any client.",
        positionals: [address],
        options: [
            OptionSpec("match", "NAME", "the match to join (default: pair with whoever is waiting)"),
            OptionSpec("level", "LEVEL", "easy, normal (default), hard or instant"),
            OptionSpec("name", "NAME", "its name (default: bot-LEVEL)"),
            OptionSpec("seed", "N", "seeds its decisions"),
        ])

    static func level(_ values: OptionValues, default fallback: String = "normal") throws(UsageError) -> String {
        guard let level = values.text("level") else { return fallback }
        guard levels.contains(level) else {
            throw UsageError("--level must be one of \(levels.joined(separator: ", ")), not '\(level)'", command: values.command)
        }
        return level
    }

    static func joinOptions(_ parsed: ParsedArguments, spectator: Bool) throws(UsageError) -> JoinOptions {
        let values = OptionValues(parsed, command: spectator ? watch.name : join.name)
        var options = JoinOptions()
        options.server = try values.address()
        options.spectator = spectator
        options.name = values.text("name")
        options.match = spectator ? parsed.positionals.dropFirst().first : values.text("match")
        options.solo = values.flag("solo")
        options.colorblind = values.flag("colorblind")
        options.animation = !values.flag("no-animation")
        return options
    }

    static func botOptions(_ parsed: ParsedArguments) throws(UsageError) -> BotCommandOptions {
        let values = OptionValues(parsed, command: bot.name)
        var options = BotCommandOptions()
        options.server = try values.address()
        options.match = values.text("match")
        options.level = try level(values)
        options.name = values.text("name")
        options.seed = try values.number("seed", in: UInt64.min...UInt64.max)
        return options
    }

    static func playOptions(_ parsed: ParsedArguments) throws(UsageError) -> PlayOptions {
        let values = OptionValues(parsed, command: play.name)
        var options = PlayOptions()
        options.level = try level(values, default: PlayOptions.defaultLevel)
        options.solo = values.flag("solo")
        options.fresh = values.flag("new")
        options.seed = try values.number("seed", in: UInt64.min...UInt64.max)
        options.name = values.text("name")
        if let against = values.text("against") {
            let addressValues = OptionValues(ParsedArguments(positionals: [against]), command: play.name)
            options.against = try addressValues.address()
        }
        options.colorblind = values.flag("colorblind")
        options.animation = !values.flag("no-animation")
        options.rules = try settings(from: parsed, command: play.name)
        if options.solo && options.against != nil {
            throw UsageError("--solo and --against do not go together: join a solo match with 'setgame join --solo'", command: play.name)
        }
        return options
    }
}
