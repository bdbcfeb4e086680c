import Foundation
import SetBot
import SetCLI
import SetNet
import SetRules
import SetServer
import SetTerminal

/// `setgame play`: a server on a free loopback port, a bot opponent and the terminal client, in
/// one process. Quitting the client stops the bot and the server; nothing is left running.
func play(_ options: PlayOptions) -> Int32 {
    let name = options.name ?? ClientOptions.loginName()
    if let remote = options.against {
        return TerminalClient.run(ClientOptions(host: remote.host, port: remote.port, name: name, mode: .duel,
                                                role: .player, colorblind: options.colorblind, animation: options.animation,
                                                variant: options.variant))
    }
    var config = ServerConfig()
    config.port = 0
    config.rules = options.rules
    if let seed = options.seed { config.seeds = .counting(from: seed) }
    let serverLog = ServerLogLines()
    let server: Server
    do {
        server = try Server(config: config, log: serverLog.log)
    } catch {
        printError("setgame play: cannot start a local server: \(error)")
        return 1
    }
    let serverStopped = DispatchSemaphore(value: 0)
    Thread.detachNewThread { server.run(); serverStopped.signal() }
    defer { server.stop(); serverStopped.wait() }

    let match = "play"
    var bots: (runner: BotRunner, stopped: DispatchSemaphore)?
    let level = BotLevel(rawValue: options.level) ?? .normal
    if !options.solo {
        var bot = BotOptions()
        bot.port = server.port
        bot.match = match
        bot.variant = options.variant
        bot.level = level
        bot.name = "bot-\(level.rawValue)"
        bot.seed = options.seed ?? UInt64(truncatingIfNeeded: MonotonicTime.rawNanoseconds())
        do {
            let runner = try BotRunner()
            try runner.add(bot)
            let stopped = DispatchSemaphore(value: 0)
            Thread.detachNewThread { runner.run(); stopped.signal() }
            bots = (runner, stopped)
        } catch {
            printError("setgame play: the bot could not join: \(error)")
            return 1
        }
    }
    defer {
        if let bots {
            bots.runner.stop()
            bots.stopped.wait()
        }
    }
    let article = level == .easy || level == .instant ? "an" : "a"
    let opponent = options.solo ? "alone" : "against \(article) \(level.rawValue) bot"
    let status = TerminalClient.run(ClientOptions(
        port: server.port, name: name, match: match, mode: options.solo ? .solo : .duel, role: .player,
        colorblind: options.colorblind, animation: options.animation,
        banner: ["setgame: playing \(options.variant == .classic ? "" : options.variant.title + " ")\(opponent) on 127.0.0.1:\(server.port).",
                 "A friend on this machine can watch with: setgame watch 127.0.0.1:\(server.port) \(match)"],
        variant: options.variant))
    return status
}
