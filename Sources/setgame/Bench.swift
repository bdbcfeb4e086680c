import CLinux
import Foundation
import Glibc
import SetBench
import SetCLI

/// `setgame bench`: starts the real server as its own process (so its CPU and memory are its
/// own), loads it through the protocol, and reports.
func bench(_ options: BenchOptions) -> Int32 {
    if let abuse = options.abuse { return benchAbuse(abuse, options) }
    var config = BenchConfig()
    config.matches = options.matches
    config.spectatorsPerMatch = options.spectators
    config.paceMs = options.paceMs
    config.durationSeconds = options.durationSeconds
    config.variant = options.variant
    var server: Process?
    let data = NSTemporaryDirectory() + "setgame-bench-\(getpid())"
    if let address = options.server {
        config.host = address.host
        config.port = address.port
    } else {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        // The load comes from one address: it may hold every connection and match it opens.
        process.arguments = ["serve", "--port", "0", "--data", data, "--max-connections", "100000",
                             "--messages-per-second", "1000000", "--connections-per-address", "100000",
                             "--matches-per-address", "100000", "--max-matches", "100000",
                             "--connect-rate-per-address", "1000000"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try process.run() } catch {
            printError("setgame bench: cannot start the server: \(error)")
            return 1
        }
        let firstLine = String(decoding: output.fileHandleForReading.availableLine(), as: UTF8.self)
        guard let port = firstLine.split(separator: ":").last.flatMap({ UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            printError("setgame bench: the server did not say where it listens: \(firstLine)")
            process.terminate()
            return 1
        }
        config.port = port
        server = process
        // On two or more cores the server and the load each get a core of their own, so neither
        // one's bursts show up as the other's latency.
        if ProcessInfo.processInfo.activeProcessorCount >= 2 {
            let pinned = setgame_pin_to_cpu(process.processIdentifier, 0) == 0 && setgame_pin_to_cpu(0, 1) == 0
            if !options.json { printError("bench: server on core 0, load on core 1: \(pinned ? "pinned" : "could not pin")") }
        }
    }
    let report: BenchReport
    do {
        let generator = try LoadGenerator(config)
        let load = try generator.run { if !options.json { printError("bench: \($0)") } }
        let stats = server.flatMap { ProcessStats.read(pid: $0.processIdentifier) }
        report = BenchReport(config: config, load: load, server: stats, machine: BenchReport.describeMachine())
    } catch {
        printError("setgame bench: \(error)")
        server?.terminate()
        return 1
    }
    if let server {
        server.terminate()
        server.waitUntilExit()
        try? FileManager.default.removeItem(atPath: data)
    }
    writeOut(options.json ? report.json : report.table)
    return report.load.errors.isEmpty && report.load.drops == 0 ? 0 : 1
}

/// `setgame bench rules`.
func benchRules() -> Int32 {
    for measurement in RulesBench.run() {
        writeOut("\(measurement.name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%12.0f", measurement.perSecond)) per second")
    }
    return 0
}

extension FileHandle {
    /// Reads until a newline; the server prints its address as its first line.
    func availableLine() -> Data {
        var line = Data()
        while let byte = try? read(upToCount: 1), let first = byte.first {
            if first == 0x0A { break }
            line.append(first)
        }
        return line
    }
}
