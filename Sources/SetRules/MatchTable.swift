// The moves every mode shares: taking a trio off the table, dealing, scoring, ending.
extension Match {
    /// Removes a taken pick, refilling its slots from the deck only while the table would otherwise
    /// fall below the variant's table size; otherwise the table closes up, keeping its order.
    /// A chain card is not on the table, so it leaves no slot and is not reported as removed.
    mutating func removeTrio(_ trio: [Card], at now: Instant) -> [MatchEvent] {
        let removed = trio.filter(table.contains)
        let slots = removed.compactMap { table.firstIndex(of: $0) }.sorted()
        let refillCount = min(slots.count, max(0, variant.tableSize - (table.count - slots.count)), deck.count)
        let added = deck.draw(refillCount)
        for (slot, card) in zip(slots, added) { table[slot] = card }
        for slot in slots.dropFirst(added.count).reversed() { table.remove(at: slot) }
        tableChangedAt = now
        return [.tableChanged(removed: removed, added: added, table: table, deckCount: deck.count)] + finishIfNoSetsLeft()
    }

    /// Deals three more cards onto the end of the table.
    mutating func dealThree(at now: Instant) -> [MatchEvent] {
        let added = deck.draw(3)
        table += added
        tableChangedAt = now
        return [.tableChanged(removed: [], added: added, table: table, deckCount: deck.count)] + finishIfNoSetsLeft()
    }

    /// Set-Chain: a taken set becomes the chain the next set must link to.
    mutating func linkChain(_ taken: [Card]) {
        if variant == .chain { chain = taken }
    }

    /// Adds `points` (negative for a penalty) to a seat and returns its new score.
    mutating func score(_ points: Int, to seat: Seat) -> Int {
        scores[seat.rawValue] += points
        return scores[seat.rawValue]
    }

    mutating func setSelection(_ cards: [Card], of seat: Seat) -> [MatchEvent] {
        guard cards != selection else { return [] }
        selection = cards
        return [.selectionChanged(seat: seat, selection: cards)]
    }

    /// The result when the deck is empty and the table holds no valid pick.
    func endIfNoSetsLeft() -> MatchResult? {
        guard deck.isEmpty, !variant.hasCombination(table: table, chain: chain) else { return nil }
        return MatchResult(reason: .noSetsLeft, by: nil, scores: scores, winner: leader())
    }

    mutating func finishIfNoSetsLeft() -> [MatchEvent] {
        guard let ending = endIfNoSetsLeft() else { return [] }
        return finish(ending)
    }

    /// The seat with the higher score, or nil on a tie and in solo.
    func leader() -> Seat? {
        guard mode == .duel, scores[0] != scores[1] else { return nil }
        return scores[0] > scores[1] ? .first : .second
    }

    /// Ends the match: by resignation or forfeit the other seat wins, whatever the scores.
    mutating func end(reason: MatchResult.Reason, by seat: Seat) -> [MatchEvent] {
        let winner: Seat? = mode == .duel ? seat.other : nil
        return finish(MatchResult(reason: reason, by: seat, scores: scores, winner: winner))
    }

    mutating func finish(_ ending: MatchResult) -> [MatchEvent] {
        var events: [MatchEvent] = []
        if let window {
            events.append(.windowClosed(window, .matchEnded))
            self.window = nil
        }
        selection = []
        shownTrio = nil
        result = ending
        events.append(.matchEnded(ending))
        return events
    }
}

extension Match {
    /// Moves every running timer and the scoring clock later by `milliseconds`. Hosts pause a
    /// match while a player is away, then postpone it by the time it stood still.
    package mutating func postpone(by milliseconds: Int64) {
        guard milliseconds > 0, !isOver else { return }
        if var moved = window {
            moved.opened = moved.opened.adding(milliseconds)
            moved.deadline = moved.deadline.adding(milliseconds)
            window = moved
        }
        tableChangedAt = tableChangedAt.adding(milliseconds)
    }

    /// Moves an open window whose deadline is before `instant` so that it ends there, its length
    /// kept. After a crash the match's pause begins when the restarted clock does, up to a second
    /// after the server stopped: a window that ran out in that second ends when play goes on, so
    /// the window it opens (the opponent's second chance) is not charged for the standstill.
    package mutating func endNoEarlierThan(_ instant: Instant) {
        guard var late = window, late.deadline < instant, !isOver else { return }
        let lateBy = instant.milliseconds(since: late.deadline)
        late.opened = late.opened.adding(lateBy)
        late.deadline = instant
        window = late
    }
}
