import SetNet
import SetRules

/// The server's clockwork, owned by its loop: each match's next deadline, the spectator counts
/// waiting to be announced, and the server's own periodic work (the sweep, the round-trip
/// pings in slices, the pruning of finished journals). It only says what is due; `Server`
/// does it. Kept apart so the loop's timeout is computed from one place.
final class ServerTimers {
    /// How often the sweep runs (idle connections, journal syncs, overdue log lines).
    static let sweepMs: Int64 = 1_000
    static let pruneIntervalMs: Int64 = 60_000
    /// How often a slice of the connections is visited for round-trip pings, and in how many
    /// slices they are: each connection once per `RoundTrips.intervalMs`. Pinging every seat in
    /// one sweep wrote thousands of pings in one turn and read their pongs in the next, stalling
    /// every player's input behind them (1,000 duels: action p99 26 ms against 5 ms off); slices
    /// of 100 ms still brought 200 pongs back in one batch, and a question waiting behind them
    /// took p99 1.1-1.9 ms where 10 ms slices (20 pongs) give 0.5-0.8 ms (accounts bench).
    static let measureSliceMs: Int64 = 10
    static var measureSlots: Int { Int(RoundTrips.intervalMs / measureSliceMs) }

    /// Whether round trips are measured at all (lag compensation on).
    private let measuring: Bool
    private var deadlines = DeadlineQueue<String>()
    /// The deadline each match is queued for: a match is queued again only when it changes, and a
    /// queued entry that no longer matches is skipped when it comes due.
    private var scheduled: [String: Instant] = [:]
    /// Matches whose spectator count waits to be announced, by when.
    private var announcements = DeadlineQueue<String>()
    private var announcing: Set<String> = []
    private var nextSweep: Instant
    /// When the next slice of connections is due a round-trip ping (lag compensation on).
    private var nextMeasure: Instant
    private var measureSlot = 0
    /// The duels whose round trips are looked at in each turn of the pings: every one within a
    /// second (`Server.announceRoundTrips(at:)`).
    private var roundTripPass = SlicedPass<String>(turnsPerPass: Int(sweepMs / measureSliceMs))
    private var nextPrune: Instant
    /// When the lobby's next open challenge expires, to be announced then (`Challenges`).
    var challengeExpiry: Instant?
    /// When the next held arena starts or ends (`ArenaRoom`), to pair or stop pairing then.
    var arenaDeadline: Instant?
    /// When the next scheduled arena is due to be made (`ArenaSchedule`).
    var arenaSchedule: Instant?

    init(measuringRoundTrips measuring: Bool, at now: Instant) {
        self.measuring = measuring
        nextSweep = now.adding(Self.sweepMs)
        nextMeasure = now.adding(Self.measureSliceMs)
        nextPrune = now.adding(Self.pruneIntervalMs)
    }

    /// Queues a match's timers for `deadline`; nil: it has none.
    func schedule(_ name: String, at deadline: Instant?) {
        guard let deadline else {
            scheduled[name] = nil
            return
        }
        guard scheduled[name] != deadline else { return }
        scheduled[name] = deadline
        deadlines.add(name, at: deadline)
    }

    /// Queues a match whose spectator count changed for its next allowed announcement.
    func noteSpectators(_ name: String, due: Instant?) {
        guard let due, announcing.insert(name).inserted else { return }
        announcements.add(name, at: due)
    }

    /// The earliest instant any of these timers has work, or `other` if sooner.
    func earliest(_ other: Instant?) -> Instant {
        var next = min(deadlines.earliest ?? nextSweep, nextSweep)
        if let other { next = min(next, other) }
        if let due = announcements.earliest { next = min(next, due) }
        if let expiry = challengeExpiry { next = min(next, expiry) }
        if let arena = arenaDeadline { next = min(next, arena) }
        if let schedule = arenaSchedule { next = min(next, schedule) }
        if measuring { next = min(next, nextMeasure) }
        return next
    }

    /// The matches whose timers are due, each once, as they were last scheduled.
    func dueMatches(at now: Instant) -> [String] {
        var due: [String] = []
        deadlines.popDue(at: now) { name, deadline in
            guard scheduled[name] == deadline else { return }
            scheduled[name] = nil
            due.append(name)
        }
        return due
    }

    /// The matches whose spectator count may be announced now.
    func dueAnnouncements(at now: Instant) -> [String] {
        let due = announcements.popDueKeys(at: now)
        for name in due { announcing.remove(name) }
        return due
    }

    /// Whether an open challenge's time is up at `now`.
    func challengeExpiryDue(at now: Instant) -> Bool {
        challengeExpiry.map { $0 <= now } ?? false
    }

    /// Whether a scheduled arena is due to be made at `now`.
    func arenaScheduleDue(at now: Instant) -> Bool {
        arenaSchedule.map { $0 <= now } ?? false
    }

    /// Whether a held arena's start or end has come at `now`.
    func arenaDeadlineDue(at now: Instant) -> Bool {
        arenaDeadline.map { $0 <= now } ?? false
    }

    /// The slice of connections due its round-trip pings now, if one is.
    func dueMeasureSlot(at now: Instant) -> Int? {
        guard measuring, now >= nextMeasure else { return nil }
        defer {
            measureSlot = (measureSlot + 1) % Self.measureSlots
            nextMeasure = now.adding(Self.measureSliceMs)
        }
        return measureSlot
    }

    /// The matches whose round trips are due a look in this turn of the pings, of `current`.
    func roundTripSlice(of current: () -> [String]) -> ArraySlice<String> {
        roundTripPass.slice(of: current)
    }

    /// Whether the sweep is due now; it is then next due a second later.
    func sweepDue(at now: Instant) -> Bool {
        guard now >= nextSweep else { return false }
        nextSweep = now.adding(Self.sweepMs)
        return true
    }

    /// Whether finished journals are due a pruning now.
    func pruneDue(at now: Instant) -> Bool {
        guard now >= nextPrune else { return false }
        nextPrune = now.adding(Self.pruneIntervalMs)
        return true
    }
}
