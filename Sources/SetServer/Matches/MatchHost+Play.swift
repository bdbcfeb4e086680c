import SetRatings
import SetRules
import SetWire

// The inputs of play: seats taken and given back, actions, timers. Each returns what it did;
// a change that needs its journal records written says so, and nothing is sent until they are.
extension MatchHost {
    // MARK: Joining and leaving

    /// Seats a new player; starts the game once every seat is taken. The seat (and the game it
    /// completes) is journaled first: a seat whose token is not on disk is refused.
    mutating func join(name playerName: String, token: String, connection: ConnectionID, requested: Seat?, account: SeatAccount? = nil,
                       rating: Rating? = nil, at now: Instant, seeds: () -> UInt64) -> HostOutput<JoinReply> {
        let seat: Seat
        switch self.seat(for: requested) {
        case .failure(let refusal): return HostOutput(reply: .refused(refusal))
        case .success(let found): seat = found
        }
        let free = mode.seats.filter { seats[$0.rawValue] == nil }
        let seed = match == nil && free.count == 1 ? seeds() : nil
        var output = HostOutput<JoinReply>(syncJournal: true, keepJournal: seed != nil && mode == .duel, reply: .seated(seat))
        output.journal = [.seated(seat: seat, name: playerName, token: token, at: now, account: account, rating: rating)]
        if let seed { output.journal.append(.game(number: game + 1, seed: seed, commitment: SeedCommitment.commitment(for: seed), at: now)) }
        seats[seat.rawValue] = SeatState(name: playerName, token: token, connection: connection, absentSince: nil, account: account,
                                         rating: rating)
        output.messages = [emit(.playerJoined(seat: seat, name: playerName, rating: rating?.rounded, provisional: rating?.isProvisional ?? false),
                                at: now)]
        if let seed { output.append(startGame(seed: seed, at: now)) }
        return output
    }

    /// A seat's owner is back on `connection`; the reply names the connection it replaces, if any.
    mutating func resume(_ seat: Seat, on connection: ConnectionID, at now: Instant) -> HostOutput<ResumeReply> {
        guard var state = seats[seat.rawValue] else { return HostOutput(reply: ResumeReply(replaced: nil)) }
        var output = HostOutput(isFact: true, reply: ResumeReply(replaced: state.connection))
        guard state.absentSince != nil else {
            state.connection = connection
            seats[seat.rawValue] = state
            return output
        }
        output.journal = [.back(seat: seat, at: now)]
        if phase == .playing, let since = countedSince(seat) { tally.awayUsedMs[seat.rawValue] += now.milliseconds(since: since) }
        state.connection = connection
        state.absentSince = nil
        seats[seat.rawValue] = state
        output.messages.append(emit(.presence(seat: seat, present: true, forfeitAt: forfeitDeadline?.milliseconds), at: now))
        output.messages += resumeIfEveryoneIsBack(at: now)
        return output
    }

    /// A player's connection is gone: the seat waits for them. A window they held ends at once,
    /// as a pass would: time away never stretches a window.
    mutating func leave(_ connection: ConnectionID, at now: Instant, seeds: () -> UInt64) -> HostOutput<NoReply> {
        guard let seat = seat(of: connection) else { return HostOutput() }
        // A claim still held is decided first, as if it had been taken on arrival, as it would
        // be without compensation; the seat then leaves as from any window.
        var output = HostOutput<NoReply>(isFact: true)
        if races.heldClaim != nil { output.append(settleHeldClaim(at: now, seeds: seeds)) }
        output.journal.append(.away(seat: seat, at: now))
        output.append(markAway(seat, keepingWindow: false, at: now))
        return output
    }

    /// A restart marks every seat still connected away. Only a restart keeps a window its
    /// player held: that absence is nobody's choice.
    mutating func restart(at now: Instant) -> HostOutput<NoReply> {
        var output = HostOutput<NoReply>(isFact: true)
        for seat in mode.seats where seats[seat.rawValue]?.connection != nil {
            output.append(markAway(seat, keepingWindow: true, at: now))
        }
        if !output.messages.isEmpty { output.journal = [.restarted(at: now)] }
        return output
    }

