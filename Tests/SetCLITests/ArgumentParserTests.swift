import Testing
@testable import SetCLI
import SetRules

@Suite struct ArgumentParserTests {
    let spec = CommandSpec("demo", "A demo command.",
                           positionals: [PositionalSpec("HOST", "where")],
                           options: [OptionSpec("name", "NAME", "who"), OptionSpec("quiet", nil, "say less")])

    @Test func valuesComeSpaceSeparatedOrAfterAnEqualsSign() throws {
        let spaced = try ArgumentParser.parse(["--name", "ann", "example.org"], as: spec)
        let joined = try ArgumentParser.parse(["--name=ann", "example.org"], as: spec)
        #expect(spaced == joined)
        #expect(spaced.values == ["name": "ann"])
        #expect(spaced.positionals == ["example.org"])
    }

    @Test func flagsAndHelpAreRecognised() throws {
        let parsed = try ArgumentParser.parse(["--quiet", "-h"], as: spec)
        #expect(parsed.flags == ["quiet"])
        #expect(parsed.wantsHelp)
        #expect(try ArgumentParser.parse(["--help"], as: spec).wantsHelp)
    }

    @Test func aDoubleDashEndsOptions() throws {
        #expect(try ArgumentParser.parse(["--", "--name"], as: spec).positionals == ["--name"])
    }

    @Test(arguments: [
        (["--colour", "red"], "unknown option '--colour'"),
        (["-x"], "unknown option '-x'"),
        (["--name"], "--name needs a value (NAME)"),
        (["--name", "--quiet"], "--name needs a value (NAME)"),
        (["--name="], "--name needs a value (NAME)"),
        (["--quiet=yes"], "--quiet takes no value"),
        (["a", "b"], "unexpected argument 'b'"),
    ])
    func badArgumentsAreNamed(arguments: [String], message: String) {
        #expect(throws: UsageError(message, command: "demo")) { try ArgumentParser.parse(arguments, as: spec) }
    }
}

@Suite struct CommandsTests {
    @Test func noArgumentsOrHelpGiveTheOverview() throws {
        #expect(try Commands.parse([]) == .overview)
        #expect(try Commands.parse(["--help"]) == .overview)
        #expect(try Commands.parse(["-h"]) == .overview)
        #expect(try Commands.parse(["help"]) == .overview)
    }

    @Test func versionIsAFlagOrACommand() throws {
        #expect(try Commands.parse(["--version"]) == .version)
        #expect(try Commands.parse(["version"]) == .version)
    }

    @Test func helpForOneCommand() throws {
        #expect(try Commands.parse(["help", "rules"]) == .help(Commands.rules))
        #expect(try Commands.parse(["rules", "--help"]) == .help(Commands.rules))
    }

    @Test func rulesTakeRuleSettings() throws {
        var expected = RuleSettings.standard
        expected.claimWindowMs = 3_000
        expected.hintsInDuel = true
        #expect(try Commands.parse(["rules", "--claim-window-ms", "3000", "--hints-in-duel=on"]) == .rules(expected))
    }

    @Test(arguments: [
        (["frobnicate"], UsageError("unknown command 'frobnicate'")),
        (["--frobnicate"], UsageError("unknown option '--frobnicate'")),
        (["help", "frobnicate"], UsageError("no command named 'frobnicate'")),
        (["rules", "--claim-window-ms", "soon"],
         UsageError("--claim-window-ms takes a whole number of milliseconds, not 'soon'", command: "rules")),
        (["rules", "--claim-window-ms", "0"],
         UsageError("claim-window-ms must be between 1 and 600000 milliseconds, not 0", command: "rules")),
    ])
    func usageErrorsSayWhatIsWrong(arguments: [String], error: UsageError) {
        #expect(throws: error) { try Commands.parse(arguments) }
    }

    @Test func usageErrorsExitWith64() {
        #expect(UsageError.exitCode == 64)
    }

