import SetNet
import SetWire

/// Which `--seed` counted seeds already dealt a game the accounts store holds (a data folder
/// whose state file was lost), known on the loop without a store call there: the seeds ahead of
/// the counter are looked up a window at a time, the first at start (before the loop runs), each
/// next one off the loop while the counter is still half a window short of it. A seed beyond
/// what was looked up (a counter racing a store slower than half a window of new games) counts
/// as new, as every seed does in a folder whose state file is intact.
final class DealtSeeds {
    static let window: UInt64 = 1_024
    private let edge: AccountsEdge?
    private var dealt: Set<UInt64> = []
    /// The seeds looked up so far.
    private var checked: Range<UInt64> = 0..<0
    private var lookingUp = false

    /// `edge` nil: a store that starts empty (no data folder), so no seed was dealt before.
    init(_ source: SeedSource, keptIn edge: AccountsEdge?) {
        self.edge = edge
        guard let edge, case .counting(let start) = source else { return }
        let window = Self.window(from: start)
        dealt = (try? edge.synchronously { store throws(StoreError) in try Self.dealt(in: window, of: store) }) ?? []
        checked = window
    }

    /// Whether `seed` dealt a game the store holds, as far as was looked up.
    func contains(_ seed: UInt64) -> Bool {
        guard let edge else { return false }
        if !lookingUp {
            if seed < checked.lowerBound || seed > checked.upperBound {
                lookUp(Self.window(from: seed), with: edge)
            } else if checked.upperBound - seed <= Self.window / 2 {
                lookUp(Self.window(from: checked.upperBound), with: edge)
            }
        }
        return dealt.contains(seed)
    }

    private func lookUp(_ seeds: Range<UInt64>, with edge: AccountsEdge) {
        lookingUp = true
        edge.ask({ store throws(StoreError) in try Self.dealt(in: seeds, of: store) }) { [weak self] result in
            guard let self else { return }
            lookingUp = false
            guard case .success(let found) = result else { return }
            dealt.formUnion(found)
            checked = seeds.lowerBound == checked.upperBound ? checked.lowerBound..<seeds.upperBound : seeds
        }
    }

    private static func window(from start: UInt64) -> Range<UInt64> { start..<(start &+ window < start ? .max : start &+ window) }

    /// Runs on the accounts worker (or at start).
    private static func dealt(in seeds: Range<UInt64>, of store: AccountStore) throws(StoreError) -> Set<UInt64> {
        var found: Set<UInt64> = []
        for seed in seeds where try store.game(commitment: SeedCommitment.commitment(for: seed)) != nil { found.insert(seed) }
        return found
    }
}
