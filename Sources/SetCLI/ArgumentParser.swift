/// An option a command accepts: a flag when `placeholder` is nil, else it takes a value.
package struct OptionSpec: Sendable, Equatable {
    package var name: String
    package var placeholder: String?
    package var summary: String

    package init(_ name: String, _ placeholder: String? = nil, _ summary: String) {
        self.name = name
        self.placeholder = placeholder
        self.summary = summary
    }

    package var isFlag: Bool { placeholder == nil }
}

/// A positional argument a command accepts; every positional is optional.
package struct PositionalSpec: Sendable, Equatable {
    package var name: String
    package var summary: String

    package init(_ name: String, _ summary: String) {
        self.name = name
        self.summary = summary
    }
}

/// A command declared as data, so parsing and help text come from one description.
package struct CommandSpec: Sendable, Equatable {
    package var name: String
    package var summary: String
    package var positionals: [PositionalSpec]
    package var options: [OptionSpec]

    package init(_ name: String, _ summary: String, positionals: [PositionalSpec] = [], options: [OptionSpec] = []) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options
    }
}

/// What the command line said, before any value is interpreted.
package struct ParsedArguments: Sendable, Equatable {
    package var values: [String: String] = [:]
    /// Every value of an option given more than once, in order (`values` keeps the last).
    package var repeated: [String: [String]] = [:]
    package var flags: Set<String> = []
    package var positionals: [String] = []
    package var wantsHelp = false
}

/// A command line that cannot be run; the process exits with status 64 (EX_USAGE).
package struct UsageError: Error, Equatable, Sendable {
    package var message: String
    /// The subcommand whose usage to show, or nil for the top level.
    package var command: String?

    package init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    package static let exitCode: Int32 = 64
}

/// Splits arguments by a `CommandSpec`: `--flag`, `--name value`, `--name=value`, `-h`/`--help`,
/// and `--` to end options.
package enum ArgumentParser {
    package static func parse(_ arguments: [String], as spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        func fail(_ message: String) -> UsageError { UsageError(message, command: spec.name) }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            if argument == "-h" || argument == "--help" { parsed.wantsHelp = true; continue }
            guard argument.hasPrefix("--") else { throw fail("unknown option '\(argument)'") }
            let body = argument.dropFirst(2)
            let name = String(body.prefix(while: { $0 != "=" }))
            let inlineValue = body.contains("=") ? String(body.drop(while: { $0 != "=" }).dropFirst()) : nil
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw fail("unknown option '--\(name)'")
            }
            if option.isFlag {
                guard inlineValue == nil else { throw fail("--\(name) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                throw fail("--\(name) needs a value (\(option.placeholder!))")
            }
            guard !value.isEmpty else { throw fail("--\(name) needs a value (\(option.placeholder!))") }
            parsed.values[name] = value
            parsed.repeated[name, default: []].append(value)
        }
        if !parsed.wantsHelp && parsed.positionals.count > spec.positionals.count {
            let extra = parsed.positionals[spec.positionals.count]
            throw fail("unexpected argument '\(extra)'")
        }
        return parsed
    }
}
