import SetRatings
import SetRules
import SetWire

/// One live match on the server: its host (a value), who is connected to it, and the performing
/// of what the host returns. The journal records are written first; only once they are on disk
/// is each message encoded, once for all its recipients, and handed to the server to send. A
/// change whose records cannot be written is undone and refused, and the match stands still
/// until the journal takes writes again. A game's end also waits for its accounts record
/// (`MatchRoom+Publishing`): nothing is sent, kept for resume or fed to spectators that a
/// restart would not know of.
final class MatchRoom {
    /// One of the host's typed inputs; a game it deals takes its seed from the given source.
    typealias Step<Reply: Equatable> = (inout MatchHost, _ seeds: () -> UInt64) -> HostOutput<Reply>

    private(set) var host: MatchHost
    /// Who watches. Kept here, not in the host, so that coming and going costs O(1) and a host
    /// copied to undo a change never copies a crowd.
    private(set) var spectators: [ConnectionID] = []
    /// Where each spectator sits in `spectators`, so one leaving costs O(1), not a search.
    private var spectatorIndex: [ConnectionID: Int] = [:]
    /// The lines every spectator is sent, kept once for all of them; the server gives each its
    /// part when its round comes (see `ConnectionTable+Output`).
    private(set) var feed = SpectatorFeed()
    /// Where this match's inputs are written; nil when the server keeps no journals.
    var journal: (any JournalWriter)?
    /// Where new games' seeds come from. A restored match draws from the server's source, as a
    /// fresh one would; only its replay used the seeds its journal recorded.
    var nextSeed: () -> UInt64
    /// A seed drawn for a game whose journal record could not be written: the next game takes it,
    /// since a seed source is never rewound.
    private var unusedSeed: UInt64?
    /// What happened while stalled, from the stall's start on, to be written once writes work.
    private(set) var backlog: [JournalRecord] = []
    /// Whether the server log has been told of the current stall (once, not per refused action).
    var stallReported = false
    /// Whether a game's end and all after it wait for the game's accounts record to be committed
    /// (a server keeping accounts); a bare room publishes at once.
    var awaitsRecords = false
    /// What waits for finished games' records, oldest first (`MatchRoom+Publishing`).
    var unpublished: UnpublishedGames
    private var history: EventHistory

    init(host: MatchHost, journal: (any JournalWriter)? = nil, history: EventHistory = EventHistory(),
         unpublished: UnpublishedGames = UnpublishedGames(), nextSeed: @escaping () -> UInt64) {
        self.host = host
        self.journal = journal
        self.history = history
        self.unpublished = unpublished
        self.nextSeed = nextSeed
    }

    /// Whether nobody is connected to the match, player or spectator.
    var isEmpty: Bool { spectators.isEmpty && !host.hasPresentPlayer }

    /// Whether both seats of this duel were taken from the address that created it (`Lobby.seated`).
    var pairedWithItself = false
    /// A match made for two seat tokens (an accepted challenge): while it waits for its second
    /// player it is kept even when nobody is connected, so the first to sit may leave.
    var keptForTokens = false
    /// Whether an input that may free the match came while it held a finished game back: it is
    /// freed, if idle, once that game is told.
    private var idlesOncePublished = false

    /// Whether the match is still worth keeping. One that holds no seats (nobody moved, and no
    /// duel was dealt between two addresses) goes as soon as no player is present: spectators do
    /// not keep it, its absent players' seats are not worth a seat wait, and it leaves no journal.
    /// Any other goes once nobody is connected to it, unless it is being played (its players may
    /// resume).
    var idleness: Idleness {
        // Kept for its two tokens until its game begins, or for a seat wait (`Lobby.retireAbandoned`).
        if keptForTokens && host.phase == .waiting { return .inUse }
        let holdsSeats = host.holdsSeats && (host.hasMove || !pairedWithItself)
        if !holdsSeats && !host.hasPresentPlayer { return .abandoned }
        return isEmpty && host.phase != .playing ? .finished : .inUse
    }

    /// A spectator comes.
    func watch(_ connection: ConnectionID, at now: Instant) -> RoomOutcome<NoReply> {
        spectatorIndex[connection] = spectators.count
        spectators.append(connection)
        return fact(at: now) { host, _ in host.spectatorsChanged(by: 1, at: now) }
    }

    /// A connection is gone: a spectator leaves, a player's seat waits for them.
    func leave(_ connection: ConnectionID, at now: Instant) -> RoomOutcome<NoReply> {
        guard let index = spectatorIndex.removeValue(forKey: connection) else {
            return fact(at: now, mayIdle: true) { host, seeds in host.leave(connection, at: now, seeds: seeds) }
        }
        let last = spectators.removeLast()
        if index < spectators.count {
            spectators[index] = last
            spectatorIndex[last] = index
        }
        if spectators.isEmpty { forgetFeed(before: feed.end) }
        return fact(at: now, mayIdle: true) { host, _ in host.spectatorsChanged(by: -1, at: now) }
    }

    /// Lets every spectator go, for a match freed before it began; returns who they were.
    private func releaseSpectators() -> [ConnectionID] {
        defer {
            spectators.removeAll()
            spectatorIndex.removeAll()
            forgetFeed(before: feed.end)
        }
        return spectators
    }

