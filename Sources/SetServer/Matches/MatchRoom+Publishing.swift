import SetRatings
import SetRules
import SetWire

/// What a match said from a finished game's end on, kept unencoded while the game's accounts
/// record is not committed: the live room's, and a replay's for a record a restart must write.
struct UnpublishedGames {
    /// A finished game and what the match said from its end on, up to the next game's end.
    struct Game {
        var finished: FinishedGame
        var messages: [HostMessage]
    }

    private(set) var games: [Game] = []

    var isEmpty: Bool { games.isEmpty }

    /// Keeps back, from `messages`, the game over of a game whose record must be committed first
    /// and all after it, and everything while an earlier game waits; returns what may be told now
    /// (the game's last moves before its end: facts of the journal, which the record does not
    /// change, so players stop playing a table that is over).
    mutating func hold(_ messages: [HostMessage], finished: FinishedGame?) -> [HostMessage] {
        if let finished {
            let end = games.isEmpty ? messages.firstIndex(where: \.isGameOver) ?? 0 : 0
            games.append(Game(finished: finished, messages: Array(messages[end...])))
            return Array(messages[..<end])
        }
        guard !games.isEmpty else { return messages }
        games[games.count - 1].messages += messages
        return []
    }

    /// What may be told now, oldest game first, for as long as each game's record is committed
    /// (`committed` finds it): the messages, their game over rated, and the records told of. The
    /// first game still unwritten keeps the rest waiting.
    mutating func release(committed: (FinishedGame) -> RecordState) -> (messages: [HostMessage], records: [GameRecord]) {
        var messages: [HostMessage] = []
        var records: [GameRecord] = []
        while let waiting = games.first, case .committed(let record) = committed(waiting.finished) {
            games.removeFirst()
            if let record { records.append(record) }
            messages += waiting.messages.rated(by: record)
        }
        return (messages, records)
    }
}

// Commit, then publish. A game's end is known to the journal at once, but it is told (sent, kept
// for a resume, fed to spectators, shown in a snapshot) only once its accounts record is on disk
// too: its `game_over` carries the ratings that record moved, added before the event is first
// encoded, and an event, once encoded, is the same bytes wherever and whenever it is sent, a
// restart included (`JournalDirectory.restoreAll` rates it again from the same record).
extension MatchRoom {
    /// Whether what the match said is held back behind a finished game's record: a snapshot would
    /// tell of a game over nobody may hear of yet, so none is given.
    var isHoldingBack: Bool { !unpublished.isEmpty }

    /// The answer to a snapshot or a join while the match's finished game waits for its record.
    static let recordUnwritten = WireError(.journalFailed, "The server cannot save this match's finished game right now; ask again once it can.")

    /// Keeps back, unencoded, a game over whose record must be committed first and all after it
    /// (`UnpublishedGames.hold`); returns what may be encoded now.
    func hold(_ messages: [HostMessage], finished: FinishedGame?) -> [HostMessage] {
        // Whatever follows a game that waits waits too, even in a room restored before it was
        // told it keeps records, so nothing overtakes the game's end.
        guard awaitsRecords || !unpublished.isEmpty else { return messages }
        return unpublished.hold(messages, finished: finished)
    }

    /// Encodes what waited, oldest game first, for as long as each game's record is committed
    /// (`committed` finds it in the accounts); the scoreboard and snapshots show the ratings.
    func publish(committed: (FinishedGame) -> RecordState) -> [Delivery] {
        guard !unpublished.isEmpty else { return [] }
        let (messages, records) = unpublished.release(committed: committed)
        records.forEach(show)
        return encode(messages)
    }
}

extension GameRecord {
    /// How the game moved each seat's rating, as `game_over` and snapshots tell it (rounded, as
    /// the accounts keep it, so a record read back gives the same).
    var ratingChanges: [RatingChange] {
        players.enumerated().compactMap { seat, player -> RatingChange? in
            guard let before = player.before, let after = player.after, let seat = Seat(rawValue: seat) else { return nil }
            return RatingChange(seat: seat, before: before.rounded, after: after.rounded, provisional: after.isProvisional)
        }
    }
}

extension HostMessage {
    var isGameOver: Bool {
        guard case .event(let event, _) = self, case .gameOver = event.body else { return false }
        return true
    }
}

extension [HostMessage] {
    /// The messages with their game-over event telling how a rated game moved each rating, before
    /// the event is first encoded: live, and again when a journal is replayed.
    func rated(by record: GameRecord?) -> [HostMessage] {
        guard let record, record.rated else { return self }
        let changes = record.ratingChanges
        return map { message in
            guard case .event(var event, let audience) = message, case .gameOver(let result, let seed, _) = event.body else { return message }
            event.body = .gameOver(result, seed: seed, ratings: changes)
            return .event(event, to: audience)
        }
    }
}
