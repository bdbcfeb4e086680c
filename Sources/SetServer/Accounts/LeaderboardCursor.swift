/// Where a leaderboard page starts (issue 42 item 15): after the row ranked `rank`, found by its
/// key (rating, then account id, the board's order), so a page costs an index seek however deep
/// it is, never an `OFFSET` that reads and drops every row before it. On the wire it is the
/// `next` string, opaque to clients: `0` for the start, else `RANK:RATING:ACCOUNT`.
struct LeaderboardCursor: Equatable {
    /// The rank of the row the page follows: 0 at the start.
    var rank: Int
    /// That row's exact rating and account id; nil at the start.
    var key: (rating: Double, account: Int)?

    static let start = LeaderboardCursor(rank: 0, key: nil)

    init(rank: Int, key: (rating: Double, account: Int)?) {
        (self.rank, self.key) = (rank, key)
    }

    /// A cursor as `text` writes it; nil for anything else.
    init?(_ text: String) {
        if text == "0" { self = .start; return }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let rank = Int(parts[0]), rank > 0, let rating = Double(parts[1]), rating.isFinite,
              let account = Int(parts[2]), account >= 0 else { return nil }
        self.init(rank: rank, key: (rating, account))
    }

    /// The wire's `next`: the rating exactly (Swift's shortest text that reads back as the same double).
    var text: String {
        guard let key else { return "0" }
        return "\(rank):\(key.rating):\(key.account)"
    }

    static func == (lhs: LeaderboardCursor, rhs: LeaderboardCursor) -> Bool {
        lhs.rank == rhs.rank && lhs.key?.rating == rhs.key?.rating && lhs.key?.account == rhs.key?.account
    }
}