    private mutating func markAway(_ seat: Seat, keepingWindow: Bool, at now: Instant) -> HostOutput<NoReply> {
        guard var state = seats[seat.rawValue] else { return HostOutput() }
        var output = HostOutput<NoReply>()
        state.connection = nil
        state.absentSince = now
        seats[seat.rawValue] = state
        if !keepingWindow, case .playing(var running) = lifecycle {
            let events = running.holderLeft(seat, at: now)
            update(running)
            output = publish(events, at: now)
        }
        if phase == .playing && pausedAt == nil { pausedAt = now }
        let deadline = phase == .playing ? forfeitDeadline?.milliseconds : nil
        output.messages.append(emit(.presence(seat: seat, present: false, forfeitAt: deadline), at: now))
        return output
    }

    // MARK: Play

    /// The refusal for an action before both players have joined.
    static let notStarted = WireError(.waitingForOpponent, "The match starts when both players have joined.")

    /// Applies a seat's action at once (`act` decides first whether a claim waits for a rival's).
    /// Timers due first fire first, so their events may come back even with a refusal, journaled
    /// as a tick.
    mutating func perform(_ action: Action, by seat: Seat, at now: Instant, lag: ClaimLag = .off,
                          seeds: () -> UInt64) -> HostOutput<ActReply> {
        guard phase != .waiting else { return HostOutput(reply: .refused(Self.notStarted)) }
        if stalledAt != nil { return HostOutput(reply: .refused(Self.journalStalled)) }
        if pausedAt != nil && action != .resign {
            let away = seats.compactMap { $0 }.filter { $0.absentSince != nil }.map(\.name).joined(separator: " and ")
            return HostOutput(reply: .refused(WireError(.waitingForOpponent, "The match is paused until \(away) is back.")))
        }
        // While paused the match's timers stand still at the pause's start: a resignation then
        // closes an open window as `match_ended`, never as `expired` by a deadline the pause
        // has not yet moved on.
        let at = pausedAt ?? now
        guard let (outcome, isOver) = changeGame({ game in (game.apply(action, by: seat, at: at), game.isOver) }) else {
            return HostOutput(reply: .refused(Self.notStarted))
        }
        if isOver { pausedAt = nil }  // a resignation ends a pause with the game
        var told = publish(outcome.events, at: now)
        var dealt: UInt64?
        if outcome.events.contains(.rematchAgreed) {
            let seed = seeds()
            dealt = seed
            told.append(startGame(seed: seed, at: now))
        }
        let sync = phase == .over || dealt != nil
        if let refused = outcome.refusal {
            let (refusal, race) = lateClaimRefusal(refused, by: seat, at: now, lag: lag)
            var journal: [JournalRecord] = outcome.events.isEmpty ? [] : [.tick(seq: seq, at: now)]
            if let race { journal.append(.race(race, at: now)) }
            var output = HostOutput(messages: told.messages, journal: journal, syncJournal: sync,
                                    reply: ActReply.refused(WireError(refusal, playerNames: playerNames)))
            output.finished = told.finished
            return output
        }
        hasMove = true
        var journal: [JournalRecord] = [.acted(seat: seat, action: action, seq: seq, at: now)]
        // After the rematch that caused it, so a replay deals the game where the live match did.
        if let dealt { journal.append(.game(number: game, seed: dealt, commitment: commitment ?? "", at: now)) }
        var output = HostOutput(messages: told.messages, journal: journal, syncJournal: sync, keepJournal: true, reply: ActReply.accepted(seq: seq))
        output.finished = told.finished
        return output
    }

    /// Fires the timers and forfeits due at `now`; like an action, journaled (as a tick) first.
    mutating func advance(to now: Instant, seeds: () -> UInt64) -> HostOutput<NoReply> {
        guard stalledAt == nil, var running = match else { return HostOutput() }
        if let held = races.heldClaim, pausedAt == nil {
            guard held.decideAt <= now else { return HostOutput() }
            return settleHeldClaim(at: now, seeds: seeds).replying { _ in NoReply() }
        }
        let events: [MatchEvent]
        if pausedAt != nil {
            // The seat whose away budget ran out first forfeits.
            guard let (seat, deadline) = nextForfeit, deadline <= now else { return HostOutput() }
            events = running.forfeit(by: seat)
            pausedAt = nil
        } else {
            guard let deadline = running.nextDeadline, deadline <= now else { return HostOutput() }
            events = running.advance(to: now)
        }
        update(running)
        var output = publish(events, at: now)
        output.syncJournal = running.isOver
        if !events.isEmpty { output.journal = [.tick(seq: seq, at: now)] }
        return output
    }

