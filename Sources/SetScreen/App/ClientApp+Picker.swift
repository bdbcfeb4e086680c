import SetWire

/// A spectator's list of live matches being read page by page.
struct ListSweep: Hashable, Sendable {
    /// The pages read so far, in the server's order.
    var pages: [MatchListing]
    /// The cursor of the next page.
    var next: String
}

// The match picker reads every page of `list`, so every live match can be chosen, not only the
// first page's twenty.
extension ClientApp {
    /// The most matches a page after the first asks for (Protocol.md: at most 50).
    static let listPageLimit = 50
    /// The wait between two pages of one sweep: a list costs 5 messages of the rate limit, so
    /// this keeps a long list at half the default 50 a second.
    static let listPageGap: Int64 = 200

    /// The next request of the list: the following page of a sweep, or the first of a new one.
    /// A sweep's first page is the server's default size; later pages ask for the largest.
    mutating func requestList(at now: Int64) -> ClientEffect {
        // Should the answer never come, the list is asked for again after the usual interval.
        state.nextListAt = now + Self.listInterval
        guard let sweep = state.listSweep else { return .send(.list()) }
        return .send(.list(after: sweep.next, limit: Self.listPageLimit))
    }

    /// One page arrived: the next is asked for shortly, and the list on screen is replaced once
    /// the sweep is whole (or sooner, while it only grows what is shown).
    mutating func takeListPage(_ page: [MatchListing], next: String?, at now: Int64) {
        var pages = state.listSweep?.pages ?? []
        // The list changes while it is paged: a match that moved up may come twice.
        let seen = Swift.Set(pages.map(\.name))
        pages += page.filter { !seen.contains($0.name) }
        if let next {
            state.listSweep = ListSweep(pages: pages, next: next)
            state.nextListAt = now + Self.listPageGap
        } else {
            state.listSweep = nil
            state.nextListAt = now + Self.listInterval
        }
        if next == nil || pages.count >= state.listings?.count ?? 0 { state.listings = pages }
        state.pickerIndex = min(state.pickerIndex, max(0, (state.listings?.count ?? 0) - 1))
    }
}
