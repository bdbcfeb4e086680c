/// Why the arena refused a request.
package enum ArenaRefusal: String, Hashable, Sendable, Error {
    /// A player's join to a finished arena.
    case over
    /// Pause, resume or leave from someone not in the arena.
    case notInArena
    /// A game's end for a game the arena is not waiting for (ended already, or never dealt).
    case unknownGame
}

/// What one input did: refused, or changed the standings and boards (push them) and dealt these
/// duels (write them to the store, then tell their players).
package struct ArenaStep: Hashable, Sendable {
    package var refusal: ArenaRefusal?
    package var changed: Bool
    package var pairings: [ArenaGame]

    package init(refusal: ArenaRefusal? = nil, changed: Bool = false, pairings: [ArenaGame] = []) {
        self.refusal = refusal
        self.changed = changed
        self.pairings = pairings
    }
}

/// An arena: its clock, its players and the duels under way. Pure: time comes in with each
/// input; it returns what to do and performs nothing.
package struct Arena: Hashable, Sendable {
    package let startsAt: Int64
    package let endsAt: Int64
    package private(set) var players: [String: ArenaPlayer] = [:]
    /// The duels under way, by number.
    package private(set) var games: [Int: ArenaGame] = [:]
    /// The number the next dealt duel takes.
    package private(set) var nextGame: Int
    /// The last time it was told (its phase follows it).
    package private(set) var now: Int64
    /// Since when two free players who played each other last have waited for someone else to
    /// come free (nil: nobody waits so): after `repeatAfterMs` they play each other again.
    package private(set) var strandedSince: Int64?

    /// How long two free players who played each other last wait for another opponent while
    /// other duels are under way: long enough for a duel ending at about the same time to offer
    /// each a new one, short enough that nobody sits out a whole duel.
    package static let repeatAfterMs: Int64 = 1_500

    package init(startsAt: Int64, endsAt: Int64, now: Int64, nextGame: Int = 1) {
        self.startsAt = startsAt
        self.endsAt = max(endsAt, startsAt)
        self.now = now
        self.nextGame = nextGame
    }

    package var phase: ArenaPhase {
        if now < startsAt { return .starting }
        return now < endsAt ? .running : .finished
    }

    /// Finished with no game under way: the standings can no longer change.
    package var isFinal: Bool { phase == .finished && games.isEmpty }

    /// When its phase changes next, or two stranded players may play again (nil once finished).
    package var nextDeadline: Int64? {
        switch phase {
        case .starting: startsAt
        case .running: min(endsAt, strandedSince.map { $0 + Self.repeatAfterMs } ?? endsAt)
        case .finished: nil
        }
    }

    /// The players in standings order.
    package var standings: [ArenaPlayer] { ArenaStandings.ordered(players.values) }

    /// The duels under way, top board first: the highest sum of its players' scores, then the
    /// lower number.
    package var boards: [ArenaGame] {
        games.values.sorted { a, b in
            let sa = sum(a), sb = sum(b)
            return sa != sb ? sa > sb : a.number < b.number
        }
    }

    private func sum(_ game: ArenaGame) -> Int {
        game.players.reduce(0) { $0 + (players[$1]?.record.score ?? 0) }
    }

    /// Moves the clock to `time`: starting pairs everyone free; finishing pairs nobody again.
    package mutating func advance(to time: Int64) -> ArenaStep {
        let before = phase
        now = max(now, time)
        guard phase != before else {
            // Two stranded players whose wait for another opponent is over.
            guard phase == .running, let since = strandedSince, now - since >= Self.repeatAfterMs else { return ArenaStep() }
            let dealt = pairFree()
            return ArenaStep(changed: !dealt.isEmpty, pairings: dealt)
        }
        return ArenaStep(changed: true, pairings: pairFree())
    }

    /// `entrant` joins, or comes back (their points, streak and last opponent kept).
    package mutating func join(_ entrant: ArenaEntrant, at time: Int64) -> ArenaStep {
        now = max(now, time)
        guard phase != .finished else { return ArenaStep(refusal: .over) }
        pendingPauses.removeValue(forKey: entrant.name)
        if var player = players[entrant.name] {
            if case .paused = player.presence {
                player.presence = .active
                player.noShowsInARow = 0
            }
            player.entrant.bot = entrant.bot
            players[entrant.name] = player
        } else {
            players[entrant.name] = ArenaPlayer(entrant)
        }
        return ArenaStep(changed: true, pairings: pairFree())
    }

    /// `name` stops being paired (a game under way finishes first); `reason` says why.
    package mutating func pause(_ name: String, _ reason: ArenaPause = .asked, at time: Int64) -> ArenaStep {
        now = max(now, time)
        guard var player = players[name] else { return ArenaStep(refusal: .notInArena) }
        switch player.presence {
        case .paused(let was) where was == reason: return ArenaStep()
        case .paused(.left) where reason != .left: return ArenaStep()
        case .playing:
            // Their game ends first; pausing takes hold when it does.
            pendingPauses[name] = reason
            return ArenaStep()
        case .active, .paused:
            player.presence = .paused(reason)
            players[name] = player
            return ArenaStep(changed: true)
        }
    }

    /// Pauses asked for during a game, applied when it ends.
    private var pendingPauses: [String: ArenaPause] = [:]

    /// `name` is paired again.
    package mutating func resume(_ name: String, at time: Int64) -> ArenaStep {
        now = max(now, time)
        guard var player = players[name] else { return ArenaStep(refusal: .notInArena) }
        if pendingPauses.removeValue(forKey: name) != nil { return ArenaStep() }
        guard case .paused = player.presence else { return ArenaStep() }
        player.presence = .active
        player.noShowsInARow = 0
        players[name] = player
        return ArenaStep(changed: true, pairings: pairFree())
    }

    /// Undoes a dealt duel that could not be written to the store: nobody is told of it, and its
    /// players are free again (paired by `pairNow` after a delay the server chooses, or on the
    /// next change: not at once, so a failing store is not asked again in a loop).
    package mutating func cancel(game number: Int) {
        guard let game = games.removeValue(forKey: number) else { return }
        for name in game.players where players[name]?.playing == number {
            players[name]?.presence = pendingPauses.removeValue(forKey: name).map { .paused($0) } ?? .active
        }
    }

    /// Counts a duel's end (once its record is in the store) and pairs whoever is free.
    package mutating func end(game number: Int, _ end: ArenaGameEnd, at time: Int64) -> ArenaStep {
        now = max(now, time)
        guard let game = games.removeValue(forKey: number) else { return ArenaStep(refusal: .unknownGame) }
        count(game, end)
        return ArenaStep(changed: true, pairings: pairFree())
    }

    /// An arena as its store holds it: the players as they joined (their presence kept: a
    /// restart is no reason to pair someone paused), the games that ended in the order they
    /// were counted, and the games dealt and not yet ended. The standings are recounted from the
    /// ended games, so they are the same as before the restart, and nobody is paired by it.
    package static func restored(startsAt: Int64, endsAt: Int64, now: Int64, players: [(ArenaEntrant, ArenaPause?)],
                                ended: [(ArenaGame, ArenaGameEnd)], underWay: [ArenaGame]) -> Arena {
        var arena = Arena(startsAt: startsAt, endsAt: endsAt, now: now)
        for (entrant, _) in players { arena.players[entrant.name] = ArenaPlayer(entrant) }
        for (game, end) in ended {
            arena.count(game, end)
            arena.nextGame = max(arena.nextGame, game.number + 1)
        }
        for (entrant, pause) in players {
            if let pause { arena.players[entrant.name]?.presence = .paused(pause) }
        }
        for game in underWay {
            arena.games[game.number] = game
            arena.nextGame = max(arena.nextGame, game.number + 1)
            for name in game.players where arena.players[name] != nil {
                if case .paused(let pause) = arena.players[name]?.presence { arena.pendingPauses[name] = pause }
                arena.players[name]?.presence = .playing(game: game.number)
            }
        }
        return arena
    }

    /// Whoever is free now is paired (after a restore, or a cancelled deal).
    package mutating func pairNow(at time: Int64) -> ArenaStep {
        now = max(now, time)
        let dealt = pairFree()
        return ArenaStep(changed: !dealt.isEmpty, pairings: dealt)
    }

    /// Scores one game for both its players.
    private mutating func count(_ game: ArenaGame, _ end: ArenaGameEnd) {
        for (index, name) in game.players.enumerated() {
            guard var player = players[name] else { continue }
            let opponent = game.players[1 - index]
            let outcome = end.outcome(for: name)
            player.record.record(outcome)
            player.lastOpponent = opponent
            if end.wasPlayed() {
                let swing = switch outcome {
                case .win: 500
                case .draw: 0
                case .loss: -500
                }
                player.performanceSum += (players[opponent]?.rankingRating ?? ArenaPlayer.unratedRating) + swing
                player.performanceGames += 1
                player.noShowsInARow = 0
            } else if case .noShow(let absent) = end, absent.contains(name) {
                player.noShowsInARow += 1
            }
            if let pause = pendingPauses.removeValue(forKey: name) {
                player.presence = .paused(pause)
            } else if player.noShowsInARow >= ArenaPlayer.noShowLimit {
                player.presence = .paused(.noShows)
            } else if player.playing == game.number {
                player.presence = .active
            }
            players[name] = player
        }
    }

    /// Deals duels to the free players while the arena runs.
    private mutating func pairFree() -> [ArenaGame] {
        guard phase == .running else {
            strandedSince = nil
            return []
        }
        let free = standings.filter(\.isFree).map { ArenaPairing.Candidate(name: $0.name, lastOpponent: $0.lastOpponent) }
        let othersBusy = players.values.contains { $0.playing != nil }
        guard free.count >= 2 else {
            strandedSince = nil
            return []
        }
        let waitedEnough = strandedSince.map { now - $0 >= Self.repeatAfterMs } ?? false
        let pairs = ArenaPairing.pairs(free, othersBusy: othersBusy && !waitedEnough)
        // Two left over can only be two who played each other last: they wait, from now on (or
        // still), for another opponent, and after `repeatAfterMs` play again.
        strandedSince = free.count - 2 * pairs.count == 2 ? (strandedSince ?? now) : nil
        var dealt: [ArenaGame] = []
        for (a, b) in pairs {
            let game = ArenaGame(number: nextGame, players: [a.name, b.name])
            nextGame += 1
            games[game.number] = game
            players[a.name]?.presence = .playing(game: game.number)
            players[b.name]?.presence = .playing(game: game.number)
            dealt.append(game)
        }
        return dealt
    }
}
