import CLinux
import Foundation
import Glibc
import SetBench
import SetCLI

/// `setgame bench --abuse KIND`: one server, one duel measured twice in one run — alone, then
/// while the abuse runs against the same server from other addresses — and the two compared.
func benchAbuse(_ kind: BenchAbuse, _ options: BenchOptions) -> Int32 {
    let data = NSTemporaryDirectory() + "setgame-abuse-\(getpid())"
    try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: data) }
    let logPath = data + "/server.log"
    // The server runs with its default limits (per-address shares included); the fds abuse gives
    // it the common 1,024-descriptor limit, hard as well as soft, so it cannot raise it.
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let serve = [binary, "serve", "--port", "0", "--data", data + "/matches"]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    let limit = kind == .fds ? "ulimit -n 1024 && " : ""
    process.arguments = ["-c", "\(limit)exec \"$0\" \"$@\" 2>\"\(logPath)\""] + serve
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch {
        printError("setgame bench: cannot start the server: \(error)")
        return 1
    }
    defer {
        process.terminate()
        process.waitUntilExit()
    }
    let firstLine = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self)
    guard let port = firstLine.split(separator: ":").last.flatMap({ UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
        printError("setgame bench: the server did not say where it listens: \(firstLine)")
        return 1
    }
    // Pinned as `setgame bench` pins (server core 0, load core 1) unless SETGAME_BENCH_NO_PIN is set:
    // on a machine other work shares, a pinned server cannot move away from it.
    if ProcessInfo.processInfo.activeProcessorCount >= 2, ProcessInfo.processInfo.environment["SETGAME_BENCH_NO_PIN"] == nil {
        _ = setgame_pin_to_cpu(process.processIdentifier, 0)
        _ = setgame_pin_to_cpu(0, 1)
    }
    var config = BenchConfig()
    config.port = port
    // A duel at a person's pace is what the abuse must not hurt; --matches and --pace override.
    // Four duels give enough samples for a p99; the spectators all crowd one duel.
    config.matches = options.matches != BenchOptions().matches ? options.matches : kind == .spectators ? 1 : 4
    config.spectatorsPerMatch = 0
    config.paceMs = options.paceMs == BenchOptions().paceMs ? 25 : options.paceMs
    config.durationSeconds = options.durationSeconds
    let say: (String) -> Void = { if !options.json { printError("bench: \($0)") } }

    func measure(_ name: String, during abuse: AbuseKind?) -> (LoadResult, cpu: Double, logLines: Int, AbuseStats?)? {
        config.run = "\(name)\(getpid())"
        let targets = (0..<config.matches).map { "bench-\(config.run!)-\($0)" }
        var abusers: [Abuser] = []
        var cpuBefore = ProcessStats.read(pid: process.processIdentifier)?.cpuSeconds ?? 0
        var logBefore = countLines(logPath)
        do {
            let generator = try LoadGenerator(config)
            let load = try generator.run { message in
                say(message)
                // The abuse starts once the duel is seated, so it cannot take the duel's own seats.
                if let abuse, message.contains("measuring") {
                    say("starting the \(abuse.rawValue) abuse")
                    let lanes = Abuser.lanes(for: abuse)
                    abusers = (0..<lanes).map { Abuser(kind: abuse, port: port, targets: targets, lane: $0, lanes: lanes) }
                    abusers.forEach { $0.start() }
                    say("the \(abuse.rawValue) abuse runs")
                    // Its setup (such as filling the server with matches) is not part of the figures.
                    logBefore = countLines(logPath)
                    cpuBefore = ProcessStats.read(pid: process.processIdentifier)?.cpuSeconds ?? 0
                }
            }
            let stats = abusers.isEmpty ? nil : Abuser.combined(abusers.map { $0.stop() })
            let cpu = (ProcessStats.read(pid: process.processIdentifier)?.cpuSeconds ?? 0) - cpuBefore
            return (load, cpu, countLines(logPath) - logBefore, stats)
        } catch {
            printError("setgame bench: \(error)")
            abusers.forEach { _ = $0.stop() }
            return nil
        }
    }

    guard let alone = measure("alone", during: nil), let abused = measure(kind.rawValue, during: AbuseKind(rawValue: kind.rawValue)!) else {
        return 1
    }
    let ratio = abused.0.actionLatency.p99 / max(alone.0.actionLatency.p99, 0.001)
    func row(_ name: String, _ result: (LoadResult, cpu: Double, logLines: Int, AbuseStats?)) -> String {
        let p = result.0.actionLatency
        return "\(name.padding(toLength: 22, withPad: " ", startingAt: 0)) p50 \(String(format: "%.3f", p.p50)) ms  p99 \(String(format: "%.3f", p.p99)) ms  "
            + "max \(String(format: "%.3f", p.max)) ms  (\(p.count) samples, \(result.0.errors.values.reduce(0, +)) errors, \(result.0.drops) drops); "
            + "server CPU \(String(format: "%.0f", 100 * result.cpu / max(result.0.seconds, 0.001)))%, \(result.logLines) log lines"
    }
    var lines = ["setgame bench --abuse \(kind.rawValue): \(config.matches) duel(s) at pace \(config.paceMs) ms, \(config.durationSeconds) s each",
                 "machine: \(BenchReport.describeMachine())",
                 row("duel alone", alone), row("duel under abuse", abused),
                 "p99 under abuse / alone: \(String(format: "%.2f", ratio))× (the goal: at most 2×)"]
    if let stats = abused.3 {
        let outcomes = stats.outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        lines.append("abuse: \(stats.attempts) attempts in \(String(format: "%.1f", stats.seconds)) s "
                     + "(\(String(format: "%.0f", Double(stats.attempts) / max(stats.seconds, 0.001)))/s), "
                     + "\(stats.bytesReceived) bytes received, \(stats.openSockets) sockets held at the end; \(outcomes)")
    }
    writeOut(lines.joined(separator: "\n"))
    return ratio <= 2 && alone.0.errors.isEmpty && abused.0.errors.isEmpty && abused.0.drops == 0 ? 0 : 1
}

private func countLines(_ path: String) -> Int {
    guard let data = FileManager.default.contents(atPath: path) else { return 0 }
    return data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
}
