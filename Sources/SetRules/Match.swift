/// One game of Set, solo or duel, as a pure state machine. Hosts feed it actions and instants;
/// it answers with events and exposes the next instant at which a timer will fire. It reads no
/// clock and does no I/O, so the same seed and the same timed actions always give the same events.
package struct Match: Sendable {
    /// Cards on the table when a classic game starts and the size a taken set refills it to;
    /// each variant says its own (`Variant.tableSize`).
    package static let tableSize = 12

    package let mode: Mode
    /// Which game is played: the deck, the table size, the picks that count.
    package let variant: Variant
    package let settings: RuleSettings
    package let seed: UInt64
    package let startedAt: Instant

    package internal(set) var deck: Deck
    /// The table in slot order; a refill takes the slots of the cards it replaces.
    package internal(set) var table: [Card]
    package internal(set) var scores: [Int]
    /// The cards selected now: in a duel by the window holder, in solo by the player.
    package internal(set) var selection: [Card] = []
    /// The open window in a duel.
    package internal(set) var window: Window?
    /// When the table last changed; a set's points decay from here.
    package internal(set) var tableChangedAt: Instant
    /// In solo, the judged trio still on show until the next touch or deal.
    package internal(set) var shownTrio: ShownTrio?
    package internal(set) var result: MatchResult?
    package internal(set) var rematchAsked: [Seat] = []
    /// Set-Chain: the set taken just before, apart from the table; the next set must use exactly
    /// one of its cards. Empty before the first set and in the other variants.
    package internal(set) var chain: [Card] = []

    /// A solo trio that has been judged and waits for the next touch.
    package struct ShownTrio: Hashable, Sendable {
        package var cards: [Card]
        package var isSet: Bool

        package init(cards: [Card], isSet: Bool) {
            self.cards = cards
            self.isSet = isSet
        }
    }

    /// Deals a new game from `seed` at `start`.
    package init(mode: Mode, variant: Variant = .classic, settings: RuleSettings = .standard, seed: UInt64, at start: Instant) {
        self.init(mode: mode, variant: variant, settings: settings, seed: seed,
                  deck: Deck(seed: seed, of: variant.cards), at: start)
    }

    /// Deals a new game from a deck of known order; tests use it to set up exact tables.
    package init(mode: Mode, variant: Variant = .classic, settings: RuleSettings = .standard, seed: UInt64 = 0,
                deck: Deck, at start: Instant) {
        self.mode = mode
        self.variant = variant
        self.settings = settings
        self.seed = seed
        self.startedAt = start
        self.deck = deck
        self.table = self.deck.draw(variant.tableSize)
        self.scores = Array(repeating: 0, count: mode.seats.count)
        self.tableChangedAt = start
        if let ending = endIfNoSetsLeft() { result = ending }
    }

    package var isOver: Bool { result != nil }

    /// The next instant at which `advance(to:)` will fire a timer.
    package var nextDeadline: Instant? { isOver ? nil : window?.deadline }

    /// Every valid pick on the table now (with the chain, in Set-Chain).
    package var setsOnTable: [[Card]] { variant.combinations(table: table, chain: chain) }

    /// Whether a card may be touched: it is on the table or, in Set-Chain, in the chain.
    func isSelectable(_ card: Card) -> Bool { table.contains(card) || chain.contains(card) }

    /// What an action produced: the events, in order, and the refusal if the action was refused.
    /// Timers that were due are fired first, so `events` may be non-empty even when refused.
    package struct Outcome: Hashable, Sendable {
        package var events: [MatchEvent]
        package var refusal: RuleRefusal?
    }

    /// Fires every timer due at `now` and then applies `action` by `seat`. A refused action leaves
    /// the match exactly as the timers left it: every rule checks before it changes anything
    /// (the property tests hold it to that), so no defensive copy is needed.
    package mutating func apply(_ action: Action, by seat: Seat, at now: Instant) -> Outcome {
        var events = advance(to: now)
        do {
            events += try perform(action, by: seat, at: now)
            return Outcome(events: events, refusal: nil)
        } catch {
            return Outcome(events: events, refusal: error)
        }
    }

    /// Fires every timer whose deadline is at or before `now`.
    package mutating func advance(to now: Instant) -> [MatchEvent] {
        var events: [MatchEvent] = []
        while let window, !isOver, window.deadline <= now {
            events += expire(window)
        }
        return events
    }

    /// Ends the match because `seat` stayed away too long; hosts call it, never players.
    package mutating func forfeit(by seat: Seat) -> [MatchEvent] {
        guard !isOver else { return [] }
        return end(reason: .forfeited, by: seat)
    }

    private mutating func perform(_ action: Action, by seat: Seat, at now: Instant) throws(RuleRefusal) -> [MatchEvent] {
        guard mode.seats.contains(seat) else { throw .noSuchSeat(seat) }
        switch action {
        case .rematch: return try askForRematch(by: seat)
        case .resign:
            guard !isOver else { throw .matchOver }
            return end(reason: .resigned, by: seat)
        default:
            guard !isOver else { throw .matchOver }
        }
        switch mode {
        case .solo: return try performSolo(action, at: now)
        case .duel: return try performDuel(action, by: seat, at: now)
        }
    }

    private mutating func askForRematch(by seat: Seat) throws(RuleRefusal) -> [MatchEvent] {
        if mode == .solo { return [.rematchAgreed] }
        guard isOver else { throw .matchNotOver }
        guard !rematchAsked.contains(seat) else { throw .rematchAlreadyAsked }
        rematchAsked.append(seat)
        return rematchAsked.count == mode.seats.count ? [.rematchRequested(seat: seat), .rematchAgreed]
                                                      : [.rematchRequested(seat: seat)]
    }
}
