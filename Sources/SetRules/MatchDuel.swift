// Duel: "Set!" wins an exclusive claim window; failure hands the opponent a second chance; a deal
// hands the other player a risk-free grace window.
extension Match {
    mutating func performDuel(_ action: Action, by seat: Seat, at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        switch action {
        case .claim: return try claim(by: seat, at: now)
        case .select(let card): return try select(card, by: seat, at: now)
        case .deal: return try duelDeal(by: seat, at: now)
        case .pass: return try pass(by: seat, at: now)
        case .hint: return try hint(by: seat, at: now)
        case .resign, .rematch: return []  // handled for every mode before we get here
        }
    }

    private mutating func claim(by seat: Seat, at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        if let window {
            if window.holder == seat { throw .alreadyYourWindow }
            if window.kind == .claim { throw .claimTaken(holder: window.holder, leadMs: now.milliseconds(since: window.opened)) }
            throw .notYourWindow(holder: window.holder)
        }
        return open(.claim, for: seat, at: now)
    }

    private mutating func select(_ card: Card, by seat: Seat, at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        guard let window else { throw .claimFirst }
        guard window.holder == seat else { throw .notYourWindow(holder: window.holder) }
        guard table.contains(card) else { throw .cardNotOnTable(card) }
        if selection.contains(card) {
            return setSelection(selection.filter { $0 != card }, of: seat)
        }
        let picked = selection + [card]
        let events = setSelection(picked, of: seat)
        return picked.count == 3 ? events + judge(picked, in: window, at: now) : events
    }

    private mutating func judge(_ trio: [Card], in window: Window, at now: Instant) -> [MatchEvent] {
        let seat = window.holder
        var events: [MatchEvent]
        if SetLogic.isSet(trio) {
            let points = settings.setPoints(elapsedMs: now.milliseconds(since: tableChangedAt))
            events = [.setTaken(seat: seat, cards: trio, points: points, score: score(points, to: seat))]
            events += setSelection([], of: seat) + close(.decided)
            return events + removeTrio(trio, at: now)
        }
        // A wrong trio in a deal grace window is free: the grace is for looking, not for guessing.
        let penalty = window.kind == .dealGrace ? 0 : settings.wrongSetPenalty
        events = [.notASet(seat: seat, cards: trio, penalty: penalty, score: score(-penalty, to: seat))]
        events += setSelection([], of: seat) + close(.decided)
        return window.kind == .claim ? events + open(.secondChance, for: seat.other, at: now) : events
    }

    private mutating func duelDeal(by seat: Seat, at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        var events: [MatchEvent] = []
        if let window {
            guard window.holder == seat else { throw .notYourWindow(holder: window.holder) }
            guard window.kind != .claim else { throw .finishYourClaim }
        }
        guard !deck.isEmpty else { throw .deckEmpty }
        if window != nil { events += setSelection([], of: seat) + close(.dealt) }
        events += penaltyIfSetOnTable(for: seat) + dealThree(at: now)
        return isOver ? events : events + open(.dealGrace, for: seat.other, at: now)
    }

    mutating func pass(by seat: Seat, at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        guard let window, window.holder == seat else { throw .noWindowToPass }
        if window.kind == .claim { return claimFailed(window, end: .passed, at: now) }
        return setSelection([], of: seat) + close(.passed)
    }

    /// Fires an expired window; called by `advance(to:)`. Follow-up windows start at the deadline,
    /// not at the moment the host noticed, so replays agree to the millisecond.
    mutating func expire(_ window: Window) -> [MatchEvent] {
        if window.kind == .claim { return claimFailed(window, end: .expired, at: window.deadline) }
        return setSelection([], of: window.holder) + close(.expired)
    }

    /// A claim that ran out or was passed: a penalty, and the opponent's second chance.
    private mutating func claimFailed(_ window: Window, end: WindowEnd, at instant: Instant) -> [MatchEvent] {
        let seat = window.holder
        let reason: PenaltyReason = end == .passed ? .claimPassed : .claimRanOut
        let penalty = settings.claimTimeoutPenalty
        var events = setSelection([], of: seat) + close(end)
        events.append(.penalised(seat: seat, reason: reason, points: penalty, score: score(-penalty, to: seat)))
        return events + open(.secondChance, for: seat.other, at: instant)
    }

    private mutating func open(_ kind: WindowKind, for seat: Seat, at instant: Instant) -> [MatchEvent] {
        let length = switch kind {
        case .claim: settings.claimWindowMs
        case .secondChance: settings.secondChanceMs
        case .dealGrace: settings.dealGraceMs
        }
        let opened = Window(kind: kind, holder: seat, opened: instant, deadline: instant.adding(length))
        window = opened
        return [.windowOpened(opened)]
    }

    private mutating func close(_ end: WindowEnd) -> [MatchEvent] {
        guard let window else { return [] }
        self.window = nil
        return [.windowClosed(window, end)]
    }
}
