import SetRatings
import SetRules
import SetWire

/// One match on the server, as a value: its seats, spectators and games, and the numbering of
/// its events. It takes inputs (`handle`) and returns what they produce: messages with their
/// recipients, journal records, a reply. It does no I/O: `MatchRoom` journals, encodes and sends.
struct MatchHost {
    /// A taken seat.
    struct SeatState {
        var name: String
        var token: String
        var connection: ConnectionID?
        var absentSince: Instant?
        /// The account that took the seat; nil: a guest.
        var account: SeatAccount?
        /// Its rating in this match's variant as last known, for the scoreboard: journaled as it
        /// was when it sat (its `player_joined` showed it), then read from the accounts at a start.
        var rating: Rating?
    }

    let name: String
    let mode: Mode
    /// The game every deal of this match plays, chosen by whoever created it.
    let variant: Variant
    let settings: RuleSettings
    /// How long a playing match waits for an absent player before that seat forfeits.
    let seatWaitMs: Int64

    var seats: [SeatState?]
    /// How many watch, and what the players were last told of it (`MatchHost+Spectators`).
    var spectators: SpectatorTally
    /// Whether any action was ever accepted: a match without one is freed, file and all, as soon
    /// as no player is present, so connecting and leaving can never hold a match for a seat wait.
    var hasMove = false
    var seq = 0
    var game = 0
    /// Waiting, playing or over, with the game each stage holds (`MatchLifecycle`).
    private(set) var lifecycle = MatchLifecycle.waiting
    var commitment: String?
    /// When the match's timers stopped: a seat is away, or the journal is stalled.
    var pausedAt: Instant?
    /// The game's own clock: when it began, each seat's away time and set times.
    var tally: GameTally
    /// When the journal stopped taking writes; the match stands still until it takes them again.
    var stalledAt: Instant?
    /// What spectators may learn of the table, and when (`TableInsight`).
    var insight = TableInsight()
    /// The latest instant this host has seen; a restarted server's clock starts after it.
    var lastActivity = Instant.zero
    /// The chat lines kept for newcomers, and those held from the players (`MatchHost+Chat`).
    var chatMemory = ChatMemory()
    /// Claim races under lag compensation (`MatchHost+Claims`).
    var races: RaceState
    /// Once a rated game is over: how it moved each seat's rating (snapshots show it).
    var lastRatings: [RatingChange] = []

    init(name: String, mode: Mode, variant: Variant = .classic, settings: RuleSettings, seatWaitMs: Int64,
         spectatorAnnounceMs: Int64 = 1_000) {
        self.name = name
        self.mode = mode
        self.variant = variant
        self.settings = settings
        self.seatWaitMs = seatWaitMs
        spectators = SpectatorTally(announceMs: spectatorAnnounceMs)
        seats = Array(repeating: nil, count: mode.seats.count)
        tally = GameTally(seats: mode.seats.count, at: .zero)
        races = RaceState(seats: mode.seats.count)
    }

    var phase: MatchPhase { lifecycle.phase }

    /// The game dealt last, being played or over; nil while the match waits for its players.
    var match: Match? { lifecycle.match }

    /// The game that ended last, while the match is over (a restored match shows its ratings).
    var lastFinished: FinishedGame? { lifecycle.finished }

    /// Keeps a game's state as an action, a timer or a pause left it, in the stage it is in.
    mutating func update(_ match: Match) { lifecycle.update(match) }

    /// Changes the game in place, if one was dealt (`MatchLifecycle.changeGame`).
    mutating func changeGame<Result>(_ change: (inout Match) -> Result) -> Result? { lifecycle.changeGame(change) }

    /// Deals a game: the match is playing it.
    mutating func deal(_ match: Match) { lifecycle = .playing(match) }

    /// The game being played ended: the match is over, holding what the accounts are to record.
    mutating func end(_ finished: FinishedGame) {
        guard let match else { return assertionFailure("a game ended before any was dealt") }
        lifecycle = .over(match, finished)
    }

    var playerNames: [String] { seats.enumerated().map { $0.element?.name ?? "player \($0.offset + 1)" } }

    /// Whether someone sits in a seat and is connected.
    var hasPresentPlayer: Bool { seats.contains { $0?.connection != nil } }

    /// Whether the match keeps its seats for absent players (by the seat-wait rules) rather than
    /// going as soon as nobody plays: once anyone moved, or a duel was dealt. Two players dealt a
    /// duel hold tokens the README promises will bring them back, even if both drop at once
    /// before either moves; a solo game nobody touched is not worth a wait.
    var holdsSeats: Bool { hasMove || (mode == .duel && match != nil) }

    func seat(of connection: ConnectionID) -> Seat? {
        mode.seats.first { seats[$0.rawValue]?.connection == connection }
    }

