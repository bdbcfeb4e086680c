import Foundation
import Glibc
import SetNet

/// `setgame bench --abuse KIND`: one server, one duel measured twice in one run — alone, then
/// while the abuse runs against the same server from other addresses — and the two compared.
enum AbuseBench {
    private typealias Measured = (load: LoadResult, cpu: Double, logLines: Int, abuse: AbuseStats?)

    static func run(_ kind: AbuseKind, _ options: BenchOptions, signals: StopSignals) -> Int32 {
        // The server runs with its default limits (per-address shares included); the fds abuse gives
        // it the common 1,024-descriptor limit, hard as well as soft, so it cannot raise it.
        let server: BenchServer
        do {
            server = try BenchServer(folder: NSTemporaryDirectory() + "setgame-abuse-\(getpid())", arguments: [],
                                     descriptorLimit: kind == .fds ? 1_024 : nil, signals: signals)
        } catch {
            Bench.warn("setgame bench: \(error)")
            return 1
        }
        defer { server.stop() }
        // Pinned as `setgame bench` pins unless SETGAME_BENCH_NO_PIN is set: on a machine other
        // work shares, a pinned server cannot move away from it.
        if ProcessInfo.processInfo.environment["SETGAME_BENCH_NO_PIN"] == nil { _ = server.pin() }
        var config = BenchConfig()
        config.servers = [ServerAddress(port: server.port)]
        // A duel at a person's pace is what the abuse must not hurt; --matches and --pace override.
        // Four duels give enough samples for a p99; the spectators all crowd one duel.
        config.matches = options.matches != BenchOptions().matches ? options.matches : kind == .spectators ? 1 : 4
        config.spectatorsPerMatch = 0
        config.paceMs = options.paceMs == BenchOptions().paceMs ? 25 : options.paceMs
        config.durationSeconds = options.durationSeconds
        let say: (String) -> Void = { if !options.json { Bench.warn("bench: \($0)") } }

        func measure(_ name: String, during abuse: AbuseKind?) -> Measured? {
            config.run = "\(name)\(getpid())"
            let targets = (0..<config.matches).map { "bench-\(config.run ?? name)-\($0)" }
            var abusers: [Abuser] = []
            var cpuBefore = server.cpuSeconds
            var logBefore = server.logLines
            do {
                let generator = try LoadGenerator(config)
                let load = try generator.run { message in
                    say(message)
                    // The abuse starts once the duel is seated, so it cannot take the duel's own seats.
                    if let abuse, message.contains("measuring") {
                        say("starting the \(abuse.rawValue) abuse")
                        let lanes = Abuser.lanes(for: abuse)
                        abusers = (0..<lanes).map { Abuser(kind: abuse, port: server.port, targets: targets, lane: $0, lanes: lanes) }
                        abusers.forEach { $0.start() }
                        say("the \(abuse.rawValue) abuse runs")
                        // Its setup (such as filling the server with matches) is not part of the figures.
                        logBefore = server.logLines
                        cpuBefore = server.cpuSeconds
                    }
                }
                let stats = abusers.isEmpty ? nil : Abuser.combined(abusers.map { $0.stop() })
                return (load, server.cpuSeconds - cpuBefore, server.logLines - logBefore, stats)
            } catch {
                Bench.warn("setgame bench: \(error)")
                abusers.forEach { _ = $0.stop() }
                return nil
            }
        }

        guard let alone = measure("alone", during: nil), let abused = measure(kind.rawValue, during: kind) else { return 1 }
        let ratio = abused.load.actionLatency.p99 / max(alone.load.actionLatency.p99, 0.001)
        var lines = ["setgame bench --abuse \(kind.rawValue): \(config.matches) duel(s) at pace \(config.paceMs) ms, \(config.durationSeconds) s each",
                     "machine: \(BenchReport.describeMachine())",
                     row("duel alone", alone), row("duel under abuse", abused),
                     "p99 under abuse / alone: \(String(format: "%.2f", ratio))× (the goal: at most 2×)"]
        if let stats = abused.abuse {
            let outcomes = stats.outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            lines.append("abuse: \(stats.attempts) attempts in \(String(format: "%.1f", stats.seconds)) s "
                         + "(\(String(format: "%.0f", Double(stats.attempts) / max(stats.seconds, 0.001)))/s), "
                         + "\(stats.bytesReceived) bytes received, \(stats.openSockets) sockets held at the end; \(outcomes)")
        }
        Bench.out(lines.joined(separator: "\n"))
        return ratio <= 2 && alone.load.errors.isEmpty && abused.load.errors.isEmpty && abused.load.drops == 0 ? 0 : 1
    }

    private static func row(_ name: String, _ result: Measured) -> String {
        let p = result.load.actionLatency
        return "\(name.padding(toLength: 22, withPad: " ", startingAt: 0)) p50 \(String(format: "%.3f", p.p50)) ms  p99 \(String(format: "%.3f", p.p99)) ms  "
            + "max \(String(format: "%.3f", p.max)) ms  (\(p.count) samples, \(result.load.errors.values.reduce(0, +)) errors, \(result.load.drops) drops); "
            + "server CPU \(String(format: "%.0f", 100 * result.cpu / max(result.load.seconds, 0.001)))%, \(result.logLines) log lines"
    }
}
