/// How long `serve` keeps trying to start while the shared store cannot be reached (a
/// PostgreSQL restarting, or still starting beside it): a node started by hand, with no
/// orchestrator to start it again, would otherwise stay down after one refused connection.
/// Every other start error is final at once.
package struct StartPatience: Sendable, Equatable {
    /// The longest time spent waiting between tries, in all.
    package var totalMs: Int64 = 30_000
    /// The first wait; each next one doubles, up to `longestWaitMs`.
    package var firstWaitMs: Int64 = 1_000
    package var longestWaitMs: Int64 = 8_000

    package init() {}

    /// The waits before each try after the first: 1, 2, 4, 8, 8… s, adding up to `totalMs`.
    package var waits: [Int64] {
        var waits: [Int64] = [], next = max(1, firstWaitMs), spent: Int64 = 0
        while spent < totalMs {
            let wait = min(next, longestWaitMs, totalMs - spent)
            waits.append(wait)
            spent += wait
            next = min(next * 2, longestWaitMs)
        }
        return waits
    }

    /// Runs `start` until it succeeds, fails for good, or the waits run out; `wait` sleeps the
    /// milliseconds given and answers false when the server was told to stop meanwhile. Each
    /// retry is said in the log with its reason.
    package func start<Started>(_ start: () throws(ServerStartError) -> Started, log: ServerLog,
                                wait: (Int64) -> Bool) throws(ServerStartError) -> Started {
        var waits = self.waits[...]
        while true {
            do {
                return try start()
            } catch where error.isWorthRetrying && !waits.isEmpty {
                let next = waits.removeFirst()
                log("\(error); trying again in \(next) ms")
                guard wait(next) else { throw error }
            }
        }
    }
}
