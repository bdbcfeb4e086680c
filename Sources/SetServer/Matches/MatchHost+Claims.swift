import SetRules
import SetWire

// Claim races under lag compensation. A claim that arrives while nobody holds the table may be
// held for as long as the rival, further away, could still have sent an earlier one; the window
// goes to the earliest estimated send time (arrival minus the capped one-way estimate), a tie to
// the first received. A seat's round trip counts only while its `RaceLedger` has credit. With
// compensation off every action goes straight to `perform`, as before.
extension MatchHost {
    /// Applies a seat's action, or holds it in a claim race; a held request's answer comes later
    /// as a `HostMessage.answer` to its seat, with `id`.
    /// A claim's `seen` is the last event its sender had received (see `staleClaimRefusal`).
    /// `knownSeq`: what the server had sent the sender before this claim's read (`PendingAction`).
    mutating func act(_ action: Action, by seat: Seat, at now: Instant, lag measured: ClaimLag = .off, seen: Int? = nil,
                      knownSeq: Int? = nil, id: JSONValue? = nil, seeds: () -> UInt64) -> HostOutput<ActReply> {
        if action == .claim, let unseen = unseenTableRefusal(seen: seen, knownSeq: knownSeq) {
            return HostOutput(reply: .refused(WireError(unseen, playerNames: playerNames)))
        }
        if action == .claim, sawSoonerThanItsRoundTrip(seat, at: now, measured: measured, seen: seen) { races.ledger.forfeit(seat) }
        if action == .claim, let seen, let openedSeq = races.lastClaimSeq, seen >= openedSeq, let openedAt = races.lastClaimOpenedAt {
            races.noteGap(seat, now.milliseconds(since: openedAt))
        }
        let lag = races.ledger.limiting(races.bounded(measured))
        guard lag.isOn, mode == .duel, stalledAt == nil, pausedAt == nil, case .playing(let running) = lifecycle else {
            return perform(action, by: seat, at: now, lag: lag, seeds: seeds)
        }
        if action == .claim, running.window == nil, races.heldClaim?.claim.seat != seat,
           let stale = staleClaimRefusal(by: seat, at: now, measured: measured, seen: seen) {
            return HostOutput(reply: .refused(WireError(stale, playerNames: playerNames)))
        }
        if races.heldClaim != nil { return actBehindHold(action, by: seat, at: now, lag: lag, id: id, seeds: seeds) }
        guard action == .claim, running.window == nil else { return perform(action, by: seat, at: now, lag: lag, seeds: seeds) }
        let claim = lag.entry(seat, at: now)
        let rivalCredit = lag.credit(seat.other)
        guard let decideAt = claim.holdUntil(rivalCredit: rivalCredit) else {
            // Nobody further away could have claimed earlier: decided on arrival, as without
            // compensation, and no race to journal.
            let output = perform(.claim, by: seat, at: now, lag: lag, seeds: seeds)
            if case .accepted = output.reply { claimOpenedWindow(claim, at: now) }
            return output
        }
        races.heldClaim = HeldClaim(claim: claim, rivalCreditMs: rivalCredit, capMs: lag.capMs, decideAt: decideAt, id: id)
        return HostOutput(reply: .held)
    }

    /// An action while a claim is held: the rival's claim races it, the rival's other actions are
    /// performed at once, and the holder's own wait their turn.
    ///
    /// Nothing the rival sends may be answered differently because a claim is held: a rival who
    /// could tell (a hint answered after a ping, say) would claim only then, and with a feigned
    /// distance win the window its rival found. So the rival's other actions are performed as if
    /// the held claim had not come yet, which, as far as the race can tell, it has not.
    private mutating func actBehindHold(_ action: Action, by seat: Seat, at now: Instant, lag: ClaimLag, id: JSONValue?,
                                        seeds: () -> UInt64) -> HostOutput<ActReply> {
        guard var held = races.heldClaim else { return perform(action, by: seat, at: now, lag: lag, seeds: seeds) }
        guard seat == held.claim.seat || action == .claim else {
            var output = perform(action, by: seat, at: now, lag: lag, seeds: seeds)
            // A game the rival just ended (a resignation) leaves no table to hold the claim for:
            // it is answered now, as a claim after the end would be, not in a game dealt later.
            guard phase == .over else { return output }
            output.append(settleHeldClaim(at: now, seeds: seeds))
            return output
        }
        guard action == .claim, seat != held.claim.seat else {
            guard held.queued.count < HeldClaim.queueLimit else {
                return HostOutput(reply: .refused(WireError(.rateLimited, "Too many requests while a claim race is decided; this one was dropped.")))
            }
            held.queued.append(QueuedAction(action: action, seat: seat, id: id))
            races.heldClaim = held
            return HostOutput(reply: .held)
        }
        let rival = lag.entry(seat, at: now)
        races.heldClaim = nil
        if rival.beats(held.claim) {
            var output = open(rival, against: held.claim, capMs: held.capMs, at: now, seeds: seeds)
            let lost = RuleRefusal.claimTaken(holder: seat, leadMs: held.claim.sentAt.milliseconds(since: rival.sentAt))
            output.messages.append(.answer(.error(WireError(lost, playerNames: playerNames), id: held.id), to: held.claim.seat))
            return drain(held.queued, into: output, at: now, seeds: seeds)
        }
        var won = open(held.claim, against: rival, capMs: held.capMs, at: now, seeds: seeds)
        won.messages += answer(won.reply, id: held.id, to: held.claim.seat)
        let lost = RuleRefusal.claimTaken(holder: held.claim.seat, leadMs: rival.sentAt.milliseconds(since: held.claim.sentAt))
        won.reply = .refused(WireError(lost, playerNames: playerNames))
        return drain(held.queued, into: won, at: now, seeds: seeds)
    }

