import Foundation
import Glibc

/// CPU time and peak memory of a process, from /proc.
package struct ProcessStats: Sendable, Equatable {
    /// User plus system CPU seconds.
    package var cpuSeconds: Double
    /// Peak resident set size (VmHWM), in MiB.
    package var peakRSSMiB: Double

    package static func read(pid: Int32) -> ProcessStats? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return parse(stat: stat, status: status, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Fields 14 and 15 of /proc/PID/stat (after the parenthesised name, which may hold spaces)
    /// are user and system time in clock ticks; VmHWM in /proc/PID/status is in kB.
    package static func parse(stat: String, status: String, ticksPerSecond: Double) -> ProcessStats? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After ")": field 3 (state) is fields[0], so field N is fields[N - 3].
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let hwm = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        let kilobytes = hwm.flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Double($0) } } ?? 0
        return ProcessStats(cpuSeconds: (user + system) / ticksPerSecond, peakRSSMiB: kilobytes / 1_024)
    }
}
