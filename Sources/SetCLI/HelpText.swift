/// Help and usage text, drawn from the command specs so it cannot drift from the parser.
package enum HelpText {
    package static let toolName = "setgame"

    /// The one-line synopsis of a command.
    package static func usageLine(_ spec: CommandSpec) -> String {
        var words = ["\(toolName) \(spec.name)"]
        words += spec.positionals.map { "[\($0.name)]" }
        if !spec.options.isEmpty { words.append("[options]") }
        return "usage: " + words.joined(separator: " ")
    }

    /// The full help of one command.
    package static func help(for spec: CommandSpec) -> String {
        var lines = [usageLine(spec), "", spec.summary]
        let rows = spec.positionals.map { ($0.name, $0.summary) }
            + spec.options.map { ("--\($0.name)" + ($0.placeholder.map { " \($0)" } ?? ""), $0.summary) }
            + [("-h, --help", "show this help")]
        let width = rows.map(\.0.count).max() ?? 0
        lines.append("")
        for (left, right) in rows {
            lines.append("  " + pad(left, to: width) + "  " + right)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The top-level help: every subcommand with its summary.
    package static func overview(_ specs: [CommandSpec], version: String) -> String {
        let width = specs.map(\.name.count).max() ?? 0
        var lines = [
            "\(toolName) \(version): the card game Set, for two players over TCP, in the terminal.",
            "",
            "usage: \(toolName) <command> [arguments] [options]",
            "",
            "commands:",
        ]
        for spec in specs {
            lines.append("  " + pad(spec.name, to: width) + "  " + spec.summary)
        }
        lines += [
            "",
            "  \(toolName) <command> --help   options of one command",
            "  \(toolName) --version          print the version",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a usage error prints on stderr: the problem, the command's synopsis, and where its help is.
    /// - Parameter invocation: how the program was started (`CommandDefaults.command`).
    package static func usageError(_ error: UsageError, invocation: String) -> String {
        var text = "\(toolName): \(error.message)\n"
        if let name = error.command, let subcommand = Subcommand(rawValue: name) {
            text += usageLine(subcommand.spec) + "\nsee '\(invocation) \(name) --help'\n"
        } else {
            text += "see '\(invocation) --help'\n"
        }
        return text
    }

    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