    /// The hold ran out (or its seat left): the held claim takes the window, and what waited
    /// behind it follows in order.
    mutating func settleHeldClaim(at now: Instant, seeds: () -> UInt64) -> HostOutput<ActReply> {
        guard let held = races.heldClaim else { return HostOutput(reply: .held) }
        races.heldClaim = nil
        var output = open(held.claim, against: nil, capMs: held.capMs, at: now, seeds: seeds)
        output.messages += answer(output.reply, id: held.id, to: held.claim.seat)
        output.reply = .held
        return drain(held.queued, into: output, at: now, seeds: seeds)
    }

    /// The journal stalled while a claim was held: the claim and what waited behind it are
    /// refused with `error`, each answered with its own id, as the same requests would have been
    /// had they come without a hold (the stall undoes whatever the deciding would have written).
    mutating func refuseHeldClaim(with error: WireError) -> [HostMessage] {
        guard let held = races.heldClaim else { return [] }
        races.heldClaim = nil
        let waiting = [QueuedAction(action: .claim, seat: held.claim.seat, id: held.id)] + held.queued
        return waiting.map { .answer(.error(error, id: $0.id), to: $0.seat) }
    }

    /// Gives `claim` the window now, journaling what decided it (it was held, or raced a rival).
    private mutating func open(_ claim: RaceEntry, against rival: RaceEntry?, capMs: Int64, at now: Instant,
                               seeds: () -> UInt64) -> HostOutput<ActReply> {
        var output = perform(.claim, by: claim.seat, at: now, lag: .off, seeds: seeds)
        guard case .accepted = output.reply else { return output }
        claimOpenedWindow(claim, at: now)
        output.journal.append(.race(RaceDecision(winner: claim, loser: rival, capMs: capMs), at: now))
        return output
    }

    /// `claim` opened a claim window now: a later rival is told its margin against it, and the
    /// ledger counts the window against its seat.
    private mutating func claimOpenedWindow(_ claim: RaceEntry, at now: Instant) {
        races.lastClaim = claim
        races.lastClaimOpenedAt = now
        races.lastClaimSeq = seq
        races.ledger.opened(by: claim.seat)
    }

    /// A rival's claim made before its sender saw the last claim window open was for a table
    /// already taken, even if that window has closed since: it is refused as a lost race, never
    /// given a window on a table its sender had not seen, and never raced against a claim for the
    /// table that came after.
    ///
    /// A claim that says what it saw (`seen`, the seq of the last event its sender had received)
    /// is judged by that fact: it is for a taken table exactly when `seen` is before the window's
    /// `window_opened`. A claim sent after its sender saw the new table is a claim for the new
    /// table however quickly it follows. (A `seen` the match never sent only makes the claim as
    /// fresh as the newest event, which it may claim anyway.)
    ///
    /// A claim without `seen` is judged by time: pressed no later than the window opened, by its
    /// measured round trip (up to the cap). The measured round trip is used, not the credit: a
    /// player who feigns distance sees the table sooner than it claims to, and any claim it sends
    /// within its feigned round trip of the rival's window is one it could not have sent. A
    /// quick client that follows a taken set within its round trip is refused by this estimate:
    /// hence `seen`.
    func staleClaimRefusal(by seat: Seat, at now: Instant, measured: ClaimLag, seen: Int? = nil) -> RuleRefusal? {
        guard let winner = races.lastClaim, winner.seat != seat, let openedAt = races.lastClaimOpenedAt else { return nil }
        let sentAt = measured.entry(seat, at: now).sentAt
        if let seen {
            guard let openedSeq = races.lastClaimSeq, seen < openedSeq else { return nil }
        } else {
            guard sentAt <= openedAt else { return nil }
        }
        return .claimTaken(holder: winner.seat, leadMs: max(0, sentAt.milliseconds(since: winner.sentAt)))
    }

