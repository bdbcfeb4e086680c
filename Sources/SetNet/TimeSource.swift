import Glibc
import SetRules
import Synchronization

/// Where "now" comes from. Servers and bots read time only through this, so tests can drive it.
package protocol TimeSource: Sendable {
    func now() -> Instant
}

/// The system's monotonic clock, in milliseconds since this value was made: never jumps.
package struct MonotonicTime: TimeSource {
    private let origin: Int64

    package init() { origin = Self.rawMilliseconds() }

    package func now() -> Instant { Instant(milliseconds: Self.rawMilliseconds() - origin) }

    /// Milliseconds on CLOCK_MONOTONIC.
    package static func rawMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Nanoseconds on CLOCK_MONOTONIC, for latency measurements.
    package static func rawNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

/// A clock that moves only when told: timers in tests fire exactly when the test says.
package final class ManualTime: TimeSource {
    private let current: Mutex<Int64>

    package init(_ start: Int64 = 0) { current = Mutex(start) }

    package func now() -> Instant { Instant(milliseconds: current.withLock { $0 }) }

    package func advance(by milliseconds: Int64) {
        current.withLock { $0 += milliseconds }
    }

    package func set(_ milliseconds: Int64) {
        current.withLock { $0 = milliseconds }
    }
}

/// Another clock moved by a fixed amount: a restarted server continues its journals' time.
package struct ShiftedTime: TimeSource {
    package let base: any TimeSource
    package let shift: Int64

    package init(_ base: any TimeSource, by shift: Int64) {
        self.base = base
        self.shift = shift
    }

    package func now() -> Instant { base.now().adding(shift) }
}
