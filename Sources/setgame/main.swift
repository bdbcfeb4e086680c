import Foundation
import SetBench
import SetCLI
import SetLocal
import SetNet
import SetRules

/// Prints a usage error the way every subcommand does and exits with EX_USAGE.
func exitWithUsage(_ error: UsageError) -> Never {
    var text = "setgame: \(error.message)\n"
    if let name = error.command, let spec = Commands.all.first(where: { $0.name == name }) {
        text += HelpText.usageLine(spec) + "\nsee '\(invocationCommand()) \(name) --help'\n"
    } else {
        text += "see '\(invocationCommand()) --help'\n"
    }
    FileHandle.standardError.write(Data(text.utf8))
    exit(UsageError.exitCode)
}

let command: Command
do {
    command = try Commands.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    exitWithUsage(error)
}

switch command {
case .overview:
    print(HelpText.overview(Commands.all, version: Commands.version), terminator: "")
case .help(let spec):
    print(HelpText.help(for: spec), terminator: "")
case .version:
    print("setgame \(Commands.version)")
case .rules(let settings, let variant):
    print(RulesText.render(settings, variant: variant))
case .serve(let options):
    exit(serve(options))
case .play(let options):
    exit(LocalGame.play(options, command: invocationCommand()))
case .join(let options):
    exit(join(options))
case .bot(let options):
    exit(runBot(options))
case .replay(let options):
    exit(replay(options))
case .bench(let options):
    exit(Bench.run(options, signals: StopSignals([SIGINT, SIGTERM])))
case .benchRules:
    exit(Bench.rules())
case .cards(let options):
    exit(cards(options))
}
