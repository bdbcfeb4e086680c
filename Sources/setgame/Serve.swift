import Dispatch
import Glibc
import SetCLI
import SetNet
import SetServer

/// `setgame serve`: prints where it listens, serves until SIGINT or SIGTERM, exits 0.
func serve(_ options: ServeOptions) -> Int32 {
    let signals = StopSignals([SIGINT, SIGTERM])
    var config = ServerConfig()
    config.host = options.server.host
    config.port = options.server.port
    config.rules = options.rules
    config.limits.seatWaitMs = options.seatWaitMs
    config.dataDirectory = options.dataDirectory ?? ServeOptions.defaultDataDirectory()
    config.limits.maxConnections = options.maxConnections
    config.limits.messagesPerSecond = options.messagesPerSecond
    config.limits.messageBurst = options.messagesPerSecond * 2
    if let seed = options.seed { config.seeds = .counting(from: seed) }
    let server: Server
    do {
        server = try Server(config: config)
    } catch where error.code == EWOULDBLOCK && error.call.hasPrefix("lock the data folder") {
        printError("setgame serve: the data folder \(config.dataDirectory ?? "") is in use by another setgame serve; stop that one first, or give this one another --data")
        return 1
    } catch {
        printError("setgame serve: cannot listen on \(options.server.host):\(options.server.port): \(error)")
        return 1
    }
    signals.whenSignalled { server.stop() }
    // Unbuffered, so a script reading our stdout learns the port at once.
    writeOut("setgame serving on \(options.server.host):\(server.port)")
    writeOut("match journals in \(config.dataDirectory ?? "-")")
    server.run()
    return 0
}

func printError(_ text: String) { writeLine(text, to: 2) }

func writeOut(_ text: String) { writeLine(text, to: 1) }

private func writeLine(_ text: String, to fd: Int32) { LineOutput.write([text], to: fd) }
