import SetRatings
import SetRules

/// Each variant's leaderboard, kept in order as rated games land rather than computed again
/// (issue 32 item 7: ranking 100,000 accounts cost 9–31 ms after every rated game). A variant's
/// order is built from the book the first time it is asked for; after that each rated game moves
/// its two players only. Used only on the loop thread, through `Accounts`.
struct Rankings {
    /// One listed player: its exact rating, which orders the list, and its account.
    struct Entry: Equatable {
        var rating: Double
        var id: Int32

        /// Best first; equal ratings by account, oldest first.
        func precedes(_ other: Entry) -> Bool { rating > other.rating || (rating == other.rating && id < other.id) }
    }

    let policy: RatingPolicy
    private var ordered: [Variant: [Entry]] = [:]
    /// Accounts that met the policy's games, opponents and span in a variant (never undone).
    private var qualified: Swift.Set<Int> = []

    init(policy: RatingPolicy) { self.policy = policy }

    /// The variant's listed players, best first.
    mutating func ranked(_ variant: Variant, in book: AccountBook) -> [Entry] {
        if let list = ordered[variant] { return list }
        let list = book.accounts.compactMap { account -> Entry? in
            guard let rating = account.ratings[variant], isListed(account.id, variant, rating, in: book) else { return nil }
            return Entry(rating: rating.rating, id: Int32(account.id))
        }.sorted { $0.precedes($1) }
        ordered[variant] = list
        return list
    }

    /// Moves the players of a rated game that was just applied: `before` is each seat's rating
    /// before it (what the list held). Variants not built yet are left to be built when asked.
    mutating func update(after game: GameRecord, before: [Rating?], in book: AccountBook) {
        guard game.rated, var list = ordered[game.variant] else { return }
        for (seat, player) in game.players.enumerated() {
            guard let id = player.account, let account = book.account(id), let now = account.ratings[game.variant] else { continue }
            if let old = before[seat], let at = position(of: Entry(rating: old.rating, id: Int32(id)), in: list) { list.remove(at: at) }
            guard isListed(id, game.variant, now, in: book) else { continue }
            let entry = Entry(rating: now.rating, id: Int32(id))
            list.insert(entry, at: insertion(of: entry, in: list))
        }
        ordered[game.variant] = list
    }

    private mutating func isListed(_ id: Int, _ variant: Variant, _ rating: Rating, in book: AccountBook) -> Bool {
        guard !rating.isProvisional else { return false }
        let key = id &* 4 &+ variant.rankingSlot
        if qualified.contains(key) { return true }
        guard policy.qualifies(book.standing(of: id, in: variant, keeping: policy.leaderboardOpponents)) else { return false }
        qualified.insert(key)
        return true
    }

    /// Where `entry` goes to keep the order: the first place whose entry it precedes.
    private func insertion(of entry: Entry, in list: [Entry]) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].precedes(entry) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func position(of entry: Entry, in list: [Entry]) -> Int? {
        let at = insertion(of: entry, in: list)
        return at < list.count && list[at] == entry ? at : nil
    }
}

private extension Variant {
    var rankingSlot: Int {
        switch self {
        case .classic: 0
        case .junior: 1
        case .chain: 2
        case .ultra: 3
        }
    }
}
