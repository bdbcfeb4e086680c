import SetRules
import SetWire

// Keeping the promise that nothing is sent before it is journaled: a change whose line cannot be
// written is undone, and the match stands still until the journal takes writes again.
extension MatchHost {
    /// What an action or a timer may change, to put back when its journal line cannot be written.
    struct Checkpoint {
        var match: Match?
        var seq: Int
        var game: Int
        var commitment: String?
        var pausedAt: Instant?
        var history: [(seq: Int, bytes: [UInt8])]
        var lastActivity: Instant
        var awayUsedMs: [Int64]
        var gameStartedAt: Instant
        var liveTable: [Card]
        var retiredSets: Int?
    }

    func checkpoint() -> Checkpoint {
        Checkpoint(match: match, seq: seq, game: game, commitment: commitment, pausedAt: pausedAt, history: history,
                   lastActivity: lastActivity, awayUsedMs: awayUsedMs, gameStartedAt: gameStartedAt,
                   liveTable: liveTable, retiredSets: retiredSets)
    }

    func restore(_ saved: Checkpoint) {
        match = saved.match
        seq = saved.seq
        game = saved.game
        commitment = saved.commitment
        pausedAt = saved.pausedAt
        history = saved.history
        lastActivity = saved.lastActivity
        awayUsedMs = saved.awayUsedMs
        gameStartedAt = saved.gameStartedAt
        liveTable = saved.liveTable
        retiredSets = saved.retiredSets
    }

    /// The refusal for anything that needs the journal while it is stalled.
    var journalStalled: WireError {
        WireError(.journalFailed, "The server cannot save this match right now, so it is paused; it goes on by itself once saving works again.")
    }

    /// Writes records for something that may be refused; true without a journal.
    func writeJournal(_ records: [JournalRecord], sync: Bool = false) -> Bool {
        guard let journal else { return true }
        return journal.write(records, sync: sync)
    }

    /// Journals a change that happens whatever the disk says (a player left or came back, a
    /// spectator came or went), before it is made. While stalled it waits in the backlog; a
    /// failed write stalls the match first, so a replay meets the stall where the live match did.
    func journalFact(_ record: JournalRecord, at now: Instant) -> [Delivery] {
        guard let journal else { return [] }
        if stalledAt != nil {
            backlog.append(record)
            return []
        }
        if journal.write([record]) { return [] }
        let notice = stall(at: now)
        backlog.append(record)
        return notice
    }

    /// The journal refused a write: every timer stops and every action is refused until it works
    /// again. Everyone in the match is told once, with a coded error.
    func stall(at now: Instant) -> [Delivery] {
        guard stalledAt == nil else { return [] }
        beginStall(at: now)
        backlog = [.stalled(at: now)]
        return [Delivery(recipients: presentPlayers, spectatorsOf: name, bytes: ServerMessageCoding.line(.error(journalStalled, id: nil)))]
    }

    /// The stall itself, live or replayed.
    func beginStall(at now: Instant) {
        stalledAt = now
        if phase == .playing && pausedAt == nil { pausedAt = now }
    }

    /// Tries to write what the stall held back; once it is on disk the match goes on (returns
    /// its events), otherwise nil and it stays stalled.
    func retryJournal(at now: Instant) -> [Delivery]? {
        guard stalledAt != nil, let journal else { return nil }
        let resumes = pausedAt != nil && seats.allSatisfy({ $0?.absentSince == nil }) && match?.isOver == false
        guard journal.write(backlog + [.unstalled(seq: seq + (resumes ? 1 : 0), at: now)], sync: true) else { return nil }
        backlog = []
        return endStall(at: now)
    }

    /// The end of a stall, live or replayed.
    func endStall(at now: Instant) -> [Delivery] {
        stalledAt = nil
        stallReported = false
        return resumeIfEveryoneIsBack(at: now)
    }

    // MARK: The away budget

    /// When a seat's current absence began to count: not before this game began.
    func countedSince(_ seat: Seat) -> Instant? {
        guard let since = seats[seat.rawValue]?.absentSince else { return nil }
        return max(since, gameStartedAt)
    }

    /// The seat that forfeits first if nobody comes back, and when: each seat may be away for
    /// `seatWaitMs` in all during a game.
    var nextForfeit: (seat: Seat, at: Instant)? {
        guard phase == .playing else { return nil }
        return mode.seats.compactMap { seat -> (seat: Seat, at: Instant)? in
            guard let since = countedSince(seat) else { return nil }
            return (seat, since.adding(max(0, seatWaitMs - awayUsedMs[seat.rawValue])))
        }.min { $0.at < $1.at || ($0.at == $1.at && $0.seat < $1.seat) }
    }
}
