import SetRules

/// Hands out seeds as `SeedSource` says; used only on the loop thread. Counting goes on across
/// restarts when the server keeps a data folder, and never deals a seed that folder dealt
/// before: not one its state file counted past (`ServerState.nextSeed`), nor one whose game its
/// accounts store holds (the state file lost or set aside), so each game's commitment is its own.
final class SeedCounter {
    private var source: SeedSource
    private let state: ServerState?
    private let start: UInt64?
    private let dealtBefore: (UInt64) -> Bool

    init(_ source: SeedSource, state: ServerState?, dealtBefore: @escaping (UInt64) -> Bool) {
        self.source = source
        self.state = state
        self.dealtBefore = dealtBefore
        if case .counting(let start) = source { self.start = start } else { start = nil }
    }

    func next() -> UInt64 {
        switch source {
        case .random:
            // 2^64 seeds: a repeat is as likely as guessing a seat token.
            var generator = SystemRandomNumberGenerator()
            return generator.next()
        case .counting(let next):
            var seed = next
            repeat {
                if let state, let start {
                    seed = state.nextSeed(countingFrom: start)
                } else {
                    seed = source.countedSeed
                    source = .counting(from: seed &+ 1)
                }
            } while dealtBefore(seed)
            return seed
        }
    }
}

private extension SeedSource {
    var countedSeed: UInt64 {
        switch self {
        case .counting(let next): next
        case .random: 0
        }
    }
}
