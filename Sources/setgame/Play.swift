import Foundation
import SetBot
import SetCLI
import SetNet
import SetRules
import SetServer
import SetTerminal
import Synchronization

/// `setgame play`: a server on a loopback port (the last run's when free), a bot opponent and the
/// terminal client, in one process. The server journals to the user's state folder, so the same
/// command resumes an unfinished game; quitting stops the bot and the server, and nothing is left
/// running.
func play(_ options: PlayOptions) -> Int32 {
    let name = options.name ?? ClientOptions.loginName()
    let command = invocationCommand()
    if let remote = options.against {
        var client = ClientOptions(host: remote.host, port: remote.port, name: name, mode: .duel, role: .player,
                                   colorblind: options.colorblind, animation: options.animation)
        client.command = command
        client.variant = options.variant
        return TerminalClient.run(client)
    }
    // Before anything starts: without a terminal there is nothing to play on.
    guard TerminalSession.hasTerminal else {
        printError("setgame play: \(TerminalSession.needsTerminal)")
        return 1
    }
    let mode: Mode = options.solo ? .solo : .duel
    let stateDirectory = ProcessEnvironment.stateFolder()
    let kept = KeptGame(stateDirectory: stateDirectory, mode: mode, variant: options.variant, player: name)
    // The command that plays this game again: a variant is kept apart, so it is named.
    let again = "\(command) play\(options.solo ? " --solo" : "")\(options.variant == .classic ? "" : " --mode \(options.variant.rawValue)")"
    // One process per kept game: a second terminal must not replay and write the same journal.
    guard let lock = kept.lock() else {
        printError("setgame play: this game is open in another terminal; quit it there, or play here with another --name")
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
    var config = ServerConfig()
    config.rules = options.rules
    config.dataDirectory = kept.dataDirectory
    // Nobody waits on the other side of a local game: a kept seat never forfeits.
    config.limits.seatWaitMs = 365 * 24 * 3_600_000
    if let seed = options.seed { config.seeds = .counting(from: seed) }
    let serverLog = ServerLogLines()
    let server: Server
    do {
        server = try startLocalServer(config, preferring: kept.lastPort, log: serverLog.log)
    } catch {
        printError("setgame play: cannot start a local server: \(error)")
        return 1
    }
    kept.keep(port: server.port)
    let restored = server.restoredMatches.contains(kept.match)
    let resumed = restored && store.token(for: kept.tokenKey) != nil
    if restored && !resumed {
        printError("setgame play: an unfinished game is kept in \(kept.dataDirectory) but its seat token is gone; '\(again) --new' starts afresh")
        return 1
    }
    if !resumed { store.set(nil, for: kept.tokenKey) }
    let serverStopped = DispatchSemaphore(value: 0)
    let port = server.port, control = server.control
    Server.runOnNewThread(server) { serverStopped.signal() }

    let keptBot = resumed ? kept.bot() : nil
    let level = keptBot?.level ?? BotLevel(rawValue: options.level) ?? .easy
    let article = level == .easy || level == .instant ? "an" : "a"
    let opponent = options.solo ? "alone" : "against \(article) \(level.rawValue) bot"
    var bot = BotOptions()
    bot.port = port
    bot.match = kept.match
    bot.variant = options.variant
    bot.level = level
    bot.name = "bot-\(level.rawValue)"
    bot.token = keptBot?.token
    bot.seed = options.seed ?? UInt64(truncatingIfNeeded: MonotonicTime.rawNanoseconds())
    let localBot = LocalBot(bot) { token in kept.saveBot(level: level, token: token) }

    let watchLead = "A friend on this machine can watch with:"
    let watchCommand = "\(command) watch 127.0.0.1:\(port) \(kept.match)"
    var client = ClientOptions(
        port: port, name: name, match: kept.match, mode: mode, role: .player,
        colorblind: options.colorblind, animation: options.animation,
        banner: ["setgame: playing \(options.variant == .classic ? "" : options.variant.title + " ")\(opponent) on 127.0.0.1:\(port)\(resumed ? ", resuming your unfinished game ('\(again) --new' starts afresh)" : "").",
                 "\(watchLead) \(watchCommand)"])
    client.command = command
    client.variant = options.variant
    client.watchCommand = watchCommand
    client.watchLead = watchLead
    client.tokenKey = kept.tokenKey
    client.local = LocalMatch(
        start: options.solo ? nil : resumed ? "Your unfinished game \(opponent) is back" : "You \(opponent)",
        quitNote: "Your game is kept: '\(again)' resumes it.",
        confirmsQuit: !options.solo,
        resumeNote: "resumed your unfinished game",
        onStart: { localBot.start() }, onHold: { localBot.hold($0) })
    let status = TerminalClient.run(client)
    localBot.stop()
    control.stop()
    serverStopped.wait()
    if kept.isUnfinished { writeOut("setgame: your game is kept: '\(again)' resumes it ('--new' starts afresh).") }
    return status
}

/// The bot of a local match: it joins only when the player is ready. While the player reads the
/// help it leaves its seat, which pauses the match on the server exactly as a dropped player does
/// (clocks stopped, journaled, no new wire), and it takes the seat back with its token after.
final class LocalBot: Sendable {
    private typealias Running = (runner: BotRunner, stopped: DispatchSemaphore)
    private struct State {
        var options: BotOptions
        var running: Running?
        var started = false
    }
    private let state: Mutex<State>
    private let onJoined: @Sendable (String) -> Void

    init(_ options: BotOptions, onJoined: @escaping @Sendable (String) -> Void) {
        state = Mutex(State(options: options))
        self.onJoined = onJoined
    }

    /// Connects the bot and lets it play; later calls do nothing.
    func start() {
        state.withLock { state in
            guard !state.started else { return }
            state.started = true
            launch(&state)
        }
    }

    /// Help opened (true): the bot leaves and the match pauses. Closed: it comes back.
    func hold(_ on: Bool) {
        if on {
            state.withLock { state -> Running? in
                defer { state.running = nil }
                return state.started ? state.running : nil
            }.map(Self.halt)
        } else {
            state.withLock { state in if state.started && state.running == nil { launch(&state) } }
        }
    }

    /// Stops the bot and waits for its thread.
    func stop() {
        state.withLock { state -> Running? in
            defer { state.running = nil }
            return state.running
        }.map(Self.halt)
    }

    private static func halt(_ running: Running) {
        running.runner.stop()
        running.stopped.wait()
    }

    /// With the lock held: a runner for the bot, resuming its seat when it has a token.
    private func launch(_ state: inout State) {
        do {
            let runner = try BotRunner()
            runner.onBotJoined = { [weak self] _, _, token in if let token { self?.joined(token) } }
            try runner.add(state.options)
            // A new look at the table each time: the same seed would replay the same reactions.
            state.options.seed &+= 1
            let stopped = DispatchSemaphore(value: 0)
            Thread.detachNewThread { runner.run(); stopped.signal() }
            state.running = (runner, stopped)
        } catch {
            FileHandle.standardError.write(Data("setgame play: the bot could not join: \(error)\n".utf8))
        }
    }

    private func joined(_ token: String) {
        state.withLock { $0.options.token = token }
        onJoined(token)
    }
}

/// The last run's port first, so a friend's `watch` that keeps retrying it finds the resumed game;
/// any free port when that one is taken meanwhile.
func startLocalServer(_ config: ServerConfig, preferring port: UInt16?, log: ServerLog) throws(ServerStartError) -> Server {
    var config = config
    if let port {
        config.port = port
        do { return try Server(config: config, log: log) } catch {
            guard case .network = error else { throw error }
        }
    }
    config.port = 0
    return try Server(config: config, log: log)
}

/// Where `setgame play` keeps a game between runs: a journal folder per mode, variant and player
/// name under the state folder, and beside it the bot's level and seat token. The classic game
/// keeps the folder and key it had before variants.
struct KeptGame: Sendable {
    let dataDirectory: String
    let match: String
    let tokenKey: String

    init(stateDirectory: String, mode: Mode, variant: Variant = .classic, player: String) {
        // Names may hold any printable character; the folder name keeps only safe bytes.
        let safe = player.utf8.map { byte -> String in
            let c = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (c.isLetter || c.isNumber || c == "-" || c == "_") ? String(c) : String(format: "%%%02X", byte)
        }.joined()
        let kind = variant == .classic ? mode.rawValue : "\(mode.rawValue)-\(variant.rawValue)"
        dataDirectory = "\(stateDirectory)/play/\(kind)-\(safe)"
        match = mode.rawValue
        tokenKey = "play \(kind) \(player)"
    }

    private var botFile: String { dataDirectory + "/bot" }
    private var portFile: String { dataDirectory + "/port" }

    /// The port the last run listened on, if it is known.
    var lastPort: UInt16? {
        guard let data = FileManager.default.contents(atPath: portFile), let text = String(data: data, encoding: .utf8) else { return nil }
        return UInt16(text.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0 == 0 ? nil : $0 }
    }

    func keep(port: UInt16) {
        _ = FileManager.default.createFile(atPath: portFile, contents: Data("\(port)\n".utf8), attributes: [.posixPermissions: 0o600])
    }

    /// An exclusive lock on the kept game, held until the descriptor closes (or the process ends);
    /// nil when another process holds it.
    func lock() -> Int32? {
        try? FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // Not the server's own "lock": it takes that one itself, once this process owns the game.
        let fd = open(dataDirectory + "/play.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
    private var journal: String { "\(dataDirectory)/\(match).jsonl" }

    /// Whether a journal of an unfinished match is kept (the server moves finished ones aside).
    var isUnfinished: Bool { FileManager.default.fileExists(atPath: journal) }

    /// The kept bot's level and seat token.
    func bot() -> (level: BotLevel, token: String)? {
        guard let data = FileManager.default.contents(atPath: botFile), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard parts.count == 2, let level = BotLevel(rawValue: parts[0]) else { return nil }
        return (level, parts[1])
    }

    func saveBot(level: BotLevel, token: String) {
        try? FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(atPath: botFile, contents: Data("\(level.rawValue)\t\(token)\n".utf8),
                                           attributes: [.posixPermissions: 0o600])
    }

    /// Sets the kept game aside under `finished/` (where `setgame replay` reads it) and forgets the bot.
    func discard() {
        try? FileManager.default.removeItem(atPath: botFile)
        guard isUnfinished else { return }
        let finished = dataDirectory + "/finished"
        try? FileManager.default.createDirectory(atPath: finished, withIntermediateDirectories: true)
        try? FileManager.default.moveItem(atPath: journal, toPath: "\(finished)/\(match)-abandoned-\(Int(Date().timeIntervalSince1970)).jsonl")
    }
}

/// How this program was started, for the commands it prints (see `Invocation`).
func invocationCommand() -> String {
    Invocation.command(argv0: CommandLine.arguments.first ?? "setgame", path: ProcessEnvironment.variables["PATH"],
                       currentDirectory: FileManager.default.currentDirectoryPath) { path in
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