    /// Performs an input that tells of something that happened whatever the disk says (someone
    /// came or went, a count, a restart): unwritten, its records wait behind the stall's.
    func fact<Reply: Equatable>(at now: Instant, mayIdle: Bool = false, _ step: Step<Reply>) -> RoomOutcome<Reply> {
        let saved = host
        var output = run(step).output
        assert(output.isFact || output.journal.isEmpty, "a change performed as a fact")
        if output.keepJournal { journal?.keep() }
        guard let journal, !output.journal.isEmpty else { return outcome(output, mayIdle: mayIdle) }
        if saved.stalledAt != nil {
            backlog += output.journal
            return outcome(output, mayIdle: mayIdle)
        }
        if journal.write(output.journal, sync: output.syncJournal) { return outcome(output, mayIdle: mayIdle) }
        // It happens whatever the disk says, but after the stall begins: the records wait
        // behind the stall's own, so a replay meets the stall where the live match did.
        host = saved
        let stall = host.stall(at: now)
        backlog = stall.journal
        output = run(step).output
        backlog += output.journal
        output.messages = stall.messages + output.messages
        return outcome(output, mayIdle: mayIdle)
    }

    /// Performs an input whose change happens only if its records are written: unwritten, it is
    /// undone, answered with `undone`, and the match stands still until the journal takes writes.
    func change<Reply: Equatable>(at now: Instant, undone: Reply, mayIdle: Bool = false, _ step: Step<Reply>) -> RoomOutcome<Reply> {
        let saved = host
        let (output, drawn) = run(step)
        assert(!output.isFact, "a fact performed as a change")
        if output.keepJournal { journal?.keep() }
        guard let journal, !output.journal.isEmpty, !journal.write(output.journal, sync: output.syncJournal) else {
            return outcome(output, mayIdle: mayIdle)
        }
        host = saved
        unusedSeed = drawn ?? unusedSeed
        let stall = host.stall(at: now)
        backlog += stall.journal
        return outcome(stall.replying { _ in undone }, mayIdle: mayIdle)
    }

    /// Performs changes one after another, their records written together in one write (the
    /// actions one read brought): all of them happen, or, if the write fails, none does, each
    /// is answered with `undone`, and the match stands still until the journal takes writes. One
    /// write and one copy of the host for a claim and its three picks, not four.
    func changes<Reply: Equatable>(at now: Instant, undone: Reply, _ steps: [Step<Reply>]) -> [RoomOutcome<Reply>] {
        guard steps.count > 1 else { return steps.map { change(at: now, undone: undone, $0) } }
        let saved = host
        var outputs: [HostOutput<Reply>] = []
        outputs.reserveCapacity(steps.count)
        var firstDrawn: UInt64?
        for step in steps {
            let (output, drawn) = run(step)
            assert(!output.isFact, "a fact performed as a change")
            outputs.append(output)
            firstDrawn = firstDrawn ?? drawn
        }
        if outputs.contains(where: \.keepJournal) { journal?.keep() }
        let records = outputs.flatMap(\.journal)
        guard let journal, !records.isEmpty, !journal.write(records, sync: outputs.contains(where: \.syncJournal)) else {
            return outputs.map { outcome($0, mayIdle: false) }
        }
        host = saved
        // A seed drawn and never told is as good as new: the next game takes the first of them.
        unusedSeed = firstDrawn ?? unusedSeed
        let stall = host.stall(at: now)
        backlog += stall.journal
        let first = outcome(stall.replying { _ in undone }, mayIdle: false)
        return [first] + outputs.dropFirst().map { _ in outcome(HostOutput(reply: undone), mayIdle: false) }
    }

    /// Tries to write what the stall held back; once it is on disk the match goes on (returns
    /// what it says), otherwise nil and it stays stalled.
    func retryJournal(at now: Instant) -> RoomOutcome<NoReply>? {
        guard host.stalledAt != nil, let journal else { return nil }
        let saved = host
        let output = run { host, _ in host.unstall(at: now) }.output
        guard journal.write(backlog + output.journal, sync: output.syncJournal) else {
            host = saved
            return nil
        }
        backlog = []
        stallReported = false
        return outcome(output, mayIdle: false)
    }

    /// The events after `lastSeq` as they were sent, if all of them are still kept; nil means a
    /// snapshot is needed.
    func events(after lastSeq: Int) -> [[UInt8]]? { history.events(after: lastSeq, upTo: host.seq) }

    private func run<Reply: Equatable>(_ step: Step<Reply>) -> (output: HostOutput<Reply>, drawn: UInt64?) {
        var drawn: UInt64?
        let output = step(&host) {
            let seed = unusedSeed ?? nextSeed()
            unusedSeed = nil
            drawn = seed
            return seed
        }
        return (output, drawn)
    }

