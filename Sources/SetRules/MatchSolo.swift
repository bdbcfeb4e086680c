// Solo: one player touches cards; a third card is judged and stays on show until the next touch.
extension Match {
    mutating func performSolo(_ action: Action, at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        switch action {
        case .select(let card): return try touch(card, at: now)
        case .deal: return try soloDeal(at: now)
        case .hint: return try hint(by: .first, at: now)
        case .claim: throw .notInSolo("Calling \"Set!\"")
        case .pass: throw .noWindowToPass
        case .resign, .rematch: return []  // handled for every mode before we get here
        }
    }

    private mutating func touch(_ card: Card, at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        guard isSelectable(card) else { throw .cardNotOnTable(card) }
        if let shown = shownTrio {
            shownTrio = nil
            guard shown.isSet else { return setSelection([card], of: .first) }
            let events = setSelection([], of: .first) + removeTrio(shown.cards, at: now)
            return shown.cards.contains(card) || isOver ? events : events + setSelection([card], of: .first)
        }
        if selection.contains(card) {
            return setSelection(selection.filter { $0 != card }, of: .first)
        }
        let picked = selection + [card]
        let events = setSelection(picked, of: .first)
        return picked.count == variant.pickCount ? events + judgeSolo(picked, at: now) : events
    }

    private mutating func judgeSolo(_ trio: [Card], at now: Instant) -> [MatchEvent] {
        guard variant.isValid(trio, chain: chain) else {
            let score = score(-settings.wrongSetPenalty, to: .first)
            shownTrio = ShownTrio(cards: trio, isSet: false)
            return [.notASet(seat: .first, cards: trio, penalty: settings.wrongSetPenalty, score: score)]
        }
        let points = settings.setPoints(elapsedMs: now.milliseconds(since: tableChangedAt))
        let events: [MatchEvent] = [.setTaken(seat: .first, cards: trio, points: points, score: score(points, to: .first))]
        let rest = table.filter { !trio.contains($0) }
        linkChain(trio)
        if deck.isEmpty && !variant.hasCombination(table: rest, chain: chain) {
            // The last set: nothing would follow the next touch, so the game ends now.
            return events + setSelection([], of: .first) + removeTrio(trio, at: now)
        }
        shownTrio = ShownTrio(cards: trio, isSet: true)
        return events
    }

    private mutating func soloDeal(at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        if let shown = shownTrio, shown.isSet {
            shownTrio = nil
            return setSelection([], of: .first) + removeTrio(shown.cards, at: now)
        }
        guard !deck.isEmpty else { throw .deckEmpty }
        return penaltyIfSetOnTable(for: .first) + dealThree(at: now)
    }

    /// Shows a set, for the hint cost. In a duel only when the rules allow it and outside the
    /// opponent's window.
    mutating func hint(by seat: Seat, at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        if mode == .duel {
            guard settings.hintsInDuel else { throw .hintsDisabled }
            if let window, window.holder != seat { throw .notYourWindow(holder: window.holder) }
        }
        let taken = shownTrio?.isSet == true ? shownTrio!.cards : []
        guard let set = variant.firstCombination(table: table.filter { !taken.contains($0) }, chain: chain) else {
            throw .noSetOnTable
        }
        let score = score(-settings.hintCost, to: seat)
        return [.hintShown(seat: seat, cards: set, cost: settings.hintCost, score: score)]
    }

    /// The deal penalty, when a set was on the table at the moment of asking.
    mutating func penaltyIfSetOnTable(for seat: Seat) -> [MatchEvent] {
        guard variant.hasCombination(table: table, chain: chain) else { return [] }
        let score = score(-settings.dealPenalty, to: seat)
        return [.penalised(seat: seat, reason: .dealtWithSetOnTable, points: settings.dealPenalty, score: score)]
    }
}
