import SetRules

/// A match's claim races under lag compensation (`MatchHost+Claims`): the claim held for a rival,
/// the claim that opened the current window, each seat's ledger, and the round trips last told.
struct RaceState {
    /// A claim held back for a rival's that may have been sent earlier.
    var heldClaim: HeldClaim?
    /// The claim that opened the current claim window, as the race saw it: a later rival is told
    /// its margin in estimated send time.
    var lastClaim: RaceEntry?
    /// When that window opened (a held claim's, when its race was decided).
    var lastClaimOpenedAt: Instant?
    /// The seq of that window's `window_opened`: a claim that saw it is for the table after.
    var lastClaimSeq: Int?
    /// The seq of the game's `game_started`: a claim whose sender had not been sent it was for
    /// no table of this game (`MatchHost.unseenTableRefusal`).
    var gameStartedSeq: Int?
    /// Each seat's claim windows lost minus won: whether its round trip may count in a race.
    var ledger: RaceLedger
    /// Each seat's round trip as last announced (lag compensation on), for snapshots.
    var roundTripMs: [Int64?] = []
    /// Each seat's latest claim gaps (`noteGap`), oldest first, at most `RoundTrips.kept`.
    private(set) var claimGapsMs: [[Int64]]

    init(seats: Int) {
        ledger = RaceLedger(seats: seats)
        claimGapsMs = Array(repeating: [], count: seats)
    }

    /// A claim by `seat` that saw a window open (`seen`) arrived `ms` after that opening: the
    /// window_opened went out, reached its sender, and the claim came back within `ms`, so its
    /// true round trip is at most that. Pongs can be answered late; this cannot be made longer
    /// than it is, since the claim itself is what arrived.
    mutating func noteGap(_ seat: Seat, _ ms: Int64) {
        guard claimGapsMs.indices.contains(seat.rawValue) else { return }
        if claimGapsMs[seat.rawValue].count == RoundTrips.kept { claimGapsMs[seat.rawValue].removeFirst() }
        claimGapsMs[seat.rawValue].append(max(0, ms))
    }

    /// The lag a race credits: each seat's round trip no more than its smallest recent claim gap.
    /// An honest far player's gaps are its round trip plus its reaction, above the round trip; a
    /// player answering pings late shows, by a quick claim, how near it really is.
    func bounded(_ lag: ClaimLag) -> ClaimLag {
        var bounded = lag
        for (index, gaps) in claimGapsMs.enumerated() where bounded.roundTripMs.indices.contains(index) {
            if let least = gaps.min() { bounded.roundTripMs[index] = min(bounded.roundTripMs[index], least) }
        }
        return bounded
    }
}