    /// What the server is to do after an input: the output's messages encoded (or held back
    /// behind a finished game's record, `hold`), and the match's state as the server schedules
    /// and keeps it. Only an input that may leave the match idle (`mayIdle`: someone left, a
    /// timer fired, a seat was refused) may free it; an idle one lets its spectators go here. A
    /// restored match stays until one of those happens to it.
    private func outcome<Reply: Equatable>(_ output: HostOutput<Reply>, mayIdle: Bool) -> RoomOutcome<Reply> {
        let deliveries = encode(hold(output.messages, finished: output.finished))
        // A match holding a finished game back stays until it is told (`publishedOutcome`), so
        // its spectators and returning players still hear how it ended.
        if mayIdle && isHoldingBack { idlesOncePublished = true }
        let idleness = mayIdle && !isHoldingBack ? self.idleness : .inUse
        let schedule = host.schedule()
        return RoomOutcome(reply: output.reply, deliveries: deliveries, nextDeadline: schedule.deadline,
                           announcementDue: schedule.announcementDue, idleness: idleness,
                           released: idleness == .inUse ? [] : releaseSpectators(), finished: awaitsRecords ? output.finished : nil)
    }

    /// What publishing the games whose records were committed does (`committed` finds them): the
    /// lines told, and the match freed if an input while it held them back left it idle.
    func publishedOutcome(committed: (FinishedGame) -> RecordState) -> RoomOutcome<NoReply> {
        let deliveries = publish(committed: committed)
        let mayIdle = idlesOncePublished && !isHoldingBack
        if mayIdle { idlesOncePublished = false }
        let idleness = mayIdle ? self.idleness : .inUse
        let schedule = host.schedule()
        return RoomOutcome(reply: NoReply(), deliveries: deliveries, nextDeadline: schedule.deadline,
                           announcementDue: schedule.announcementDue, idleness: idleness,
                           released: idleness == .inUse ? [] : releaseSpectators(), finished: nil)
    }

    /// Each message encoded once, for the connections that hold its audience now.
    func encode(_ messages: [HostMessage]) -> [Delivery] {
        guard !messages.isEmpty else { return [] }
        // One array of the seated connections, made at its size, shared by every message sent
        // to all of them: this runs for every action, and each array is an allocation.
        var present: [ConnectionID] = []
        present.reserveCapacity(host.seats.count)
        for seat in host.seats { if let connection = seat?.connection { present.append(connection) } }
        return messages.map { message in
            let (recipients, watched): ([ConnectionID], Bool) = switch message.audience {
            case .everyone: (present, true)
            case .everyoneBut(let seat): (present.filter { $0 != connection(of: seat) }, true)
            case .player(let seat): (connection(of: seat).map { [$0] } ?? [], false)
            case .players: (present, false)
            case .spectators: ([], true)
            }
            let bytes = history.encode(message)
            guard watched, !spectators.isEmpty else { return Delivery(recipients: recipients, bytes: bytes) }
            feed.append(bytes)
            return Delivery(recipients: recipients, spectatorsOf: self, bytes: bytes)
        }
    }

    private func connection(of seat: Seat) -> ConnectionID? { host.seats[seat.rawValue]?.connection }

    /// Shows how a rated game moved each rating: in its snapshots, and on the scoreboard. Also
    /// for a restored match whose game was over when the server stopped.
    func show(_ record: GameRecord) {
        host.lastRatings = record.ratingChanges
        for (seat, player) in record.players.enumerated() where host.seats.indices.contains(seat) {
            if let after = player.after { host.seats[seat]?.rating = after }
        }
    }

    /// Shows a seat's rating on the scoreboard: a new seat's, or a restored match's.
    func setRating(_ rating: Rating, of seat: Seat) { host.seats[seat.rawValue]?.rating = rating }

    /// Forgets the feed's lines before `offset`, the least place any spectator has reached.
    func forgetFeed(before offset: Int) { feed.discard(before: offset) }
}

/// Encodes a host's messages, each once for all its recipients, and keeps the latest events as
/// the whole match heard them, so a player who drops briefly is sent just what it missed.
struct EventHistory {
    static let length = 64
    /// The latest events in a ring, the oldest at `oldest` once it is full: every event is
    /// encoded here, and taking the first of an array out moved all the others each time.
    private var kept: [(seq: Int, bytes: [UInt8])] = []
    private var oldest = 0

    init() {}

    /// The message as a line; an event as the match hears it is kept.
    mutating func encode(_ message: HostMessage) -> [UInt8] {
        let bytes = ServerMessageCoding.line(message.message)
        if case .event(let event, _) = message {
            if kept.count < Self.length {
                kept.append((event.seq, bytes))
            } else {
                kept[oldest] = (event.seq, bytes)
                oldest = (oldest + 1) % Self.length
            }
        }
        return bytes
    }

    /// The events after `lastSeq` when every one up to `seq` is still kept; nil if not.
    func events(after lastSeq: Int, upTo seq: Int) -> [[UInt8]]? {
        guard lastSeq <= seq else { return nil }
        guard lastSeq < seq else { return [] }
        let inOrder = kept[oldest...] + kept[..<oldest]
        guard let first = inOrder.first, first.seq <= lastSeq + 1 else { return nil }
        return inOrder.filter { $0.seq > lastSeq }.map(\.bytes)
    }
}
