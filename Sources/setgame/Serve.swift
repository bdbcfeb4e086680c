import Dispatch
import Glibc
import SetCLI
import SetNet
import SetServer

/// `setgame serve`: prints where it listens, serves until SIGINT or SIGTERM, exits 0. SIGHUP,
/// which a closed terminal or a log rotation sends, is said in the log and changes nothing: a
/// server started with `&` from an ssh session outlives the session.
func serve(_ options: ServeCommand) -> Int32 {
    let signals = StopSignals([SIGINT, SIGTERM], ignoring: [SIGHUP])
    let config = options.config
    let log = ServerLog(format: options.logFormat)
    signals.whenIgnored { _ in log("SIGHUP ignored: the server keeps serving (SIGTERM or SIGINT stops it)") }
    if let probe = options.probe { return probe.run() }
    if options.check { return check(config, log: log) }
    // Which build runs, for a host reading the log after an upgrade.
    log("setgame \(Commands.version) starting")
    let server: Server
    do {
        server = try StartPatience().start({ () throws(ServerStartError) in try Server(config: config, log: log) }, log: log) { ms in
            signals.sleep(milliseconds: ms)
        }
    } catch {
        printError(log.standalone("setgame serve: \(error)"))
        return 1
    }
    let control = server.control
    signals.whenSignalled { control.stop() }
    // Unbuffered, so a script reading our stdout learns the port at once.
    writeOut(log.standalone("setgame serving on \(config.host):\(server.port)"))
    writeOut(log.standalone("match journals in \(config.dataDirectory ?? "-")"))
    server.run()
    return 0
}

/// `serve --check`: what a unit file or a container would start, validated without listening.
private func check(_ config: ServerConfig, log: ServerLog) -> Int32 {
    let fitted = Server.fitted(config, log: log)
    if let data = config.dataDirectory, let problem = Server.dataDirectoryProblem(data) {
        printError("setgame serve: cannot use the data folder \(data): \(problem)")
        return 1
    }
    if let problem = Server.storeProblem(config) {
        printError("setgame serve: cannot open the store: \(problem)")
        return 1
    }
    // Not fatal, since serve sets such files aside by itself, but an operator should know.
    for note in config.dataDirectory.map(Server.dataDirectoryNotes) ?? [] { printError("setgame serve: \(note)") }
    let shares = fitted.addressLimits
    writeOut("setgame serve would listen on \(config.host):\(config.port)")
    writeOut("match journals in \(config.dataDirectory ?? "-"); finished/ keeps \(config.finished.keep) files, \(config.finished.maxAgeDays) days")
    writeOut("at most \(fitted.limits.maxConnections) connections and \(fitted.maxMatches) matches; "
             + "per address \(shares.connections) connections (\(shares.connectsPerSecond) new a second), "
             + "\(shares.matches) matches, \(shares.waitingMatches) waiting duels, \(shares.arenaPlayers) players in an arena")
    // Not the store's address: it may hold a password. `--check --address` asks a running node.
    if let node = config.cluster.node, let advertise = config.cluster.advertise {
        writeOut("node \(node), where the other nodes send its players: \(advertise)")
    }
    return 0
}

func printError(_ text: String) { writeLine(text, to: 2) }

func writeOut(_ text: String) { writeLine(text, to: 1) }

private func writeLine(_ text: String, to fd: Int32) { LineOutput.write([text], to: fd) }
