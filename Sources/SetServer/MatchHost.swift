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
    let settings: RuleSettings
    /// How long a playing match waits for an absent player before that seat forfeits.
    let seatWaitMs: Int64
    private let nextSeed: () -> UInt64

    private(set) var seats: [SeatState?]
    private(set) var spectators: [ConnectionID] = []
    /// Where each spectator sits in `spectators`, so one leaving costs O(1), not a search.
    private var spectatorIndex: [ConnectionID: Int] = [:]
    /// The spectator count the players were last told, and when: comings and goings in between
    /// are announced once, as a count, at most every `spectatorAnnounceMs`.
    private var announcedSpectators = 0
    private var announcedSpectatorsAt: Instant?
    var spectatorAnnounceMs: Int64 = 1_000
    /// Whether the match holds something worth keeping: a dealt duel, or a solo game with a move.
    /// Until then it has no journal file, and it is freed as soon as no player is present.
    private(set) var isWorthKeeping = false
    /// Whether any action was ever accepted: a match without one is freed, file and all, as soon
    /// as no player is present, so connecting and leaving can never hold a match for a seat wait.
    private(set) var hasMove = false
    private(set) var seq = 0
    private(set) var game = 0
    private(set) var match: Match?
    private(set) var commitment: String?
    private(set) var pausedAt: Instant?
    /// Where this match's inputs are written; nil when the server keeps no journals.
    var journal: MatchJournal?
    /// The latest events as sent, so a player who drops briefly gets just what it missed.
    private var history: [(seq: Int, bytes: [UInt8])] = []
    static let historyLength = 64
    /// The latest instant this host has seen; a restarted server's clock starts after it.
    var lastActivity = Instant.zero

    init(name: String, mode: Mode, settings: RuleSettings, seatWaitMs: Int64, nextSeed: @escaping () -> UInt64) {
        self.name = name
        self.mode = mode
        self.settings = settings
        self.seatWaitMs = seatWaitMs
        self.nextSeed = nextSeed
        seats = Array(repeating: nil, count: mode.seats.count)
    }

    var phase: MatchPhase {
        guard let match else { return .waiting }
        return match.isOver ? .over : .playing
    }

    var playerNames: [String] { seats.enumerated().map { $0.element?.name ?? "player \($0.offset + 1)" } }

    /// Every connection that receives this match's events.
    var members: [ConnectionID] { seats.compactMap { $0?.connection } + spectators }

    var isEmpty: Bool { members.isEmpty }

    /// Whether someone sits in a seat and is connected.
    var hasPresentPlayer: Bool { seats.contains { $0?.connection != nil } }

    func seat(of connection: ConnectionID) -> Seat? {
        seats.firstIndex { $0?.connection == connection }.map { Seat(rawValue: $0)! }
    }

    /// The next instant at which `advance(to:)` has work: a window's end, or a forfeit.
    var nextDeadline: Instant? {
        if pausedAt != nil { return forfeitDeadline }
        return match?.nextDeadline
    }

    private var forfeitDeadline: Instant? {
        seats.compactMap { $0?.absentSince }.min().map { $0.adding(seatWaitMs) }
    }

    // MARK: Joining and leaving

    /// Seats a new player; starts the game once every seat is taken.
    func seatPlayer(name playerName: String, token: String, connection: ConnectionID, requested: Seat?,
                    at now: Instant) -> Result<(Seat, [Delivery]), WireError> {
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
        seats[seat.rawValue] = SeatState(name: playerName, token: token, connection: connection, absentSince: nil)
        journal?.append(.seated(seat: seat, name: playerName, token: token, at: now), sync: true)
        var deliveries = [emit(.playerJoined(seat: seat, name: playerName), at: now)]
        if match == nil && seats.allSatisfy({ $0 != nil }) {
            deliveries += startGame(at: now)
            // A seat whose player dropped while waiting: the game starts paused, with the forfeit clock running.
            if seats.contains(where: { $0?.absentSince != nil }) { pausedAt = now }
        }
        return .success((seat, deliveries))
    }

    /// A seat's owner is back on `connection`; returns the connection it replaces, if any.
    func resume(_ seat: Seat, on connection: ConnectionID, at now: Instant) -> (replaced: ConnectionID?, [Delivery]) {
        guard var state = seats[seat.rawValue] else { return (nil, []) }
        let replaced = state.connection
        let wasAbsent = state.absentSince != nil
        state.connection = connection
        state.absentSince = nil
        seats[seat.rawValue] = state
        guard wasAbsent else { return (replaced, []) }
        journal?.append(.back(seat: seat, at: now))
        var deliveries = [emit(.presence(seat: seat, present: true, forfeitAt: forfeitDeadline?.milliseconds), at: now)]
        if let pausedAt, seats.allSatisfy({ $0?.absentSince == nil }), var running = match {
            running.postpone(by: now.milliseconds(since: pausedAt))
            match = running
            self.pausedAt = nil
            deliveries.append(emit(.resumed(window: running.window, tableChangedAt: running.tableChangedAt.milliseconds), at: now))
        }
        return (replaced, deliveries)
    }

    func addSpectator(_ connection: ConnectionID, at now: Instant) -> [Delivery] {
        spectatorIndex[connection] = spectators.count
        spectators.append(connection)
        return announceSpectators(at: now)
    }

    private func removeSpectator(at index: Int) {
        spectatorIndex[spectators[index]] = nil
        let last = spectators.removeLast()
        if index < spectators.count {
            spectators[index] = last
            spectatorIndex[last] = index
        }
    }

    /// When a changed spectator count may next be announced; nil when the players know it.
    var spectatorAnnouncementDue: Instant? {
        guard spectators.count != announcedSpectators else { return nil }
        return announcedSpectatorsAt.map { $0.adding(spectatorAnnounceMs) } ?? .zero
    }

    /// Announces the spectator count if it changed and the last announcement is old enough.
    /// Spectators come and go as numbered events, so the journal keeps each announcement: a
    /// replay must number every event as the live match did. Coalescing bounds both.
    func announceSpectators(at now: Instant) -> [Delivery] {
        guard let due = spectatorAnnouncementDue, due <= now else { return [] }
        announcedSpectators = spectators.count
        announcedSpectatorsAt = now
        let delivery = emit(.spectators(count: spectators.count), at: now)
        journal?.append(.watchers(count: spectators.count, seq: seq, at: now))
        return [delivery]
    }

    /// Lets every spectator go, for a match that ends before it began; returns who they were.
    func releaseSpectators() -> [ConnectionID] {
        defer {
            spectators.removeAll()
            spectatorIndex.removeAll()
        }
        return spectators
    }

    /// Replays a journaled change in the number of spectators.
    func replaySpectators(_ count: Int, at now: Instant) -> [Delivery] {
        announcedSpectators = count
        announcedSpectatorsAt = now
        return [emit(.spectators(count: count), at: now)]
    }

    /// A connection is gone: a spectator simply leaves; a player's seat waits for them.
    func disconnect(_ connection: ConnectionID, at now: Instant) -> [Delivery] {
        if let index = spectatorIndex[connection] {
            removeSpectator(at: index)
            return announceSpectators(at: now)
        }
        guard let seat = seat(of: connection), var state = seats[seat.rawValue] else { return [] }
        state.connection = nil
        state.absentSince = now
        seats[seat.rawValue] = state
        journal?.append(.away(seat: seat, at: now))
        if phase == .playing && pausedAt == nil { pausedAt = now }
        let deadline = phase == .playing ? forfeitDeadline?.milliseconds : nil
        return [emit(.presence(seat: seat, present: false, forfeitAt: deadline), at: now)]
    }

    // MARK: Play

    /// Applies a seat's action. Timers due first fire first, so their events may come back even
    /// with a refusal.
    func act(_ action: Action, by seat: Seat, at now: Instant) -> (deliveries: [Delivery], refusal: WireError?) {
        guard var running = match else {
            return ([], WireError(.waitingForOpponent, "The match starts when both players have joined."))
        }
        if pausedAt != nil && action != .resign {
            let away = seats.compactMap { $0 }.filter { $0.absentSince != nil }.map(\.name).joined(separator: " and ")
            return ([], WireError(.waitingForOpponent, "The match is paused until \(away) is back."))
        }
        let outcome = running.apply(action, by: seat, at: now)
        match = running
        if running.isOver { pausedAt = nil }  // a resignation ends a pause with the game
        var deliveries = publish(outcome.events, at: now)
        if outcome.events.contains(.rematchAgreed) { deliveries += startGame(at: now) }
        // Written now, before the server sends anything, with the exact seq the events reached.
        if outcome.refusal == nil {
            journal?.append(.acted(seat: seat, action: action, seq: seq, at: now), sync: match?.isOver == true)
            hasMove = true
            keep()
        } else if !outcome.events.isEmpty {
            journal?.append(.tick(seq: seq, at: now))
        }
        return (deliveries, outcome.refusal.map { WireError($0, playerNames: playerNames) })
    }

    /// Fires the timers and forfeits due at `now`.
    func advance(to now: Instant) -> [Delivery] {
        if pausedAt != nil {
            guard let deadline = forfeitDeadline, deadline <= now, var running = match else { return [] }
            // The seat that has been away longest is the one whose wait ran out.
            let absent = mode.seats.filter { seats[$0.rawValue]?.absentSince != nil }
                .min { seats[$0.rawValue]!.absentSince! < seats[$1.rawValue]!.absentSince! } ?? .first
            let events = running.forfeit(by: absent)
            match = running
            pausedAt = nil
            let deliveries = publish(events, at: now)
            journal?.append(.tick(seq: seq, at: now), sync: true)
            return deliveries
        }
        guard var running = match, let deadline = running.nextDeadline, deadline <= now else { return [] }
        let events = running.advance(to: now)
        match = running
        let deliveries = publish(events, at: now)
        if !events.isEmpty { journal?.append(.tick(seq: seq, at: now)) }
        return deliveries
    }

    private func startGame(at now: Instant) -> [Delivery] {
        let seed = nextSeed()
        game += 1
        let fresh = Match(mode: mode, settings: settings, seed: seed, at: now)
        match = fresh
        let commitment = SeedCommitment.commitment(for: seed)
        self.commitment = commitment
        journal?.append(.game(number: game, seed: seed, commitment: commitment, at: now), sync: true)
        if mode == .duel { keep() }
        let start = GameStart(game: game, table: fresh.table, deck: fresh.deck.count, scores: fresh.scores, commitment: commitment)
        var deliveries = [emit(.gameStarted(start), at: now), insight()]
        if fresh.isOver { deliveries.append(emit(.gameOver(fresh.result!, seed: seed), at: now)) }
        return deliveries
    }

    /// From now on the match is kept: its journal file is written.
    private func keep() {
        guard !isWorthKeeping else { return }
        isWorthKeeping = true
        journal?.commit()
    }

    /// Numbers and encodes rules events; the end of a game reveals its seed.
    private func publish(_ events: [MatchEvent], at now: Instant) -> [Delivery] {
        var deliveries: [Delivery] = []
        for event in events {
            switch event {
            case .matchEnded(let result):
                deliveries.append(emit(.gameOver(result, seed: match?.seed), at: now))
            case .tableChanged:
                deliveries.append(emit(.rules(event), at: now))
                deliveries.append(insight())
            default:
                deliveries.append(emit(.rules(event), at: now))
            }
        }
        return deliveries
    }

    private func emit(_ body: EventBody, at now: Instant) -> Delivery {
        seq += 1
        lastActivity = max(lastActivity, now)
        let event = WireEvent(match: name, seq: seq, time: now.milliseconds, body: body)
        let bytes = ServerMessageCoding.line(.event(event))
        if history.count == Self.historyLength { history.removeFirst() }
        history.append((seq, bytes))
        return Delivery(recipients: members, bytes: bytes)
    }

    /// Spectators learn how many sets the table holds; players must find out for themselves.
    private func insight() -> Delivery {
        let count = match.map { SetLogic.allSets(in: $0.table).count } ?? 0
        return Delivery(recipients: spectators,
                        bytes: ServerMessageCoding.line(.insight(match: name, seq: seq, setsOnTable: count)))
    }

    /// The events after `lastSeq`, if all of them are still kept; nil means a snapshot is needed.
    func events(after lastSeq: Int) -> [[UInt8]]? {
        guard lastSeq <= seq else { return nil }
        guard lastSeq < seq else { return [] }
        guard let first = history.first, first.seq <= lastSeq + 1 else { return nil }
        return history.filter { $0.seq > lastSeq }.map(\.bytes)
    }

    // MARK: Views

    /// The whole visible state now; spectators also see how many sets are on the table.
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
            setsOnTable: forSpectator ? match.map { SetLogic.allSets(in: $0.table).count } ?? 0 : nil,
            forfeitAt: pausedAt != nil ? forfeitDeadline?.milliseconds : nil)
    }

    var listing: MatchListing {
        MatchListing(name: name, mode: mode, phase: phase, players: players, spectators: spectators.count)
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
