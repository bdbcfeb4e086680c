import SetRules
import SetWire

/// One match on the server: its seats, spectators and games, and the numbering of its events.
/// It turns requests into deliveries and does no I/O; the server writes what it returns.
final class MatchHost {
    /// A taken seat.
    struct SeatState {
        var name: String
        var token: String
        var connection: ConnectionID?
        var absentSince: Instant?
    }

    let name: String
    let mode: Mode
    /// The game every deal of this match plays, chosen by whoever created it.
    let variant: Variant
    let settings: RuleSettings
    /// How long a playing match waits for an absent player before that seat forfeits.
    let seatWaitMs: Int64
    /// Where new games' seeds come from. A restored match draws from the server's source, as a
    /// fresh one would; only its replay used the seeds its journal recorded.
    var nextSeed: () -> UInt64
    /// A seed drawn for a game whose journal line could not be written: the next game takes it.
    var unusedSeed: UInt64?

    var seats: [SeatState?]
    var spectators: [ConnectionID] = []
    /// Where each spectator sits in `spectators`, so one leaving costs O(1), not a search.
    var spectatorIndex: [ConnectionID: Int] = [:]
    /// The spectator count the players were last told, and when: comings and goings in between
    /// are announced once, as a count, at most every `spectatorAnnounceMs`.
    var announcedSpectators = 0
    var announcedSpectatorsAt: Instant?
    var spectatorAnnounceMs: Int64 = 1_000
    /// Whether the match holds something worth keeping (a dealt duel, a solo game with a move):
    /// until then its journal stays in memory and no file is written.
    private(set) var isWorthKeeping = false
    /// Whether any action was ever accepted: a match without one is freed, file and all, as soon
    /// as no player is present, so connecting and leaving can never hold a match for a seat wait.
    private(set) var hasMove = false
    var seq = 0
    var game = 0
    var match: Match?
    var commitment: String?
    /// When the match's timers stopped: a seat is away, or the journal is stalled.
    var pausedAt: Instant?
    /// Milliseconds each seat was away during this game, not counting an absence still going on:
    /// the away time a seat may use is a budget per game (`seatWaitMs`), not per absence.
    var awayUsedMs: [Int64]
    var gameStartedAt = Instant.zero
    /// When the journal stopped taking writes; the match stands still until it takes them again.
    var stalledAt: Instant?
    /// What happened while stalled, from the stall's start on, to be written once writes work.
    var backlog: [JournalRecord] = []
    /// Whether the server log has been told of the current stall (once, not per refused action).
    var stallReported = false
    /// Where this match's inputs are written; nil when the server keeps no journals.
    var journal: MatchJournal?
    /// The latest events as sent, so a player who drops briefly gets just what it missed.
    var history: [(seq: Int, bytes: [UInt8])] = []
    /// The table spectators may not be told about yet, and how many sets the last table that
    /// stopped being live held: a count reaches spectators only once no player can use it.
    var liveTable: [Card] = []
    /// Set-Chain: the chain the live table was played with, so its count is of chain sets.
    var liveChain: [Card] = []
    var retiredSets: Int?
    static let historyLength = 64
    /// The latest instant this host has seen; a restarted server's clock starts after it.
    var lastActivity = Instant.zero

    init(name: String, mode: Mode, variant: Variant = .classic, settings: RuleSettings, seatWaitMs: Int64,
         nextSeed: @escaping () -> UInt64) {
        self.name = name
        self.mode = mode
        self.variant = variant
        self.settings = settings
        self.seatWaitMs = seatWaitMs
        self.nextSeed = nextSeed
        seats = Array(repeating: nil, count: mode.seats.count)
        awayUsedMs = Array(repeating: 0, count: mode.seats.count)
    }

    var phase: MatchPhase {
        guard let match else { return .waiting }
        return match.isOver ? .over : .playing
    }

    var playerNames: [String] { seats.enumerated().map { $0.element?.name ?? "player \($0.offset + 1)" } }

    /// The connected players: they and every spectator receive this match's events.
    var presentPlayers: [ConnectionID] { seats.compactMap { $0?.connection } }

    /// Whether someone sits in a seat and is connected.
    var hasPresentPlayer: Bool { seats.contains { $0?.connection != nil } }

    /// From now on the match is kept: its journal's next write creates the file.
    func keep() {
        isWorthKeeping = true
        journal?.keep()
    }

    var isEmpty: Bool { spectators.isEmpty && !hasPresentPlayer }

    func seat(of connection: ConnectionID) -> Seat? {
        seats.firstIndex { $0?.connection == connection }.map { Seat(rawValue: $0)! }
    }