    /// The next instant at which the `timers` input has work: a window's end, or a forfeit.
    var nextDeadline: Instant? {
        if stalledAt != nil { return nil }
        if pausedAt != nil { return forfeitDeadline }
        if let held = races.heldClaim { return held.decideAt }
        return lifecycle.nextDeadline
    }

    /// When the server is next to look at the match: its `nextDeadline` and its
    /// `spectatorAnnouncementDue`. Mutating only so that it is read in place: the host lives in
    /// a class (`MatchRoom.host`), and each computed property read there copied the whole host
    /// first, retaining and releasing every array and string it holds, on every action.
    mutating func schedule() -> (deadline: Instant?, announcementDue: Instant?) {
        (nextDeadline, spectatorAnnouncementDue)
    }

    var forfeitDeadline: Instant? { nextForfeit?.at }

    /// Takes one input at `now` and returns what it produced; a game it deals takes its seed
    /// from `seeds`, which is called only then.
    /// Each kind of input has its own reply type; here they are seen as any input's (`HostReply`).
    mutating func handle(_ input: HostInput, at now: Instant, seeds: () -> UInt64) -> HostOutput<HostReply> {
        switch input {
        case .join(let player, let token, let connection, let seat, let account, let rating):
            join(name: player, token: token, connection: connection, requested: seat, account: account, rating: rating, at: now, seeds: seeds)
                .replying(HostReply.init)
        case .resume(let seat, let connection): resume(seat, on: connection, at: now).replying(HostReply.init)
        case .spectatorCame: spectatorsChanged(by: 1, at: now).replying(HostReply.init)
        case .spectatorLeft: spectatorsChanged(by: -1, at: now).replying(HostReply.init)
        case .leave(let connection): leave(connection, at: now, seeds: seeds).replying(HostReply.init)
        case .restart: restart(at: now).replying(HostReply.init)
        case .act(let action, let seat): perform(action, by: seat, at: now, seeds: seeds).replying(HostReply.init)
        case .timers: advance(to: now, seeds: seeds).replying(HostReply.init)
        case .announceSpectators: announceSpectators(at: now).replying(HostReply.init)
        case .spectatorCount(let count): replaySpectators(count, at: now).replying(HostReply.init)
        case .journalStalled: stall(at: now).replying(HostReply.init)
        case .journalWorks: unstall(at: now).replying(HostReply.init)
        case .chat(let room, let speaker, let text): chat(text, in: room, by: speaker, at: now, replayed: true).replying(HostReply.init)
        }
    }

    // MARK: Views

    /// The whole visible state now; once the game is over, spectators also see how many sets its
    /// last table held.
    func snapshot(forSpectator: Bool, at now: Instant) -> MatchView {
        let over = match?.isOver == true
        var view = MatchView(
            match: name, seq: seq, time: now.milliseconds, mode: mode, phase: phase, game: game, players: players,
            spectators: spectators.count, table: match?.table ?? [], deck: match?.deck.count ?? 0,
            selection: match?.selection ?? [],
            selectionSeat: match.flatMap { $0.selection.isEmpty ? nil : ($0.window?.holder ?? .first) },
            window: match?.window, shown: match?.shownTrio,
            tableChangedAt: match?.tableChangedAt.milliseconds ?? 0, rules: settings, commitment: commitment,
            result: match?.result, seed: over ? match?.seed : nil, rematchAsked: match?.rematchAsked ?? [],
            setsOnTable: forSpectator ? insight.retiredSets : nil,
            forfeitAt: pausedAt != nil ? forfeitDeadline?.milliseconds : nil, variant: variant, chain: match?.chain ?? [])
            .withRatings(over ? lastRatings : [])
        view.roundTripMs = races.roundTripMs
        return view
    }

    var listing: MatchListing {
        MatchListing(name: name, mode: mode, phase: phase, players: players, spectators: spectators.count, variant: variant)
    }

    /// Who sits where, with presence and score.
    var players: [PlayerInfo] {
        mode.seats.compactMap { seat -> PlayerInfo? in
            guard let state = seats[seat.rawValue] else { return nil }
            return PlayerInfo(seat: seat, name: state.name, present: state.connection != nil,
                              score: match?.scores[seat.rawValue] ?? 0, rating: state.rating?.rounded,
                              provisional: state.rating?.isProvisional ?? false)
        }
    }
}

/// Who took a seat, for the accounts: the account, and whether it asked for a casual game.
struct SeatAccount: Equatable {
    var id: Int
    var casual: Bool
}

extension MatchView {
    func withRatings(_ ratings: [RatingChange]) -> MatchView {
        var view = self
        view.lastRatings = ratings
        return view
    }
}
