import Foundation
import SetBot
import SetClient
import SetNet
import SetRules
import SetServer
import SetTerminal
import SetWire

/// `setgame play`: a server on a loopback port (the last run's when free), a bot opponent and the
/// terminal client, in one process. The server journals to the user's state folder, so the same
/// command resumes an unfinished game; quitting stops the bot and the server, and nothing is left
/// running.
package enum LocalGame {
    /// Plays, and returns the exit status. `command` is how the user started this program, for
    /// the commands it prints (see `Invocation`).
    package static func play(_ options: PlayOptions, command: String) -> Int32 {
        let name = options.name ?? ClientOptions.loginName()
        if let remote = options.against {
            var client = ClientOptions(host: remote.host, port: remote.port, name: name, mode: .duel, role: .player,
                                       colorblind: options.colorblind, animation: options.animation)
            client.command = command
            client.variant = options.variant
            client.casual = options.casual
            return TerminalClient.run(client)
        }
        // Before anything starts: without a terminal there is nothing to play on.
        guard TerminalSession.hasTerminal else {
            say("setgame play: \(TerminalSession.needsTerminal)", to: 2)
            return 1
        }
        let mode: Mode = options.solo ? .solo : .duel
        let stateDirectory = ProcessEnvironment.stateFolder()
        // The only clock read of the daily deal: which UTC day it is, once, at the start.
        let daily = options.daily ? DailyDeal(utcDayOf: Date()) : nil
        let kept = KeptGame(stateDirectory: stateDirectory, mode: mode, variant: options.variant, daily: daily, player: name)
        let again = options.againCommand(command)
        // One process per kept game: a second terminal must not replay and write the same journal.
        guard let lock = kept.lock() else {
            say("setgame play: this game is open in another terminal; quit it there, or play here with another --name", to: 2)
            return 1
        }
        defer { close(lock) }
        let store = SeatTokenStore(directory: stateDirectory)
        // Without the player's token a kept journal cannot be resumed (the game ended, or was
        // resigned): it is set aside, so the new game does not find its name taken.
        if options.fresh || store.token(for: kept.tokenKey) == nil {
            kept.discard()
            store.set(nil, for: kept.tokenKey)
        }
        let config = serverConfig(options, daily: daily)
        let serverLog = ServerLogLines()
        let table: LocalTable
        do { table = try LocalTable.open(kept, store: store, config: config, log: serverLog.log) } catch {
            switch error {
            case .start(let reason): say("setgame play: cannot start a local server: \(reason)", to: 2)
            case .tokenLost:
                say("setgame play: an unfinished game is kept in \(kept.dataDirectory) but its seat token is gone; '\(again) --new' starts afresh", to: 2)
            }
            return 1
        }
        let port = table.port, resumed = table.resumed

        let keptBot = resumed ? kept.bot() : nil
        let level = keptBot?.level ?? options.level
        let article = level == .easy || level == .instant ? "an" : "a"
        let opponent = options.solo ? "alone" : "against \(article) \(level.rawValue) bot"
        var bot = BotOptions()
        bot.port = port
        bot.match = kept.match
        bot.variant = options.variant
        bot.level = level
        bot.name = botName(level, beside: name)
        bot.token = table.botToken
        bot.seed = options.seed ?? UInt64(truncatingIfNeeded: MonotonicTime.rawNanoseconds())
        let localBot = LocalBot(bot) { token in kept.saveBot(level: level, token: token) }

        let watchLead = "A friend on this machine can watch with:"
        let watchCommand = "\(command) watch 127.0.0.1:\(port) \(kept.match)"
        let variantTitle = (daily.map { "the daily deal of \($0.date), " } ?? "")
            + (options.variant == .classic ? "" : options.variant.title + " ")
        var client = ClientOptions(
            port: port, name: name, match: kept.match, mode: mode, role: .player,
            colorblind: options.colorblind, animation: options.animation,
            banner: ["setgame: playing \(variantTitle)\(opponent) on 127.0.0.1:\(port)\(resumed ? ", resuming your unfinished game ('\(again) --new' starts afresh)" : "").",
                     "\(watchLead) \(watchCommand)"])
        client.command = command
        client.variant = options.variant
        client.watchCommand = watchCommand
        client.watchLead = watchLead
        client.tokenKey = kept.tokenKey
        client = localMatch(options, kept: kept, start: options.solo ? nil : resumed ? "Your unfinished game \(opponent) is back" : "You \(opponent)",
                            again: again, onStart: { localBot.start() }, onHold: { localBot.hold($0) }, client: client)
        client.local?.listen = { localBot.listen($0) }
        client.daily = daily?.date
        let status = TerminalClient.run(client)
        localBot.stop()
        table.stop()
        if kept.isUnfinished {
            TerminalClient.printWrapped(["setgame: your game is kept: '\(again)' resumes it ('--new' starts afresh)."], to: 1, command: command)
        }
        if let daily { TerminalClient.printWrapped(dailyLines(daily, kept: kept, command: command), to: 1, command: command) }
        return status
    }

    /// The bot's name at the table: its level's, or the next one when the player took that name
    /// (no match seats two players under one name, and the player joins first).
    package static func botName(_ level: BotLevel, beside player: String) -> String {
        let name = "bot-\(level.rawValue)"
        return player.lowercased() == name ? name + "2" : name
    }

    /// `client` playing the local match: its words (the start box, what quitting keeps, the resume
    /// note), the hooks that start and hold its bot, and a solo game's personal records, kept in
    /// the kept game's records file (a duel keeps none: a bot's level is no record to beat).
    package static func localMatch(_ options: PlayOptions, kept: KeptGame, start: String?, again: String,
                                   onStart: @escaping @Sendable () -> Void, onHold: @escaping @Sendable (Bool) -> Void,
                                   client: ClientOptions) -> ClientOptions {
        var client = client
        client.startBoxTitle = start
        client.quitNote = "Your game is kept: '\(again)' resumes it."
        client.confirmsQuit = !options.solo
        client.resumeNote = "resumed your unfinished game"
        var local = LocalMatch(onStart: onStart, onHold: onHold)
        if options.solo {
            let file = kept.recordsFile
            client.records = RecordsFile.load(file)
            local.saveRecords = { records in
                if let problem = RecordsFile.save(records, to: file) {
                    LineOutput.write(["setgame: your records are not kept (\(problem))"], to: 2)
                }
            }
        }
        client.local = local
        return client
    }

    /// What the local server is configured with: the options' rules and seed, or the day's deal.
    package static func serverConfig(_ options: PlayOptions, daily: DailyDeal?) -> ServerConfig {
        var config = ServerConfig()
        config.rules = options.rules
        // Nobody waits on the other side of a local game: a kept seat never forfeits.
        config.limits.seatWaitMs = 365 * 24 * 3_600_000
        if let seed = daily?.seed ?? options.seed { config.seeds = .counting(from: seed) }
        return config
    }

    /// Printed on leaving a daily game: what a friend needs to check a claimed time. The seed is
    /// no secret (anyone derives it from the date); the commitment and journal prove the deal played.
    package static func dailyLines(_ daily: DailyDeal, kept: KeptGame, command: String) -> [String] {
        var lines = ["setgame: the daily deal of \(daily.date) (UTC): seed \(daily.seed)",
                     "  commitment \(daily.commitment)",
                     "  check it: printf 'setgame:%s' \(daily.seed) | sha256sum"]
        if !kept.isUnfinished, let journal = kept.newestFinished() {
            lines.append("  the finished game, move by move: \(command) replay \(PlayOptions.shellQuoted(journal))")
        }
        return lines
    }

    private static func say(_ text: String, to fd: Int32) { say([text], to: fd) }
    private static func say(_ lines: [String], to fd: Int32) { LineOutput.write(lines, to: fd) }
}