    /// The next instant at which `advance(to:)` has work: a window's end, or a forfeit.
    var nextDeadline: Instant? {
        if stalledAt != nil { return nil }
        if pausedAt != nil { return forfeitDeadline }
        return match?.nextDeadline
    }

    private var forfeitDeadline: Instant? { nextForfeit?.at }

    // MARK: Joining and leaving

    /// Seats a new player; starts the game once every seat is taken. The seat (and the game it
    /// completes) is journaled first: a seat whose token is not on disk is refused.
    func seatPlayer(name playerName: String, token: String, connection: ConnectionID, requested: Seat?,
                    at now: Instant) -> Result<(Seat, [Delivery]), WireError> {
        if stalledAt != nil { return .failure(journalStalled) }
        let free = mode.seats.filter { seats[$0.rawValue] == nil }
        let seat: Seat
        if let requested {
            guard mode.seats.contains(requested) else {
                return .failure(WireError(.noSuchSeat, "A \(mode.rawValue) match has no seat \(requested.rawValue)."))
            }
            guard seats[requested.rawValue] == nil else {
                return .failure(WireError(.seatTaken, "Seat \(requested.rawValue) is taken; resume it with its token.",
                                          details: ["seat": .int(Int64(requested.rawValue))]))
            }
            seat = requested
        } else {
            guard let first = free.first else {
                return .failure(WireError(.matchFull, "Match \"\(name)\" has no free seat; watch it as a spectator."))
            }
            seat = first
        }
        let startsGame = match == nil && free.count == 1
        let seed = startsGame ? drawSeed() : nil
        if startsGame && mode == .duel { keep() }
        var records: [JournalRecord] = [.seated(seat: seat, name: playerName, token: token, at: now)]
        if let seed { records.append(.game(number: game + 1, seed: seed, commitment: SeedCommitment.commitment(for: seed), at: now)) }
        guard writeJournal(records, sync: true) else {
            unusedSeed = seed ?? unusedSeed
            _ = stall(at: now)
            return .failure(journalStalled)
        }
        seats[seat.rawValue] = SeatState(name: playerName, token: token, connection: connection, absentSince: nil)
        var deliveries = [emit(.playerJoined(seat: seat, name: playerName), at: now)]
        if let seed { deliveries += startGame(seed: seed, at: now) }
        return .success((seat, deliveries))
    }

    /// A seat's owner is back on `connection`; returns the connection it replaces, if any.
    func resume(_ seat: Seat, on connection: ConnectionID, at now: Instant) -> (replaced: ConnectionID?, [Delivery]) {
        guard var state = seats[seat.rawValue] else { return (nil, []) }
        let replaced = state.connection
        guard state.absentSince != nil else {
            state.connection = connection
            seats[seat.rawValue] = state
            return (replaced, [])
        }
        var deliveries = journalFact(.back(seat: seat, at: now), at: now)
        if phase == .playing, let since = countedSince(seat) { awayUsedMs[seat.rawValue] += now.milliseconds(since: since) }
        state.connection = connection
        state.absentSince = nil
        seats[seat.rawValue] = state
        deliveries.append(emit(.presence(seat: seat, present: true, forfeitAt: forfeitDeadline?.milliseconds), at: now))
        deliveries += resumeIfEveryoneIsBack(at: now)
        return (replaced, deliveries)
    }

    /// Ends a pause once every seat is back and the journal takes writes: the windows and the
    /// scoring clock move on by the time the match stood still.
    func resumeIfEveryoneIsBack(at now: Instant) -> [Delivery] {
        guard let pausedAt, stalledAt == nil, seats.allSatisfy({ $0?.absentSince == nil }) else { return [] }
        self.pausedAt = nil
        guard var running = match, !running.isOver else { return [] }
        running.postpone(by: now.milliseconds(since: pausedAt))
        match = running
        return [emit(.resumed(window: running.window, tableChangedAt: running.tableChangedAt.milliseconds), at: now)]
    }

