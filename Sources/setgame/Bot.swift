import Glibc
import SetBot
import SetNet
import SetWire

/// `setgame bot`: one bot on a server, until the server goes away or the process is stopped.
func runBot(_ options: BotOptions) -> Int32 {
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
        writeOut("\(name) (\(options.level.rawValue)) joined \(ServerText.printable(match)) on \(options.host):\(options.port)")
    }
    signals.whenSignalled { runner.stop() }
    runner.run()
    return runner.failures.isEmpty ? 0 : 1
}
