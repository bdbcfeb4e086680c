import Glibc
import SetRules
import Synchronization

/// Where "now" comes from. Servers and bots read time only through this, so tests can drive it.
public protocol TimeSource: Sendable {
    func now() -> Instant
}

/// The system's monotonic clock, in milliseconds since this value was made: never jumps.
public struct MonotonicTime: TimeSource {
    private let origin: Int64

    public init() { origin = Self.rawMilliseconds() }

    public func now() -> Instant { Instant(milliseconds: Self.rawMilliseconds() - origin) }

    /// Milliseconds on CLOCK_MONOTONIC.
    public static func rawMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Nanoseconds on CLOCK_MONOTONIC, for latency measurements.
    public static func rawNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

/// A clock that moves only when told: timers in tests fire exactly when the test says.
public final class ManualTime: TimeSource {
    private let current: Mutex<Int64>

    public init(_ start: Int64 = 0) { current = Mutex(start) }

    public func now() -> Instant { Instant(milliseconds: current.withLock { $0 }) }

    public func advance(by milliseconds: Int64) {
        current.withLock { $0 += milliseconds }
    }

    public func set(_ milliseconds: Int64) {
        current.withLock { $0 = milliseconds }
    }
}

/// Another clock moved by a fixed amount: a restarted server continues its journals' time.
public struct ShiftedTime: TimeSource {
    public let base: any TimeSource
    public let shift: Int64

    public init(_ base: any TimeSource, by shift: Int64) {
        self.base = base
        self.shift = shift
    }

    public func now() -> Instant { base.now().adding(shift) }
}