    /// A connection is gone: a spectator simply leaves; a player's seat waits for them. A window
    /// its player held ends at once, as a pass would: time away never stretches a window. Only a
    /// restart (`keepingWindow`, journaled as such) keeps it: that absence is nobody's choice.
    func disconnect(_ connection: ConnectionID, at now: Instant, keepingWindow: Bool = false) -> [Delivery] {
        if let index = spectatorIndex[connection] {
            removeSpectator(at: index)
            return announceSpectators(at: now)
        }
        guard let seat = seat(of: connection), var state = seats[seat.rawValue] else { return [] }
        var deliveries = keepingWindow ? [] : journalFact(.away(seat: seat, at: now), at: now)
        state.connection = nil
        state.absentSince = now
        seats[seat.rawValue] = state
        if !keepingWindow, var running = match, !running.isOver {
            let events = running.holderLeft(seat, at: now)
            match = running
            deliveries += publish(events, at: now)
        }
        if phase == .playing && pausedAt == nil { pausedAt = now }
        let deadline = phase == .playing ? forfeitDeadline?.milliseconds : nil
        deliveries.append(emit(.presence(seat: seat, present: false, forfeitAt: deadline), at: now))
        return deliveries
    }

    // MARK: Play

    /// Applies a seat's action. Timers due first fire first, so their events may come back even
    /// with a refusal. Nothing is sent for an action whose journal line could not be written:
    /// the match is put back as it was, and stands still until the journal works again.
    func act(_ action: Action, by seat: Seat, at now: Instant) -> (deliveries: [Delivery], refusal: WireError?) {
        guard var running = match else {
            return ([], WireError(.waitingForOpponent, "The match starts when both players have joined."))
        }
        if stalledAt != nil { return ([], journalStalled) }
        if pausedAt != nil && action != .resign {
            let away = seats.compactMap { $0 }.filter { $0.absentSince != nil }.map(\.name).joined(separator: " and ")
            return ([], WireError(.waitingForOpponent, "The match is paused until \(away) is back."))
        }
        let saved = checkpoint()
        let outcome = running.apply(action, by: seat, at: now)
        match = running
        if running.isOver { pausedAt = nil }  // a resignation ends a pause with the game
        var deliveries = publish(outcome.events, at: now)
        var dealt: UInt64?
        if outcome.events.contains(.rematchAgreed) {
            let seed = drawSeed()
            dealt = seed
            deliveries += startGame(seed: seed, at: now)
        }
        var records: [JournalRecord] = []
        if outcome.refusal == nil {
            hasMove = true
            keep()
            records.append(.acted(seat: seat, action: action, seq: seq, at: now))
            // After the rematch that caused it, so a replay deals the game where the live match did.
            if let dealt { records.append(.game(number: game, seed: dealt, commitment: commitment ?? "", at: now)) }
        } else if !outcome.events.isEmpty {
            records.append(.tick(seq: seq, at: now))
        }
        // Written now, before the server sends anything, with the exact seq the events reached.
        guard records.isEmpty || writeJournal(records, sync: match?.isOver == true || dealt != nil) else {
            restore(saved)
            unusedSeed = dealt ?? unusedSeed
            return (stall(at: now), journalStalled)
        }
        return (deliveries, outcome.refusal.map { WireError($0, playerNames: playerNames) })
    }

    /// Fires the timers and forfeits due at `now`; like an action, only once journaled.
    func advance(to now: Instant) -> [Delivery] {
        guard stalledAt == nil, var running = match else { return [] }
        let saved = checkpoint()
        let events: [MatchEvent]
        if pausedAt != nil {
            // The seat whose away budget ran out first forfeits.
            guard let (seat, deadline) = nextForfeit, deadline <= now else { return [] }
            events = running.forfeit(by: seat)
            pausedAt = nil
        } else {
            guard let deadline = running.nextDeadline, deadline <= now else { return [] }
            events = running.advance(to: now)
        }
        match = running
        let deliveries = publish(events, at: now)
        guard events.isEmpty || writeJournal([.tick(seq: seq, at: now)], sync: running.isOver) else {
            restore(saved)
            return stall(at: now)
        }
        return deliveries
    }

    private func drawSeed() -> UInt64 {
        defer { unusedSeed = nil }
        return unusedSeed ?? nextSeed()
    }

    /// Deals a new game; a seat away at its start is away from its first instant, paused.
    private func startGame(seed: UInt64, at now: Instant) -> [Delivery] {
        game += 1
        let fresh = Match(mode: mode, variant: variant, settings: settings, seed: seed, at: now)
        match = fresh
        let commitment = SeedCommitment.commitment(for: seed)
        self.commitment = commitment
        gameStartedAt = now
        awayUsedMs = Array(repeating: 0, count: mode.seats.count)
        liveTable = fresh.table
        liveChain = []
        retiredSets = nil
        let start = GameStart(game: game, table: fresh.table, deck: fresh.deck.count, scores: fresh.scores, commitment: commitment)
        var deliveries = [emit(.gameStarted(start), at: now)]
        if fresh.isOver {
            deliveries.append(emit(.gameOver(fresh.result!, seed: seed), at: now))
            deliveries += retireTable()
        } else if seats.contains(where: { $0?.absentSince != nil }) {
            pausedAt = now
        }
        return deliveries
    }

