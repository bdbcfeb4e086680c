/// Latency samples in microseconds and what they add up to.
package struct Percentiles: Sendable, Equatable {
    package let count: Int
    package let p50: Double
    package let p99: Double
    package let p999: Double
    package let max: Double

    /// Nearest-rank percentiles of `samples` (in microseconds), reported in milliseconds.
    package init(microseconds samples: [UInt32]) {
        let sorted = samples.sorted()
        count = sorted.count
        func rank(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Swift.max(0, Swift.min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
            return Double(sorted[index]) / 1_000
        }
        p50 = rank(0.50)
        p99 = rank(0.99)
        p999 = rank(0.999)
        max = Double(sorted.last ?? 0) / 1_000
    }
}
