import Foundation

/// Which cores do the receive work of loopback packets (receive packet steering on `lo`). By
/// default none is named and each packet's receive work (TCP's receive path, the reader's
/// wake-up) is done by the core that sent it: a server pinned to one core then does its thousands
/// of clients' receive work as well as its own, where over a network their machines do it, and
/// when that work piles up the kernel's `ksoftirqd` takes the server's core from its loop for
/// milliseconds. Steered to the load's core (`echo 2 > /sys/class/net/lo/queues/rx-0/rps_cpus`,
/// as root; `echo 0` undoes it), the server's core does the server's work. A bench only reads it,
/// and says which it ran under: it never changes the machine.
package struct LoopbackSteering: Sendable, Equatable {
    /// The cores named by the device's receive queues, ascending; empty when none is steered.
    package var cores: [Int]

    package init(cores: [Int]) { self.cores = cores }

    /// The steering of `device` now; nil when the kernel does not show it.
    package static func read(device: String = "/sys/class/net/lo") -> LoopbackSteering? {
        let queues = device + "/queues"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: queues) else { return nil }
        var cores = Set<Int>()
        var seen = false
        for name in names where name.hasPrefix("rx-") {
            guard let text = try? String(contentsOfFile: "\(queues)/\(name)/rps_cpus", encoding: .utf8),
                  let named = Self.cores(ofMask: text) else { continue }
            seen = true
            cores.formUnion(named)
        }
        return seen ? LoopbackSteering(cores: cores.sorted()) : nil
    }

    /// The cores a CPU mask names, as the kernel writes one: hexadecimal words of 32 bits,
    /// comma-separated, the most significant first ("00000000,00000002" is core 1).
    package static func cores(ofMask mask: String) -> [Int]? {
        let words = mask.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",", omittingEmptySubsequences: false)
        var cores: [Int] = []
        for (index, word) in words.reversed().enumerated() {
            guard !word.isEmpty, let bits = UInt32(word, radix: 16) else { return nil }
            for bit in 0..<32 where bits & (1 << bit) != 0 { cores.append(index * 32 + bit) }
        }
        return cores.sorted()
    }

    /// "on the core that sent each packet" or "on core 1", for the report.
    package var description: String {
        cores.isEmpty ? "on the core that sent each packet" : "on core" + (cores.count > 1 ? "s " : " ") + cores.map(String.init).joined(separator: ", ")
    }
}
