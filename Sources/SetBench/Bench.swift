import Foundation
import Glibc
import SetNet

/// `setgame bench`: starts the real server as its own process (unless told which server to
/// load), loads it through the protocol, and reports.
package enum Bench {
    /// Runs the bench the options ask for and returns the exit status. `signals` end it on ^C,
    /// with its server stopped and its folder removed.
    package static func run(_ options: BenchOptions, signals: StopSignals) -> Int32 {
        signals.whenSignalled { exit(130) }
        if let abuse = options.abuse { return AbuseBench.run(abuse, options, signals: signals) }
        if let fairness = options.fairness {
            warn("bench: \(fairness.scenarios.count) settings side by side, \(fairness.races) races each")
            guard let outcomes = FairnessBench.run(fairness.scenarios, races: fairness.races, signals: signals) else { return 1 }
            outcomes.forEach { out($0.line) }
            return 0
        }
        var config = BenchConfig()
        config.matches = options.matches
        config.spectatorsPerMatch = options.spectators
        config.paceMs = options.paceMs
        config.durationSeconds = options.durationSeconds
        config.variant = options.variant
        let say: (String) -> Void = { if !options.json { warn("bench: \($0)") } }
        var server: BenchServer?
        if !options.servers.isEmpty {
            config.servers = options.servers
        } else {
            // The load comes from one machine: the server may hold every connection and match it opens.
            let limits = ["--max-connections", "100000", "--messages-per-second", "1000000", "--connections-per-address", "100000",
                          "--matches-per-address", "100000", "--max-matches", "100000", "--connect-rate-per-address", "1000000"]
            do {
                server = try BenchServer(folder: NSTemporaryDirectory() + "setgame-bench-\(getpid())", arguments: limits, signals: signals)
            } catch {
                warn("setgame bench: \(error)")
                return 1
            }
            config.servers = [ServerAddress(port: server?.port ?? 0)]
            if ProcessInfo.processInfo.activeProcessorCount >= 2 {
                say("server on core 0, load on core 1: \(server?.pin() == true ? "pinned" : "could not pin")")
            }
        }
        defer { server?.stop() }
        var report: BenchReport
        do {
            let stolenBefore = StolenTime.read()
            let load = try LoadGenerator(config).run(progress: say)
            let stats = server.flatMap { ProcessStats.read(pid: $0.pid) }
            report = BenchReport(config: config, load: load, server: stats, machine: BenchReport.describeMachine())
            if let stolenBefore, let stolenAfter = StolenTime.read() { report.stolenMsPerCore = stolenAfter.milliseconds(since: stolenBefore) }
            report.loopbackReceive = LoopbackSteering.read()
        } catch {
            warn("setgame bench: \(error)")
            return 1
        }
        if options.relay {
            // The server is stopped first: the relay gets its core as the server had it.
            server?.stop()
            say("the reference relay: the same rooms, lines of \(Int(report.bytesPerEvent.rounded())) bytes, \(config.durationSeconds) s")
            do {
                report.relay = try runRelay(config, lineBytes: Int(report.bytesPerEvent.rounded()))
            } catch {
                warn("setgame bench: the relay: \(error)")
                return 1
            }
        }
        out(options.json ? report.json : report.table)
        let relayClean = report.relay.map { $0.drops == 0 && $0.linesDelivered > 0 } ?? true
        return report.load.errors.isEmpty && report.load.drops == 0 && relayClean ? 0 : 1
    }

    /// The reference relay on the server's core (when there are two), loaded with `config`'s rooms.
    static func runRelay(_ config: BenchConfig, lineBytes: Int) throws(SystemCallError) -> RelayResult {
        let relay = try ReferenceRelay()
        relay.start(cpu: ProcessInfo.processInfo.activeProcessorCount >= 2 ? 0 : nil)
        defer { relay.stop() }
        return try RelayLoad(port: relay.port, rooms: config.matches, spectators: config.spectatorsPerMatch,
                             lineBytes: max(lineBytes, 16)).run(seconds: config.durationSeconds)
    }

    /// `setgame bench rules`: the pure rules, timed.
    package static func rules() -> Int32 {
        for measurement in RulesBench.run() {
            out("\(measurement.name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%12.0f", measurement.perSecond)) per second")
        }
        return 0
    }

    static func out(_ text: String) { LineOutput.write([text], to: 1) }

    static func warn(_ text: String) { LineOutput.write([text], to: 2) }
}
