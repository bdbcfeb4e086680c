/// A tiny, fast, seeded random generator (SplitMix64, Steele et al. 2014). Implemented here rather
/// than taken from the platform so that a seed deals the same deck on every machine and version.
package struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in 0..<bound, by rejection so that no value is favoured. Written out
    /// because the standard library's bounded algorithm is not promised to stay the same.
    package mutating func uniform(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        let limit = UInt64.max - UInt64.max % range
        while true {
            let value = next()
            if value < limit { return Int(value % range) }
        }
    }

    /// A uniform double in [0, 1) from the top 53 bits.
    package mutating func unitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
