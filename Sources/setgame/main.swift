import Foundation
import SetBench
import SetCLI
import SetDoor
import SetLocal
import SetNet
import SetRules
import SetTerminal

let defaults = CommandDefaults.current()
let command: Command
do {
    command = try Commands.parse(Array(CommandLine.arguments.dropFirst()), defaults: defaults)
} catch {
    FileHandle.standardError.write(Data(HelpText.usageError(error, invocation: defaults.command).utf8))
    exit(UsageError.exitCode)
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
    exit(LocalGame.play(options, command: defaults.command))
case .join(let options):
    exit(LobbyClient.join(options) { defaults.watchCommand(host: options.host, port: options.port, match: $0) })
case .bot(let options, let count):
    exit(runBot(options, count: count))
case .door(let options):
    exit(Door.run(options, report: AccountReport.lines))
case .account(let command):
    exit(AccountClient.run(command))
case .arena(let command):
    exit(ArenaCommandClient.run(command))
case .arenaJoin(let options, let arena):
    exit(ArenaClient.run(options, arena: arena))
case .arenaWatch(let options, let arena):
    exit(ArenaTVClient.run(options, arena: arena))
case .nodes(let command):
    exit(NodesClient.run(command))
case .replay(let options):
    exit(replay(options))
case .bench(let options):
    exit(Bench.run(options, signals: StopSignals([SIGINT, SIGTERM])))
case .benchRules:
    exit(Bench.rules())
case .cards(let options):
    exit(cards(options))
}
