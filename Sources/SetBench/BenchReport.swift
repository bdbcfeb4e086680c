import Foundation
import SetWire

/// A whole bench run: what was asked, what the load generator saw, and what the server spent.
package struct BenchReport: Sendable {
    package var config: BenchConfig
    package var load: LoadResult
    /// Nil when the server was not started by the bench (`--server`).
    package var server: ProcessStats?
    package var machine: String
    /// The reference relay's run on the same rooms (`--relay`), when there was one.
    package var relay: RelayResult?
    /// Milliseconds the hypervisor took from each core during the run (`StolenTime`), when known.
    package var stolenMsPerCore: [Double]?
    /// The cores that did loopback's receive work during the run (`LoopbackSteering`), when known.
    package var loopbackReceive: LoopbackSteering?

    package init(config: BenchConfig, load: LoadResult, server: ProcessStats?, machine: String, relay: RelayResult? = nil) {
        self.config = config
        self.load = load
        self.server = server
        self.machine = machine
        self.relay = relay
    }

    var actionsPerSecond: Double { Double(load.actions) / max(load.seconds, 0.001) }
    var deliveriesPerSecond: Double { Double(load.eventsDelivered) / max(load.seconds, 0.001) }
    var bytesPerEvent: Double { Double(load.bytesReceived) / Double(max(load.eventsDelivered, 1)) }
    var errorCount: Int { load.errors.values.reduce(0, +) }
    /// The server's delivered lines per second as a share of the relay's, measured in the same
    /// command; nil without a relay run or when the relay delivered nothing.
    var relayRatio: Double? {
        guard let relay, relay.linesDelivered > 0 else { return nil }
        return deliveriesPerSecond / relay.linesPerSecond
    }

    /// A human-readable table.
    package var table: String {
        func ms(_ value: Double) -> String { String(format: "%.3f", value) }
        func latencyRow(_ name: String, _ p: Percentiles) -> String {
            "\(name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(ms(p.p50).leftPad(8)) \(ms(p.p99).leftPad(8)) \(ms(p.p999).leftPad(8)) \(ms(p.max).leftPad(8))  (\(p.count) samples)"
        }
        var lines = [
            "setgame bench: \(config.matches) matches × (2 players + \(config.spectatorsPerMatch) spectators) = \(load.connections) connections, pace \(config.paceMs) ms, \(String(format: "%.1f", load.seconds)) s",
            "machine: \(machine)" + (stolenMsPerCore.map { "; taken by the hypervisor during the run: " + $0.map { String(format: "%.0f ms", $0) }.joined(separator: ", ") } ?? ""),
            "loopback receive work: " + (loopbackReceive?.description ?? "not known"),
            "",
            "actions completed        \(load.actions)  (\(String(format: "%.0f", actionsPerSecond))/s)",
            "games completed          \(load.gamesCompleted)",
            "events delivered         \(load.eventsDelivered)  (\(String(format: "%.0f", deliveriesPerSecond))/s)",
            "bytes per event          \(String(format: "%.0f", bytesPerEvent))",
            "errors                   \(errorCount)\(load.errors.isEmpty ? "" : "  " + load.errors.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " "))",
            "drops                    \(load.drops)",
            "",
            "latency, ms                     p50      p99    p99.9      max",
            latencyRow("action → last recipient", load.actionLatency),
            latencyRow("ping round trip", load.pingLatency),
        ]
        if load.servers.count > 1 || load.redirects > 0 {
            lines += ["", "per server               matches  connections  actions/s  errors  drops  redirects  action p50 / p99 ms"]
            lines += load.servers.map { server in
                let share = server.load
                let perSecond = String(format: "%.0f", Double(share.actions) / max(share.seconds, 0.001))
                return "\(server.address.padding(toLength: 24, withPad: " ", startingAt: 0)) \(String(share.matches).leftPad(7))"
                    + " \(String(share.connections).leftPad(12)) \(perSecond.leftPad(10)) \(String(share.errors.values.reduce(0, +)).leftPad(7))"
                    + " \(String(share.drops).leftPad(6)) \(String(share.redirects).leftPad(10))  \(ms(share.actionLatency.p50)) / \(ms(share.actionLatency.p99))"
            }
        }
        if let relay {
            lines += ["", "reference relay          \(relay.linesDelivered) lines delivered  (\(String(format: "%.0f", relay.linesPerSecond))/s) over \(relay.connections) connections, \(relay.drops) drops",
                      "server / relay           \(relayRatio.map { String(format: "%.3f", $0) } ?? "-")× the relay's delivered lines per second"]
        }
        if let server {
            lines += ["", "server CPU               \(String(format: "%.2f", server.cpuSeconds)) s  (\(String(format: "%.0f", 100 * server.cpuSeconds / max(load.seconds, 0.001)))% of one core over the run, setup included)",
                      "server peak RSS          \(String(format: "%.1f", server.peakRSSMiB)) MiB"]
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object.
    package var json: String {
        func latency(_ p: Percentiles) -> JSONValue {
            ["samples": .int(Int64(p.count)), "p50Ms": .double(p.p50), "p99Ms": .double(p.p99), "p999Ms": .double(p.p999), "maxMs": .double(p.max)]
        }
        var members: [String: JSONValue] = [:]
        members["matches"] = .int(Int64(config.matches))
        members["spectatorsPerMatch"] = .int(Int64(config.spectatorsPerMatch))
        members["paceMs"] = .int(Int64(config.paceMs))
        members["seconds"] = .double(load.seconds)
        members["connections"] = .int(Int64(load.connections))
        members["actions"] = .int(Int64(load.actions))
        members["actionsPerSecond"] = .double(actionsPerSecond.rounded())
        members["gamesCompleted"] = .int(Int64(load.gamesCompleted))
        members["eventsDelivered"] = .int(Int64(load.eventsDelivered))
        members["deliveriesPerSecond"] = .double(deliveriesPerSecond.rounded())
        members["bytesPerEvent"] = .double(bytesPerEvent.rounded())
        members["errors"] = .int(Int64(errorCount))
        members["errorCodes"] = .object(load.errors.mapValues { .int(Int64($0)) })
        members["drops"] = .int(Int64(load.drops))
        members["actionLatency"] = latency(load.actionLatency)
        members["pingLatency"] = latency(load.pingLatency)
        members["machine"] = .string(machine)
        if let stolenMsPerCore { members["stolenMsPerCore"] = .array(stolenMsPerCore.map { .double($0.rounded()) }) }
        if let loopbackReceive { members["loopbackReceiveCores"] = .array(loopbackReceive.cores.map { .int(Int64($0)) }) }
        members["redirects"] = .int(Int64(load.redirects))
        members["servers"] = .array(load.servers.map { server in
            let share = server.load
            return .object(["address": .string(server.address), "matches": .int(Int64(share.matches)),
                            "connections": .int(Int64(share.connections)), "actions": .int(Int64(share.actions)),
                            "errors": .int(Int64(share.errors.values.reduce(0, +))), "drops": .int(Int64(share.drops)),
                            "redirects": .int(Int64(share.redirects)), "actionLatency": latency(share.actionLatency),
                            "pingLatency": latency(share.pingLatency)])
        })
        if let relay {
            members["relayLinesDelivered"] = .int(Int64(relay.linesDelivered))
            members["relayLinesPerSecond"] = .double(relay.linesPerSecond.rounded())
            members["relayDrops"] = .int(Int64(relay.drops))
            members["relayRatio"] = relayRatio.map { .double(($0 * 1000).rounded() / 1000) } ?? .null
        }
        if let server {
            members["serverCpuSeconds"] = .double((server.cpuSeconds * 100).rounded() / 100)
            members["serverPeakRssMiB"] = .double((server.peakRSSMiB * 10).rounded() / 10)
        }
        return JSONWriter.string(.object(members))
    }

    /// "2 cores, 23 GiB, <model name>", from /proc.
    package static func describeMachine() -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpu.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let totalLine = meminfo.split(separator: "\n").first ?? ""
        let kilobytes = totalLine.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        let memory = String(format: "%.0f GiB", kilobytes / 1_048_576)
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(memory), \(model)"
    }
}

extension String {
    fileprivate func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
