import Foundation
import Glibc

/// The time a hypervisor ran something else on each of this machine's cores (`steal` in
/// /proc/stat): on a virtual machine, a core taken away for a moment is a latency the server did
/// not cause, so a bench says how much of it fell in its run.
package struct StolenTime: Sendable, Equatable {
    /// Per core, in the order /proc/stat lists them, in clock ticks.
    package var ticksPerCore: [Int64]

    package static func read() -> StolenTime? {
        (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)).flatMap(parse)
    }

    /// The `cpuN` lines of /proc/stat: after the name come user, nice, system, idle, iowait, irq,
    /// softirq and steal, the eighth; a kernel too old to count steal gives nil.
    package static func parse(_ stat: String) -> StolenTime? {
        var ticks: [Int64] = []
        for line in stat.split(separator: "\n") where line.hasPrefix("cpu") && !line.hasPrefix("cpu ") {
            let fields = line.split(separator: " ")
            guard fields.count > 8, let steal = Int64(fields[8]) else { return nil }
            ticks.append(steal)
        }
        return ticks.isEmpty ? nil : StolenTime(ticksPerCore: ticks)
    }

    /// Milliseconds stolen from each core since `earlier`.
    package func milliseconds(since earlier: StolenTime, ticksPerSecond: Double = Double(sysconf(Int32(_SC_CLK_TCK)))) -> [Double] {
        zip(ticksPerCore, earlier.ticksPerCore).map { Double($0 - $1) * 1_000 / ticksPerSecond }
    }
}