    /// Numbers and encodes rules events; the end of a game reveals its seed, and a hint's cards
    /// go only to the player who paid for it.
    private func publish(_ events: [MatchEvent], at now: Instant) -> [Delivery] {
        var deliveries: [Delivery] = []
        for event in events {
            switch event {
            case .matchEnded(let result):
                deliveries.append(emit(.gameOver(result, seed: match?.seed), at: now))
                deliveries += retireTable()
            case .tableChanged(_, _, let table, _):
                deliveries.append(emit(.rules(event), at: now))
                deliveries += retireTable()
                liveTable = table
                liveChain = match?.chain ?? []
            case .hintShown(let seat, _, let cost, let score):
                let others = emit(.rules(.hintShown(seat: seat, cards: [], cost: cost, score: score)), at: now)
                let payer = seats[seat.rawValue]?.connection
                deliveries.append(Delivery(recipients: others.recipients.filter { $0 != payer }, spectatorsOf: name, bytes: others.bytes))
                if let payer {
                    let event = WireEvent(match: name, seq: seq, time: now.milliseconds, body: .rules(event))
                    deliveries.append(Delivery(recipients: [payer], bytes: ServerMessageCoding.line(.event(event))))
                }
            default:
                deliveries.append(emit(.rules(event), at: now))
            }
        }
        return deliveries
    }

    func emit(_ body: EventBody, at now: Instant) -> Delivery {
        seq += 1
        lastActivity = max(lastActivity, now)
        let event = WireEvent(match: name, seq: seq, time: now.milliseconds, body: body)
        let bytes = ServerMessageCoding.line(.event(event))
        if history.count == Self.historyLength { history.removeFirst() }
        history.append((seq, bytes))
        return Delivery(recipients: presentPlayers, spectatorsOf: name, bytes: bytes)
    }

    /// The live table stopped being live (it changed, or the game ended): only now may spectators
    /// learn how many sets it held, which no player can use any more.
    private func retireTable() -> [Delivery] {
        let count = variant.combinations(table: liveTable, chain: liveChain).count
        retiredSets = count
        return [Delivery(recipients: [], spectatorsOf: name,
                         bytes: ServerMessageCoding.line(.insight(match: name, seq: seq, setsOnTable: count)))]
    }

    /// The events after `lastSeq`, if all of them are still kept; nil means a snapshot is needed.
    func events(after lastSeq: Int) -> [[UInt8]]? {
        guard lastSeq <= seq else { return nil }
        guard lastSeq < seq else { return [] }
        guard let first = history.first, first.seq <= lastSeq + 1 else { return nil }
        return history.filter { $0.seq > lastSeq }.map(\.bytes)
    }

    // MARK: Views

    /// The whole visible state now; spectators also see how many sets the last retired table held.
    func snapshot(forSpectator: Bool, at now: Instant) -> MatchView {
        let over = match?.isOver == true
        return MatchView(
            match: name, seq: seq, time: now.milliseconds, mode: mode, phase: phase, game: game, players: players,
            spectators: spectators.count, table: match?.table ?? [], deck: match?.deck.count ?? 0,
            selection: match?.selection ?? [],
            selectionSeat: match.flatMap { $0.selection.isEmpty ? nil : ($0.window?.holder ?? .first) },
            window: match?.window, shown: match?.shownTrio,
            tableChangedAt: match?.tableChangedAt.milliseconds ?? 0, rules: settings, commitment: commitment,
            result: match?.result, seed: over ? match?.seed : nil, rematchAsked: match?.rematchAsked ?? [],
            setsOnTable: forSpectator ? retiredSets : nil,
            forfeitAt: pausedAt != nil ? forfeitDeadline?.milliseconds : nil, variant: variant, chain: match?.chain ?? [])
    }

    var listing: MatchListing {
        MatchListing(name: name, mode: mode, phase: phase, players: players, spectators: spectators.count, variant: variant)
    }

    /// Who sits where, with presence and score.
    var players: [PlayerInfo] {
        mode.seats.compactMap { seat -> PlayerInfo? in
            guard let state = seats[seat.rawValue] else { return nil }
            return PlayerInfo(seat: seat, name: state.name, present: state.connection != nil,
                              score: match?.scores[seat.rawValue] ?? 0)
        }
    }
}
