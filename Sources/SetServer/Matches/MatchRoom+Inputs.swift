import SetRatings
import SetRules
import SetWire

// The room's inputs, each with its own reply type, so that no caller meets an answer its input
// cannot have. Facts go through `fact`, changes that need their records written through `change`.
extension MatchRoom {
    /// Seats a new player with a fresh token. A refused seat tells nobody, not even of a stall
    /// its journal record caused: the players waiting saw no change, and the match goes on by
    /// itself once writes work.
    func join(name: String, token: String, connection: ConnectionID, seat: Seat?, account: SeatAccount? = nil, rating: Rating? = nil,
              at now: Instant) -> RoomOutcome<JoinReply> {
        var outcome = change(at: now, undone: .refused(MatchHost.journalStalled), mayIdle: true) { host, seeds in
            host.join(name: name, token: token, connection: connection, requested: seat, account: account, rating: rating,
                      at: now, seeds: seeds)
        }
        if case .refused = outcome.reply { outcome.deliveries = [] }
        return outcome
    }

    /// A seat's owner is back on `connection`.
    func resume(_ seat: Seat, connection: ConnectionID, at now: Instant) -> RoomOutcome<ResumeReply> {
        fact(at: now) { host, _ in host.resume(seat, on: connection, at: now) }
    }

    /// A seat's action.
    func act(_ action: Action, by seat: Seat, at now: Instant) -> RoomOutcome<ActReply> {
        change(at: now, undone: .refused(MatchHost.journalStalled)) { host, seeds in host.act(action, by: seat, at: now, seeds: seeds) }
    }

    /// The clock reached the match's `nextDeadline`.
    func fireTimers(at now: Instant) -> RoomOutcome<NoReply> {
        change(at: now, undone: NoReply(), mayIdle: true) { host, _ in host.advance(to: now) }
    }

    /// Its changed spectator count may be announced now.
    func announceSpectators(at now: Instant) -> RoomOutcome<NoReply> {
        fact(at: now) { host, _ in host.announceSpectators(at: now) }
    }

    /// The server restarted: every seat still connected is away.
    func restart(at now: Instant) -> RoomOutcome<NoReply> {
        fact(at: now) { host, _ in host.restart(at: now) }
    }
}