    /// Deals a new game; a seat away at its start is away from its first instant, paused.
    private mutating func startGame(seed: UInt64, at now: Instant) -> HostOutput<NoReply> {
        game += 1
        let fresh = Match(mode: mode, variant: variant, settings: settings, seed: seed, at: now)
        deal(fresh)
        let commitment = SeedCommitment.commitment(for: seed)
        self.commitment = commitment
        tally = GameTally(seats: mode.seats.count, at: now)
        lastRatings = []
        insight = TableInsight(liveTable: fresh.table)
        let start = GameStart(game: game, table: fresh.table, deck: fresh.deck.count, scores: fresh.scores, commitment: commitment)
        var output = HostOutput<NoReply>(messages: [emit(.gameStarted(start), at: now)])
        races.gameStartedSeq = seq
        if let result = fresh.result {
            output.finished = finish(result, at: now)
            output.messages.append(emit(.gameOver(result, seed: seed), at: now))
            output.messages += retireTable()
            output.messages += releaseHeldChat()
        } else if seats.contains(where: { $0?.absentSince != nil }) {
            pausedAt = now
        }
        return output
    }

    /// Numbers rules events; the end of a game reveals its seed (and the output carries what the
    /// accounts are to record of it), and a hint's cards go only to the player who paid for it.
    mutating func publish(_ events: [MatchEvent], at now: Instant) -> HostOutput<NoReply> {
        var messages: [HostMessage] = []
        messages.reserveCapacity(events.count + 1)
        var finished: FinishedGame?
        for event in events {
            switch event {
            case .matchEnded(let result):
                finished = finish(result, at: now)
                messages.append(emit(.gameOver(result, seed: match?.seed), at: now))
                messages += retireTable()
                messages += releaseHeldChat()
            case .tableChanged(_, _, let table, _):
                // No count while the game is on: the table it replaced shares most of its cards
                // with this one, so even a retired table's count tells of the live one.
                messages.append(emit(.rules(event), at: now))
                insight.liveTable = table
                insight.liveChain = match?.chain ?? []
            case .hintShown(let seat, _, let cost, let score):
                let others = number(.rules(.hintShown(seat: seat, cards: [], cost: cost, score: score)), at: now)
                messages.append(.event(others, to: .everyoneBut(seat)))
                messages.append(.hint(WireEvent(match: name, seq: seq, time: now.milliseconds, body: .rules(event)), to: seat))
            case .setTaken(let seat, _, _, _):
                if tally.setTimes.indices.contains(seat.rawValue) { tally.setTimes[seat.rawValue].append(Int(now.milliseconds(since: tally.lastSetAt))) }
                tally.lastSetAt = now
                messages.append(emit(.rules(event), at: now))
            default:
                messages.append(emit(.rules(event), at: now))
            }
        }
        var output = HostOutput<NoReply>(messages: messages)
        output.finished = finished
        return output
    }

    /// A game ended: the match is over, and what the accounts are to record of it goes out with
    /// the input's output, for the room to hand on.
    private mutating func finish(_ result: MatchResult, at now: Instant) -> FinishedGame {
        let seated = mode.seats.map { seat in
            let state = seats[seat.rawValue]
            return FinishedGame.Seated(account: state?.account?.id, name: state?.name ?? "player \(seat.rawValue + 1)",
                                       casual: state?.account?.casual ?? true, sets: tally.setTimes[seat.rawValue].count,
                                       setTimes: tally.setTimes[seat.rawValue])
        }
        let finished = FinishedGame(match: name, game: game, commitment: commitment ?? "", mode: mode, variant: variant, result: result,
                                    seats: seated, endedAt: now.milliseconds, durationMs: now.milliseconds(since: tally.startedAt))
        end(finished)
        return finished
    }

    /// Numbers an event for everyone.
    mutating func emit(_ body: EventBody, at now: Instant) -> HostMessage {
        .event(number(body, at: now), to: .everyone)
    }

    private mutating func number(_ body: EventBody, at now: Instant) -> WireEvent {
        seq += 1
        lastActivity = max(lastActivity, now)
        return WireEvent(match: name, seq: seq, time: now.milliseconds, body: body)
    }

    /// The game ended: only now may spectators learn how many sets its last table held, which
    /// no player can use any more.
    private mutating func retireTable() -> [HostMessage] {
        let count = variant.combinations(table: insight.liveTable, chain: insight.liveChain).count
        insight.retiredSets = count
        return [.insight(match: name, seq: seq, setsOnTable: count)]
    }
}
