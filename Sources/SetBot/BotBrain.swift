import SetRules
import SetWire

/// A bot's judgement, apart from any socket: it looks at what a player sees (a `MatchView`) and
/// plans timed actions. Whenever the situation changes, the old plan is dropped and a new one made.
package struct BotBrain: Sendable {
    package let level: BotLevel
    package let seat: Seat
    package let asksForRematch: Bool
    private let model: ReactionModel
    private var generator: SplitMix64
    private var situation: Situation?
    /// Actions still to send, each with the instant it is due.
    package private(set) var script: [(at: Instant, action: Action)] = []
    /// If nothing changes by then after the script ran out, look again: a refused action leaves
    /// the view as it was, and a bot must not wait forever.
    private var lookAgainAt: Instant?

    package init(level: BotLevel, seat: Seat, seed: UInt64, asksForRematch: Bool = true) {
        self.level = level
        self.seat = seat
        self.asksForRematch = asksForRematch
        model = ReactionModel(level: level)
        generator = SplitMix64(seed: seed)
    }

    /// What the bot reacts to; changes caused by its own claim do not count.
    struct Situation: Equatable {
        var game: Int, phase: MatchPhase, table: [Card], deck: Int, paused: Bool
        var window: Window?
        var rematchAsked: Bool
    }

    /// The instant the brain next wants to act, if any.
    package var nextWakeUp: Instant? { script.first?.at ?? lookAgainAt }

    /// Takes in the current view; replans if the situation changed.
    package mutating func observe(_ view: MatchView, at now: Instant) {
        let ownClaim = view.window.map { $0.holder == seat && $0.kind == .claim } ?? false
        let current = Situation(game: view.game, phase: view.phase, table: view.table, deck: view.deck,
                                paused: view.forfeitAt != nil, window: ownClaim ? situation?.window : view.window,
                                rematchAsked: view.rematchAsked.contains(seat))
        guard current != situation else { return }
        situation = current
        script = plan(view, at: now)
        lookAgainAt = nil
    }

    /// Drops the plan and makes a new one from `view`, with new delays: the table as if seen for
    /// the first time (a bot back from stepping out).
    package mutating func lookAfresh(at view: MatchView, now: Instant) {
        situation = nil
        observe(view, at: now)
    }

    /// Removes and returns the actions due at `now`.
    package mutating func due(at now: Instant, view: MatchView) -> [Action] {
        if script.isEmpty, let again = lookAgainAt, again <= now {
            lookAgainAt = nil
            situation = nil
            observe(view, at: now)
        }
        var actions: [Action] = []
        while let first = script.first, first.at <= now {
            actions.append(first.action)
            script.removeFirst()
        }
        if !actions.isEmpty && script.isEmpty {
            lookAgainAt = now.adding(max(200, Int64(model.meanMs(sets: 1))))
        }
        return actions
    }

    private mutating func plan(_ view: MatchView, at now: Instant) -> [(at: Instant, action: Action)] {
        switch view.phase {
        case .waiting: return []
        case .over:
            guard asksForRematch, !view.rematchAsked.contains(seat) else { return [] }
            return [(now.adding(level == .instant ? 0 : 2_500), .rematch)]
        case .playing: break
        }
        if view.forfeitAt != nil { return [] }
        // Whatever the variant counts as a pick: sets, chain sets or ultras.
        let sets = view.combinations
        let delay = model.delayMs(sets: sets.count, using: &generator)
        let start = now.adding(delay)
        if let window = view.window {
            guard window.holder == seat else { return [] }
            if window.kind == .claim { return [(now, .pass)] }  // a claim it no longer remembers
            // The time its window had left when the server told this view, on the server's clock:
            // the bot's own clock began with its run, so a deadline cannot be compared with it.
            let left = window.deadline.milliseconds(since: Instant(milliseconds: view.time))
            guard let set = pick(from: sets) else {
                return view.deck > 0 ? [(now.adding(max(0, min(delay, left.saturatingSubtracting(1)))), .deal)] : []
            }
            guard delay < left else { return [] }  // too slow: it does not see it in time
            return picks(set, from: start)
        }
        guard let set = pick(from: sets) else {
            return view.deck > 0 ? [(start, .deal)] : []
        }
        let trio = generator.unitInterval() < level.wrongClaimChance ? wrongPick(near: set, in: view) : set
        return [(start, .claim)] + picks(trio, from: start)
    }

    private func picks(_ trio: [Card], from start: Instant) -> [(at: Instant, action: Action)] {
        trio.enumerated().map { index, card in (start.adding(Int64(index + 1) * level.pickIntervalMs), .select(card)) }
    }

    private mutating func pick(from sets: [[Card]]) -> [Card]? {
        sets.isEmpty ? nil : sets[generator.uniform(below: sets.count)]
    }

    /// A near miss: a real pick with its last card swapped for a table card that spoils it.
    private mutating func wrongPick(near pick: [Card], in view: MatchView) -> [Card] {
        let kept = Array(pick.dropLast())
        let others = view.shownFreeTable.filter { !pick.contains($0) && !view.variant.isValid(kept + [$0], chain: view.chain) }
        guard !others.isEmpty else { return pick }
        return kept + [others[generator.uniform(below: others.count)]]
    }
}