    /// A duel claim for a game whose table its sender had not been sent when the claim was read,
    /// or says it had not seen (`seen` before the game's `game_started`): written behind the join
    /// or rematch that dealt the game, or behind a join coming back to a table, it was sent blind.
    /// Without this the player completing a match, or one back from a pause, could send a claim
    /// with its join and take the first window before the other player could see the table.
    /// Whatever the compensation: it is a fact about what was sent, not a race.
    func unseenTableRefusal(seen: Int?, knownSeq: Int?) -> RuleRefusal? {
        guard mode == .duel, case .playing = lifecycle, let dealt = races.gameStartedSeq else { return nil }
        return min(seen ?? .max, knownSeq ?? .max) < dealt ? .tableNotSeen : nil
    }

    /// Whether a claim says it saw the last claim window open (`seen`) although its measured
    /// round trip (up to the cap) puts its pressing before that opening: its sender is nearer than
    /// its pongs make it look. Its seat forfeits the windows of credit it banked (`RaceLedger.
    /// forfeit`), so this claim and the next count on arrival. Without this a player feigning
    /// distance, who could before be refused such a claim as one for a taken table, would now
    /// have it credited; an honest far player's claim comes a real round trip after the window,
    /// and keeps its credit.
    func sawSoonerThanItsRoundTrip(_ seat: Seat, at now: Instant, measured: ClaimLag, seen: Int?) -> Bool {
        guard let seen, let openedSeq = races.lastClaimSeq, seen >= openedSeq, let openedAt = races.lastClaimOpenedAt else { return false }
        return measured.entry(seat, at: now).sentAt < openedAt
    }

    /// Performs the actions that waited behind a hold, each answered to its sender.
    private mutating func drain(_ queued: [QueuedAction], into output: HostOutput<ActReply>, at now: Instant,
                                seeds: () -> UInt64) -> HostOutput<ActReply> {
        var output = output
        for waiting in queued {
            let done = perform(waiting.action, by: waiting.seat, at: now, lag: .off, seeds: seeds)
            output.append(done)
            output.messages += answer(done.reply, id: waiting.id, to: waiting.seat)
        }
        return output
    }

    /// A late reply as its sender would have had it: an ack when it carried an id, or its error.
    private func answer(_ reply: ActReply, id: JSONValue?, to seat: Seat) -> [HostMessage] {
        switch reply {
        case .accepted(let seq): id.map { [.answer(.ack(id: $0, seq: seq), to: seat)] } ?? []
        case .refused(let error): [.answer(.error(error, id: id), to: seat)]
        case .held: []
        }
    }

    /// The seats' round trips, told to everyone when one appears or moves by `roundTripStepMs`.
    mutating func announceRoundTrips(_ ms: [Int64?], at now: Instant) -> HostOutput<NoReply> {
        guard roundTripsMoved(ms) else { return HostOutput(isFact: true) }
        races.roundTripMs = ms
        return HostOutput(messages: [.roundTrips(match: name, ms: ms)], isFact: true)
    }

    /// Whether `ms` differs from the round trips last announced by enough to tell everyone.
    func roundTripsMoved(_ ms: [Int64?]) -> Bool {
        ms.count != races.roundTripMs.count || zip(ms, races.roundTripMs).contains { new, old in
            switch (new, old) {
            case (nil, nil): false
            case (let new?, let old?): abs(new - old) >= Self.roundTripStepMs
            default: true
            }
        }
    }

    /// Smaller changes are not worth a line to everyone.
    static let roundTripStepMs: Int64 = 5

    /// A claim refused because the window is taken: under compensation its margin is told in
    /// estimated send time, against the claim that opened the window.
    func lateClaimRefusal(_ refusal: RuleRefusal, by seat: Seat, at now: Instant, lag: ClaimLag) -> (RuleRefusal, RaceDecision?) {
        guard lag.isOn, case .claimTaken(let holder, _) = refusal, let winner = races.lastClaim, winner.seat == holder else {
            return (refusal, nil)
        }
        let rival = lag.entry(seat, at: now)
        let decision = RaceDecision(winner: winner, loser: rival, capMs: lag.capMs)
        return (.claimTaken(holder: holder, leadMs: decision.marginMs ?? 0), decision)
    }
}
