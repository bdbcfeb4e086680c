import SetRules
import SetWire

/// What the server measured of the seats' delays when an action arrives, and how much of it
/// may count: the lag compensation cap (`serve --lag-compensation-ms`; 0 turns it off).
///
/// A player far away sees a new table half a round trip late, and their claim takes another half
/// to arrive: at equal speed their claim arrives a whole round trip after a near player's. So a
/// claim is credited its seat's round trip (the median estimate), up to the cap, and races compare
/// arrival minus credit: when it was sent, counted from when its sender saw the table.
struct ClaimLag: Equatable {
    var capMs: Int64
    /// Each seat's round-trip estimate (`RoundTrips.medianMs`); 0 when unknown.
    var roundTripMs: [Int64]

    /// No compensation: every claim is decided on arrival, as before lag compensation.
    static let off = ClaimLag(capMs: 0, roundTripMs: [])

    var isOn: Bool { capMs > 0 }

    /// How much earlier than its arrival a seat's claim counts: its round-trip estimate, never
    /// more than the cap, so no delay (real or feigned) buys more than the cap.
    func credit(_ seat: Seat) -> Int64 {
        guard isOn, roundTripMs.indices.contains(seat.rawValue) else { return 0 }
        return min(max(0, roundTripMs[seat.rawValue]), capMs)
    }

    /// A claim by `seat` arriving at `now`, as a race sees it.
    func entry(_ seat: Seat, at now: Instant) -> RaceEntry {
        RaceEntry(seat: seat, arrivedAt: now, creditMs: credit(seat))
    }
}

/// One claim in a race: who, when it arrived, and how much earlier it counts (its credit).
struct RaceEntry: Equatable {
    var seat: Seat
    var arrivedAt: Instant
    var creditMs: Int64

    /// The estimated send time the race compares, on the clock of the table its sender saw:
    /// arrival minus the credit.
    var sentAt: Instant { arrivedAt.adding(-creditMs) }

    /// Whether this claim, received after `first`, wins the race against it: only a strictly
    /// earlier estimated send time does; a tie goes to the first received.
    func beats(_ first: RaceEntry) -> Bool { sentAt < first.sentAt }

    /// Until when a claim must be held so that the rival, with `rivalCredit`, could still prove an
    /// earlier send time; nil when no such claim can arrive any more (decide at once).
    func holdUntil(rivalCredit: Int64) -> Instant? {
        let last = sentAt.adding(rivalCredit)
        return last > arrivedAt ? last : nil
    }
}

/// A claim held back for the rival's, with the actions that arrived behind it.
struct HeldClaim: Equatable {
    var claim: RaceEntry
    /// The rival's credit when the claim came: the hold lasts until `claim.sentAt` plus it.
    var rivalCreditMs: Int64
    var capMs: Int64
    var decideAt: Instant
    /// The claim request's id, for its late ack.
    var id: JSONValue?
    /// Actions that came while it was held, in arrival order, performed once it is decided.
    var queued: [QueuedAction] = []

    /// More actions than this behind one hold are refused: a hold lasts at most the cap.
    static let queueLimit = 16
}

/// An action that waited behind a held claim.
struct QueuedAction: Equatable {
    var action: Action
    var seat: Seat
    var id: JSONValue?
}

/// What decided a claim race, journaled so that `setgame replay` can explain a close one.
struct RaceDecision: Equatable {
    var winner: RaceEntry
    /// The rival's claim, when it came in time to race.
    var loser: RaceEntry?
    var capMs: Int64
    /// How much later the loser's estimated send time was (nil without a loser).
    var marginMs: Int64? { loser.map { $0.sentAt.milliseconds(since: winner.sentAt) } }
}
