import Glibc

/// The server's CPU spent on one arena's own work (pairing its free players, ordering and
/// encoding its standings), measured on the loop thread's clock, so issue 44's benchmark can set
/// it beside the CPU its duels took. Told once in the log when the arena's standings are final.
struct ArenaCPU {
    private(set) var nanoseconds: UInt64 = 0
    /// Whether the final figure was logged.
    var told = false

    /// Runs `work`, adding the thread's CPU time it took.
    mutating func measure<T>(_ work: () -> T) -> T {
        let start = Self.threadNanoseconds()
        defer { nanoseconds &+= Self.threadNanoseconds() &- start }
        return work()
    }

    /// This thread's CPU time so far.
    static func threadNanoseconds() -> UInt64 {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
