import Glibc
import Synchronization
import SetBot
import SetNet
import SetTerminal
import SetWire

/// `setgame bot`: one bot on a server (or `count` in one arena), until the server goes away, the
/// arena's standings are final, or the process is stopped.
func runBot(_ asked: BotOptions, count: Int = 1) -> Int32 {
    let accounts = SeatTokenStore(accountsIn: ProcessEnvironment.stateFolder())
    let team = asked.team(of: count).map { one in
        var options = one
        // Each bot name is an account of its own on each server, listed as a bot.
        options.account = accounts.accountKey(for: "bot:\(options.name)@\(options.host):\(options.port)")
        return options
    }
    let chosen = asked
    let signals = StopSignals([SIGINT, SIGTERM])
    let runner: BotRunner
    do {
        runner = try BotRunner()
        for options in team { try runner.add(options) }
    } catch {
        printError("setgame bot: cannot reach \(chosen.host):\(chosen.port): \(error)")
        return 1
    }
    // What was said as it happened; a failure nobody heard (a redirect to a name that does not
    // resolve ends a bot without a connection to close) is said at the end.
    let told = Mutex<Set<String>>([])
    runner.onBotClosed = { line in
        told.withLock { _ = $0.insert(line) }
        printError("setgame bot: \(line)")
    }
    // What a bot's session noticed on its own (events missed and a snapshot asked for, a seat
    // taken over, a name taken): rare, and what explains a bot that stopped playing.
    runner.onBotLog = { name, line in printError("setgame bot: \(name): \(ServerText.printable(line))") }
    runner.onBotJoined = { joined in
        let what = chosen.arena == nil ? "" : "the arena "
        writeOut("\(joined.name) (\(chosen.level.rawValue)) joined \(what)\(ServerText.printable(joined.match)) on \(ServerText.printable(joined.place))")
    }
    runner.onBotArena = { name, heard in
        guard case .state(let final) = heard, final.state == .finished, final.boards.isEmpty,
              let entry = final.standings.first(where: { $0.name == name }) else { return }
        writeOut("\(name) finished \(ServerText.printable(final.arena)): rank \(entry.rank) of \(final.standings.count), "
            + "\(entry.score) points in \(entry.games) games")
    }
    signals.whenSignalled { runner.stop() }
    runner.run()
    if chosen.arena != nil { writeOut(runner.arenaTally.summary) }
    let failures = runner.failures
    for failure in failures where !told.withLock({ $0.contains(failure) }) { printError("setgame bot: \(failure)") }
    return failures.isEmpty ? 0 : 1
}
