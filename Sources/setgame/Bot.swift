import Glibc
import SetBot
import SetCLI
import SetNet
import SetWire

/// `setgame bot`: one bot on a server, until the server goes away or the process is stopped.
func runBot(_ options: BotCommandOptions) -> Int32 {
    let signals = StopSignals([SIGINT, SIGTERM])
    let level = options.level
    var bot = BotOptions()
    bot.host = options.server.host
    bot.port = options.server.port
    bot.match = options.match
    bot.variant = options.variant
    bot.level = level
    bot.name = options.name ?? "bot-\(level.rawValue)"
    bot.seed = options.seed ?? UInt64(truncatingIfNeeded: MonotonicTime.rawNanoseconds())
    let runner: BotRunner
    do {
        runner = try BotRunner()
        try runner.add(bot)
    } catch {
        printError("setgame bot: cannot reach \(options.server.host):\(options.server.port): \(error)")
        return 1
    }
    runner.onBotClosed = { printError("setgame bot: \($0)") }
    runner.onBotJoined = { name, match, _ in
        writeOut("\(name) (\(level.rawValue)) joined \(ServerText.printable(match)) on \(options.server.host):\(options.server.port)")
    }
    signals.whenSignalled { runner.stop() }
    runner.run()
    return runner.failures.isEmpty ? 0 : 1
}
