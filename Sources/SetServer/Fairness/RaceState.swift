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
    /// Each seat's claim windows lost minus won: whether its round trip may count in a race.
    var ledger: RaceLedger
    /// Each seat's round trip as last announced (lag compensation on), for snapshots.
    var roundTripMs: [Int64?] = []

    init(seats: Int) { ledger = RaceLedger(seats: seats) }
}
