import SetRules
import SetWire

// Pauses: a seat away, or a journal that takes no writes. While the journal is stalled every
// action is refused and every timer stops (issue 10): nothing may be sent that is not on disk.
extension MatchHost {
    /// The refusal for anything that needs the journal while it is stalled.
    static let journalStalled = WireError(
        .journalFailed, "The server cannot save this match right now, so it is paused; it goes on by itself once saving works again.")

    /// The journal refused a write: every timer stops and every action is refused until it works
    /// again. Everyone in the match is told once, with a coded error. The stall's record is for
    /// the journal too, written (with what happens meanwhile) only once writes work again. A
    /// claim still held (and what waited behind it) is refused like any action now, each with
    /// its own id: every action gets its answer.
    mutating func stall(at now: Instant) -> HostOutput<NoReply> {
        guard stalledAt == nil else { return HostOutput() }
        stalledAt = now
        if phase == .playing && pausedAt == nil { pausedAt = now }
        let refused = refuseHeldClaim(with: Self.journalStalled)
        return HostOutput(messages: [.notice(Self.journalStalled)] + refused, journal: [.stalled(at: now)])
    }

    /// The journal takes writes again: the match goes on, if every seat is back. The record
    /// says how far the events have got, the `resumed` included.
    mutating func unstall(at now: Instant) -> HostOutput<NoReply> {
        stalledAt = nil
        let messages = resumeIfEveryoneIsBack(at: now)
        return HostOutput(messages: messages, journal: [.unstalled(seq: seq, at: now)], syncJournal: true)
    }

    /// Ends a pause once every seat is back and the journal takes writes: the windows and the
    /// scoring clock move on by the time the match stood still.
    mutating func resumeIfEveryoneIsBack(at now: Instant) -> [HostMessage] {
        guard let pausedAt, stalledAt == nil, seats.allSatisfy({ $0?.absentSince == nil }) else { return [] }
        self.pausedAt = nil
        guard case .playing(var running) = lifecycle else { return [] }
        running.postpone(by: now.milliseconds(since: pausedAt))
        running.endNoEarlierThan(now)
        update(running)
        return [emit(.resumed(window: running.window, tableChangedAt: running.tableChangedAt.milliseconds), at: now)]
    }

    // MARK: The away budget

    /// When a seat's current absence began to count: not before this game began.
    func countedSince(_ seat: Seat) -> Instant? {
        guard let since = seats[seat.rawValue]?.absentSince else { return nil }
        return max(since, tally.startedAt)
    }

    /// The seat that forfeits first if nobody comes back, and when: each seat may be away for
    /// `seatWaitMs` in all during a game.
    var nextForfeit: (seat: Seat, at: Instant)? {
        guard phase == .playing else { return nil }
        return mode.seats.compactMap { seat -> (seat: Seat, at: Instant)? in
            guard let since = countedSince(seat) else { return nil }
            return (seat, since.adding(max(0, seatWaitMs - tally.awayUsedMs[seat.rawValue])))
        }.min { $0.at < $1.at || ($0.at == $1.at && $0.seat < $1.seat) }
    }
}
