import Glibc
import SetBot
import SetNet
import SetTerminal
import SetWire

/// `setgame bot`: one bot on a server, until the server goes away or the process is stopped.
func runBot(_ asked: BotOptions) -> Int32 {
    var options = asked
    // Each bot name is an account of its own on each server, listed as a bot.
    options.account = SeatTokenStore(accountsIn: ProcessEnvironment.stateFolder())
        .accountKey(for: "bot:\(options.name)@\(options.host):\(options.port)")
    let chosen = options
    let signals = StopSignals([SIGINT, SIGTERM])
    let runner: BotRunner
    do {
        runner = try BotRunner()
        try runner.add(options)
    } catch {
        printError("setgame bot: cannot reach \(options.host):\(options.port): \(error)")
        return 1
    }
    runner.onBotClosed = { printError("setgame bot: \($0)") }
    runner.onBotJoined = { name, match, _ in
        writeOut("\(name) (\(chosen.level.rawValue)) joined \(ServerText.printable(match)) on \(chosen.host):\(chosen.port)")
    }
    signals.whenSignalled { runner.stop() }
    runner.run()
    return runner.failures.isEmpty ? 0 : 1
}