    @Test func theRulesHelpIsPinned() {
        let help = HelpText.help(for: Commands.rules)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "usage: setgame rules [options]")
        #expect(lines[2] == "Print the rules of Set and of a duel, with the timings and points in force.")
        #expect(lines[4] == "  --claim-window-ms MS                 time a duel claimant has to pick three cards")
        #expect(lines.contains("  --hints-in-duel on|off               whether a duel allows hints (solo always does)"))
        #expect(lines.contains("  -h, --help                           show this help"))
    }

    @Test func theOverviewListsEveryCommand() {
        let overview = HelpText.overview(Commands.all, version: "9.9.9")
        #expect(overview.hasPrefix("setgame 9.9.9: the card game Set"))
        for spec in Commands.all { #expect(overview.contains("  \(spec.name)")) }
    }
}

@Suite struct InvocationTests {
    /// A tiny file system: links and the files that exist.
    static func resolver(_ links: [String: String], files: Swift.Set<String>) -> (String) -> String? {
        { path in
            let target = links[path] ?? path
            return files.contains(target) ? target : nil
        }
    }

    @Test func aBinaryFoundOnPathIsPrintedByName() {
        let command = Invocation.command(argv0: "setgame", path: "/usr/bin", currentDirectory: "/home/a", resolve: { $0 })
        #expect(command == "setgame")
    }

    /// Issue 23 item 13: "swift run setgame watch …" fails outside the package's folder. `swift
    /// run` starts `.build/TRIPLE/debug/setgame` by a relative path; the shorter `.build/debug` link
    /// names the same binary, so a watch command still fits an 80-column line.
    @Test func swiftRunInThePackageFolderIsPrintedAsTheBuiltBinarysPath() {
        let binary = "/home/a/setgame/.build/x86_64-unknown-linux-gnu/debug/setgame"
        let resolve = Self.resolver(["/home/a/setgame/.build/debug/setgame": binary], files: [binary, "/home/a/setgame"])
        let command = Invocation.command(argv0: ".build/x86_64-unknown-linux-gnu/debug/setgame", path: "/usr/bin:/bin",
                                         currentDirectory: "/home/a/setgame", resolve: resolve)
        #expect(command == "/home/a/setgame/.build/debug/setgame", "runs as printed from any folder")
        let unlinked = Invocation.command(argv0: binary, path: nil, currentDirectory: "/tmp",
                                          resolve: Self.resolver([:], files: [binary]))
        #expect(unlinked == binary, "without the link, the path it was started by")
    }

    @Test func theSameBinaryLinkedIntoPathIsPrintedByName() {
        let binary = "/home/a/setgame/.build/release/setgame"
        let resolve = Self.resolver(["/home/a/.local/bin/setgame": binary], files: [binary])
        let command = Invocation.command(argv0: binary, path: "/usr/bin:/home/a/.local/bin",
                                         currentDirectory: "/home/a/setgame", resolve: resolve)
        #expect(command == "setgame")
    }

    @Test func elsewhereTheFullPathIsPrinted() {
        let binary = "/home/a/setgame/.build/release/setgame"
        let resolve = Self.resolver([:], files: [binary, "/usr/bin/setgame"])
        let command = Invocation.command(argv0: binary, path: "/usr/bin", currentDirectory: "/tmp", resolve: resolve)
        #expect(command == binary)
        let relative = Invocation.command(argv0: "./setgame", path: nil, currentDirectory: "/opt/x",
                                          resolve: Self.resolver(["/opt/x/./setgame": "/opt/x/setgame"], files: ["/opt/x/setgame"]))
        #expect(relative == "/opt/x/setgame")
    }
}

@Suite struct PlayOptionTests {
    @Test func playStartsAfreshOnlyWithNewAndMeetsTheEasyBotFirst() throws {
        guard case .play(let plain) = try Commands.parse(["play"]) else { Issue.record("not play"); return }
        #expect(!plain.fresh)
        #expect(plain.level == .easy)
        guard case .play(let fresh) = try Commands.parse(["play", "--new", "--level", "normal"]) else { Issue.record("not play"); return }
        #expect(fresh.fresh)
        #expect(fresh.level == .normal)
        guard case .bot(let bot, _) = try Commands.parse(["bot", "127.0.0.1:1"]) else { Issue.record("not bot"); return }
        #expect(bot.level == .normal, "only play's default changed")
    }
}
