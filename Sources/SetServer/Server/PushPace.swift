import SetRules

/// How often a list sent whole to everyone following it (the lobby, an arena's standings and
/// boards) may be pushed: a burst of `burst` pushes, then one a second. Each push goes to every
/// follower and holds every entry, so one client changing its own entry over and over (a lobby
/// name, an arena pause) made followers × entries of output per line it sent, whatever its rate
/// limit. A change is pushed at its turn's end while the burst lasts; past it, the changes of the
/// next second go together when it ends.
struct PushPace {
    static let burst = 8
    static let intervalMs: Int64 = 1_000
    /// Pushes that may go now, as of `counted`.
    private var available = Self.burst
    private var counted: Instant?

    /// Whether a push may go at `now`.
    func allows(at now: Instant) -> Bool { refilled(at: now).available > 0 }

    /// When a push held back now may go: the next second's end.
    func nextAllowed(after now: Instant) -> Instant? {
        guard let counted, refilled(at: now).available == 0 else { return nil }
        return counted.adding((now.milliseconds(since: counted) / Self.intervalMs + 1) * Self.intervalMs)
    }

    mutating func pushed(at now: Instant) {
        self = refilled(at: now)
        available -= 1
    }

    /// The pushes regained since `counted`, one a second, up to the burst.
    private func refilled(at now: Instant) -> PushPace {
        guard let counted else { return PushPace(available: available, counted: now) }
        let seconds = max(0, now.milliseconds(since: counted)) / Self.intervalMs
        guard seconds > 0 else { return self }
        return PushPace(available: Int(min(Int64(Self.burst), Int64(available) + seconds)), counted: counted.adding(seconds * Self.intervalMs))
    }

    private init(available: Int, counted: Instant?) {
        (self.available, self.counted) = (available, counted)
    }

    init() {}
}
