import SetRules

/// What the user asked the executable to do, fully parsed and validated.
public enum Command: Equatable, Sendable {
    /// The top-level help.
    case overview
    /// One command's help.
    case help(CommandSpec)
    case version
    /// Print the rules with these settings.
    case rules(RuleSettings)
}

/// The command tree, declared as data, and the pure function from arguments to a `Command`.
public enum Commands {
    public static let version = "0.1.0"

    /// Options that set the rules, one per `RuleSettings.Key`.
    public static let ruleOptions: [OptionSpec] = RuleSettings.Key.allCases.map { key in
        let placeholder = switch key.value(in: .standard) {
        case .milliseconds: "MS"
        case .points: "POINTS"
        case .flag: "on|off"
        }
        return OptionSpec(key.flag, placeholder, key.summary)
    }

    public static let rules = CommandSpec(
        "rules", "Print the rules of Set and of a duel, with the timings and points in force.",
        options: ruleOptions)

    /// Every subcommand, in the order the overview lists them.
    public static let all: [CommandSpec] = [rules]

    /// Parses the arguments after the executable's name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else { return .overview }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help": return .overview
        case "--version", "-V", "version": return .version
        case "help":
            guard let topic = rest.first else { return .overview }
            guard let spec = all.first(where: { $0.name == topic }) else {
                throw UsageError("no command named '\(topic)'")
            }
            return .help(spec)
        default: break
        }
        guard let spec = all.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'") }
            throw UsageError("unknown command '\(first)'")
        }
        let parsed = try ArgumentParser.parse(rest, as: spec)
        if parsed.wantsHelp { return .help(spec) }
        switch spec.name {
        default:
            return .rules(try settings(from: parsed, command: spec.name))
        }
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
