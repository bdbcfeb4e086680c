import Foundation
import Glibc
import SetNet
import Synchronization

/// `setgame bench --fairness`: two racers of equal speed, one near the server and one behind a
/// delaying relay, race for claim windows on the real server, with lag compensation on and off;
/// it prints each side's share of the windows.
package enum FairnessBench {
    /// One race setting: the far side's one-way delay and jitter, and the server's cap (0: off).
    /// With `feignMs` the "far" side is a cheat instead: its link is as near as the other's, but
    /// it answers the server's echo pings that much late, to be credited a distance it is not.
    package struct Scenario: Equatable, Sendable {
        package var delayMs: Int
        package var jitterMs: Int
        package var capMs: Int
        package var feignMs: Int

        package init(delayMs: Int, jitterMs: Int, capMs: Int, feignMs: Int = 0) {
            self.delayMs = delayMs
            self.jitterMs = jitterMs
            self.capMs = capMs
            self.feignMs = feignMs
        }

        var label: String {
            let link = jitterMs > 0 ? "\(delayMs) ms ±\(jitterMs)" : "\(delayMs) ms"
            let far = feignMs > 0 ? "far side near but answering pings \(feignMs) ms late" : "far side \(link) each way"
            return far + ", " + (capMs > 0 ? "compensation \(capMs) ms" : "compensation off")
        }
    }

    /// What one scenario gave: windows won by the near and the far racer.
    package struct Outcome: Equatable, Sendable {
        package var scenario: Scenario
        package var near: Int
        package var far: Int

        package var races: Int { near + far }
        package var farShare: Double { races == 0 ? 0 : Double(far) / Double(races) }
        package var line: String {
            String(format: "%@: near %5.1f %%, far %5.1f %% of %d races", scenario.label,
                   100 * (1 - farShare), 100 * farShare, races)
        }
    }

    /// Both racers think for the same spread of times, so equal players should split the races.
    static let thinkMs: ClosedRange<Int64> = 50...250
    /// Long enough for the server's first echo pings (at the join, then every 2 s) to be answered.
    static let warmUpMs: Int64 = 2_500

    /// Runs the scenarios side by side (each with its own server and relays: the time goes on
    /// network waits, not CPU) and prints one line each; `races` per scenario.
    package static func run(_ scenarios: [Scenario], races: Int, signals: StopSignals) -> [Outcome]? {
        Sockets.ignoreBrokenPipes()
        let results = Mutex<[Int: Outcome]>([:])
        let failed = Atomic<Bool>(false)
        let group = DispatchGroup()
        for (index, scenario) in scenarios.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let outcome = race(scenario, races: races, index: index, signals: signals) else {
                    failed.store(true, ordering: .relaxed)
                    return
                }
                results.withLock { $0[index] = outcome }
            }
        }
        group.wait()
        guard !failed.load(ordering: .relaxed) else { return nil }
        return results.withLock { found in scenarios.indices.compactMap { found[$0] } }
    }

    private static func race(_ scenario: Scenario, races: Int, index: Int, signals: StopSignals) -> Outcome? {
        let folder = NSTemporaryDirectory() + "setgame-fairness-\(getpid())-\(index)"
        let server: BenchServer
        do {
            server = try BenchServer(folder: folder, arguments: ["--lag-compensation-ms", String(scenario.capMs), "--seed", "1"],
                                     signals: signals)
        } catch {
            Bench.warn("setgame bench: \(error)")
            return nil
        }
        defer { server.stop() }
        // The first seconds go to measuring round trips: races count from then on.
        let tally = RaceTally(countingFrom: MonotonicTime.rawMilliseconds() + warmUpMs)
        do {
            let near = try DelayRelay(to: server.port, delayMs: 0)
            let far = try DelayRelay(to: server.port, delayMs: scenario.delayMs, jitterMs: scenario.jitterMs, seed: UInt64(index + 1))
            defer { near.stop(); far.stop() }
            let match = "fair-\(index)"
            let deadline = MonotonicTime.rawMilliseconds() + Int64(races) * 3_000 + 20_000
            let done: @Sendable () -> Bool = { tally.total >= races || MonotonicTime.rawMilliseconds() > deadline }
            let group = DispatchGroup()
            let broken = Atomic<Bool>(false)
            for (port, name, seed) in [(near.port, "near", UInt64(11)), (far.port, "far", UInt64(29))] {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    do {
                        let pongDelayMs = name == "far" ? Int64(scenario.feignMs) : 0
                        try FairnessRacer(port: port, name: name, match: match, thinkMs: thinkMs, seed: seed, tally: tally,
                                          pongDelayMs: pongDelayMs).run(until: done)
                    } catch {
                        Bench.warn("setgame bench: \(error)")
                        broken.store(true, ordering: .relaxed)
                    }
                }
                usleep(50_000)  // near takes seat 0 first
            }
            group.wait()
            if broken.load(ordering: .relaxed) { return nil }
        } catch {
            Bench.warn("setgame bench: \(error)")
            return nil
        }
        let counts = tally.counts
        return Outcome(scenario: scenario, near: counts[0], far: counts[1])
    }
}
