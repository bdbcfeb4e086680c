/// The rows this node placed in the shared store for new named matches, by the client address
/// whose `join` placed them, while no player has made them into a match: a placement writes a
/// row before any match exists, so one address may hold only so many (`AddressLimits.placements`)
/// and is refused past them before the store is asked. A share is freed when the store says the
/// match was made (or its row forgotten), or at the placement's deadline, when its node forgets
/// the row anyway. Pure: wall-clock milliseconds are handed in.
struct PlacementShares {
    /// One placement: asked of the store (its answer not back yet), or written until a deadline.
    private enum Share: Equatable {
        case asking
        case placed(until: Int64)
    }

    /// By address, then by match name; an address holding none is not kept.
    private var shares: [String: [String: Share]] = [:]

    /// How many placements `address` holds at `now`, those being asked included.
    func held(by address: String, at now: Int64) -> Int {
        shares[address]?.values.count { share in
            if case .placed(let until) = share { until > now } else { true }
        } ?? 0
    }

    /// When `address` next gets a share back by a deadline alone, in milliseconds from `now`.
    func nextFreedMs(for address: String, at now: Int64) -> Int64? {
        let deadlines = shares[address]?.values.compactMap { share -> Int64? in
            if case .placed(let until) = share { until } else { nil }
        } ?? []
        return deadlines.min().map { max(0, $0 - now) }
    }

    /// A placement of `match` for `address` is being asked of the store.
    mutating func asking(_ match: String, by address: String) {
        if shares[address]?[match] == nil { shares[address, default: [:]][match] = .asking }
    }

    /// The store's answer to that: the row written until `until`, or nil when nothing was
    /// written (a row was there already, or the store could not answer).
    mutating func answered(_ match: String, by address: String, placedUntil until: Int64?) {
        guard shares[address]?[match] == .asking else { return }
        if let until { shares[address]?[match] = .placed(until: until) } else { forget(match, of: address) }
    }

    /// Every match placed (its row written) whose share is still held: what to ask the store about.
    var placedMatches: [String] {
        shares.values.flatMap { byMatch in byMatch.compactMap { if case .placed = $0.value { $0.key } else { nil } } }.sorted()
    }

    /// Frees the shares of the `asked` matches the store no longer holds as placed (made into a
    /// match, or forgotten), and of every placement past its deadline at `now`.
    mutating func settle(asked: [String], stillPlaced: Set<String>, at now: Int64) {
        let settled = Set(asked).subtracting(stillPlaced)
        for (address, byMatch) in shares {
            for (match, share) in byMatch {
                guard case .placed(let until) = share, settled.contains(match) || until <= now else { continue }
                forget(match, of: address)
            }
        }
    }

    private mutating func forget(_ match: String, of address: String) {
        shares[address]?[match] = nil
        if shares[address]?.isEmpty == true { shares[address] = nil }
    }
}
