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
    /// `lag` is what the server measured of the seats' delays, for a claim race (lag compensation);
    /// `id` is the request's, for an answer given later when the action waits behind a held claim.
    /// `seen` is a claim's last event seen by its sender, which tells which table it claims.
    func act(_ action: Action, by seat: Seat, at now: Instant, lag: ClaimLag = .off, seen: Int? = nil,
             id: JSONValue? = nil) -> RoomOutcome<ActReply> {
        act([PendingAction(action: action, claimedSeat: nil, seen: seen, id: id)], by: seat, at: now, lag: lag)[0]
    }

    /// A seat's actions from one read, in order, their records written together (`changes`).
    func act(_ actions: [PendingAction], by seat: Seat, at now: Instant, lag: ClaimLag = .off) -> [RoomOutcome<ActReply>] {
        changes(at: now, undone: .refused(MatchHost.journalStalled), actions.map { pending in
            { host, seeds in host.act(pending.action, by: seat, at: now, lag: lag, seen: pending.seen, knownSeq: pending.knownSeq,
                                                  id: pending.id, seeds: seeds) }
        })
    }

    /// A chat line; refused, like an action, while the journal cannot record it.
    func chat(_ text: String, in room: ChatRoom?, by speaker: ChatSpeaker, at now: Instant) -> RoomOutcome<ChatReply> {
        change(at: now, undone: .refused(MatchHost.journalStalled)) { host, _ in host.chat(text, in: room, by: speaker, at: now) }
    }

    /// The clock reached the match's `nextDeadline`.
    func fireTimers(at now: Instant) -> RoomOutcome<NoReply> {
        change(at: now, undone: NoReply(), mayIdle: true) { host, seeds in host.advance(to: now, seeds: seeds) }
    }

    /// Its changed spectator count may be announced now.
    func announceSpectators(at now: Instant) -> RoomOutcome<NoReply> {
        fact(at: now) { host, _ in host.announceSpectators(at: now) }
    }

    /// The server measured its players' round trips anew.
    func announceRoundTrips(_ ms: [Int64?], at now: Instant) -> RoomOutcome<NoReply> {
        fact(at: now) { host, _ in host.announceRoundTrips(ms, at: now) }
    }

    /// The server restarted: every seat still connected is away.
    func restart(at now: Instant) -> RoomOutcome<NoReply> {
        fact(at: now) { host, _ in host.restart(at: now) }
    }
}
