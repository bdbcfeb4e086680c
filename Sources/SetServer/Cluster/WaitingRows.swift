import SetRules

/// This node's rows in the store's `waiting` table, as the loop knows them: which a pairing
/// decision must keep, and which to delete now that their duel filled, emptied, or was never
/// made. Pure: the lobby's and the connections' state are handed in.
struct WaitingRows {
    /// Where one row (or the row a decision under way may write) stands.
    enum Row: Equatable {
        /// A decision is under way that writes this row if nobody waits.
        case asked(Variant)
        /// The store decided the player `by` waits here; their duel is not made yet.
        case unmade(Variant, by: ConnectionID)
        /// The duel is made, and its row stands while it waits for a player.
        case made(Variant)

        var variant: Variant {
            switch self {
            case .asked(let variant), .unmade(let variant, _), .made(let variant): variant
            }
        }
    }

    /// What the lobby says of a duel made for pairing.
    enum DuelState: Equatable {
        /// Made, waiting for a second player who may sit now.
        case open
        /// Filled, started, or its player gone: nobody is to be sent there.
        case closed
        /// No such match here.
        case absent
    }

    private(set) var rows: [String: Row] = [:]

    /// A decision is asked for, which names `candidate` for the duel the player waits in if nobody does.
    mutating func asked(_ candidate: String, variant: Variant) {
        rows[candidate] = .asked(variant)
    }

    /// The store answered a decision: the candidate's row was written (the player `by` waits in
    /// it), or not (the player goes elsewhere, or nothing was decided).
    mutating func answered(_ candidate: String, wrote: Bool, by connection: ConnectionID) {
        guard case .asked(let variant) = rows[candidate] else { return }
        rows[candidate] = wrote ? .unmade(variant, by: connection) : nil
    }

    /// Whether a join naming `match` is for a duel of ours that is to be made (the player the
    /// store sent there, or one who came for it first, makes it).
    func isUnmade(_ match: String) -> Bool {
        switch rows[match] {
        case .asked, .unmade: true
        case .made, nil: false
        }
    }

    /// The rows of `variant` a decision keeps: those of duels still waiting, or still to be made.
    func keeping(_ variant: Variant, state: (String) -> DuelState) -> [String] {
        rows.filter { name, row in
            guard row.variant == variant else { return false }
            switch (row, state(name)) {
            case (_, .open), (.asked, .absent), (.unmade, .absent): return true
            case (_, .closed), (.made, .absent): return false
            }
        }.keys.sorted()
    }

    /// The rows to delete now: a made duel's once it is not open; an unmade one's once the player
    /// it was decided for is no longer joining (refused, or gone) and nobody made it. Those become
    /// `made` whose duel now exists.
    mutating func settle(state: (String) -> DuelState, joining: (ConnectionID) -> Bool) -> [String] {
        var gone: [String] = []
        for (name, row) in rows {
            switch (row, state(name)) {
            case (.asked, _): continue
            case (.unmade(let variant, _), .open), (.made(let variant), .open): rows[name] = .made(variant)
            case (.unmade(_, let by), .absent) where joining(by): continue
            case (.unmade, _), (.made, _): gone.append(name)
            }
        }
        for name in gone { rows[name] = nil }
        return gone.sorted()
    }
}
