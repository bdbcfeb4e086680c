import SetRules
import SetWire

/// One live match on the server: its host (a value), who is connected to it, and the performing
/// of what the host returns. The journal records are written first; only once they are on disk
/// is each message encoded, once for all its recipients, and handed to the server to send. A
/// change whose records cannot be written is undone and refused, and the match stands still
/// until the journal takes writes again: nothing is sent that a restart would not know of.
final class MatchRoom {
    /// An answered input: what to send, and the reply for the connection whose input it was.
    struct Outcome {
        var deliveries: [Delivery]
        var reply: HostReply
    }

    private(set) var host: MatchHost
    /// Who watches. Kept here, not in the host, so that coming and going costs O(1) and a host
    /// copied to undo a change never copies a crowd.
    private(set) var spectators: [ConnectionID] = []
    /// Where each spectator sits in `spectators`, so one leaving costs O(1), not a search.
    private var spectatorIndex: [ConnectionID: Int] = [:]
    /// The lines every spectator is sent, kept once for all of them; the server gives each its
    /// part when its round comes (see `Server+Output`).
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
    private var history: EventHistory

    init(host: MatchHost, journal: (any JournalWriter)? = nil, history: EventHistory = EventHistory(), nextSeed: @escaping () -> UInt64) {
        self.host = host
        self.journal = journal
        self.history = history
        self.nextSeed = nextSeed
    }

    /// Whether nobody is connected to the match, player or spectator.
    var isEmpty: Bool { spectators.isEmpty && !host.hasPresentPlayer }

    /// A spectator comes.
    func watch(_ connection: ConnectionID, at now: Instant) -> [Delivery] {
        spectatorIndex[connection] = spectators.count
        spectators.append(connection)
        return perform(.spectatorCame, at: now).deliveries
    }

    /// A connection is gone: a spectator leaves, a player's seat waits for them.
    func leave(_ connection: ConnectionID, at now: Instant) -> [Delivery] {
        guard let index = spectatorIndex.removeValue(forKey: connection) else { return perform(.leave(connection), at: now).deliveries }
        let last = spectators.removeLast()
        if index < spectators.count {
            spectators[index] = last
            spectatorIndex[last] = index
        }
        if spectators.isEmpty { forgetFeed(before: feed.end) }
        return perform(.spectatorLeft, at: now).deliveries
    }

    /// Lets every spectator go, for a match freed before it began; returns who they were.
    func releaseSpectators() -> [ConnectionID] {
        defer {
            spectators.removeAll()
            spectatorIndex.removeAll()
            forgetFeed(before: feed.end)
        }
        return spectators
    }

    /// Gives the host one input at `now` and performs what it returns. Spectators come and go
    /// through `watch` and `leave`, which keep the room's list.
    func perform(_ input: HostInput, at now: Instant) -> Outcome {
        let saved = host
        var (output, drawn) = run(input, at: now)
        if output.keepJournal { journal?.keep() }
        guard let journal, !output.journal.isEmpty else { return send(output) }
        if output.isFact {
            if saved.stalledAt != nil {
                backlog += output.journal
                return send(output)
            }
            if journal.write(output.journal, sync: output.syncJournal) { return send(output) }
            // It happens whatever the disk says, but after the stall begins: the records wait
            // behind the stall's own, so a replay meets the stall where the live match did.
            host = saved
            let stall = host.stall(at: now)
            backlog = stall.journal
            output = run(input, at: now).output
            backlog += output.journal
            output.messages = stall.messages + output.messages
            return send(output)
        }
        guard journal.write(output.journal, sync: output.syncJournal) else {
            host = saved
            unusedSeed = drawn ?? unusedSeed
            let stall = host.stall(at: now)
            backlog += stall.journal
            return Outcome(deliveries: encode(stall.messages), reply: .refused(MatchHost.journalStalled))
        }
        return send(output)
    }

    /// Tries to write what the stall held back; once it is on disk the match goes on (returns
    /// what it says), otherwise nil and it stays stalled.
    func retryJournal(at now: Instant) -> [Delivery]? {
        guard host.stalledAt != nil, let journal else { return nil }
        let saved = host
        let output = run(.journalWorks, at: now).output
        guard journal.write(backlog + output.journal, sync: output.syncJournal) else {
            host = saved
            return nil
        }
        backlog = []
        stallReported = false
        return send(output).deliveries
    }

    /// The events after `lastSeq` as they were sent, if all of them are still kept; nil means a
    /// snapshot is needed.
    func events(after lastSeq: Int) -> [[UInt8]]? { history.events(after: lastSeq, upTo: host.seq) }

    private func run(_ input: HostInput, at now: Instant) -> (output: HostOutput, drawn: UInt64?) {
        var drawn: UInt64?
        let output = host.handle(input, at: now) {
            let seed = unusedSeed ?? nextSeed()
            unusedSeed = nil
            drawn = seed
            return seed
        }
        return (output, drawn)
    }

    private func send(_ output: HostOutput) -> Outcome {
        Outcome(deliveries: encode(output.messages), reply: output.reply)
    }

    /// Each message encoded once, for the connections that hold its audience now.
    private func encode(_ messages: [HostMessage]) -> [Delivery] {
        guard !messages.isEmpty else { return [] }
        let players = host.seats.map { $0?.connection }
        let present = players.compactMap { $0 }
        return messages.map { message in
            let (recipients, watched): ([ConnectionID], Bool) = switch message.audience {
            case .everyone: (present, true)
            case .everyoneBut(let seat): (present.filter { $0 != players[seat.rawValue] }, true)
            case .player(let seat): (players[seat.rawValue].map { [$0] } ?? [], false)
            case .spectators: ([], true)
            }
            let bytes = history.encode(message)
            guard watched, !spectators.isEmpty else { return Delivery(recipients: recipients, bytes: bytes) }
            feed.append(bytes)
            return Delivery(recipients: recipients, spectatorsOf: self, bytes: bytes)
        }
    }

    /// Forgets the feed's lines before `offset`, the least place any spectator has reached.
    func forgetFeed(before offset: Int) { feed.discard(before: offset) }
}

/// Encodes a host's messages, each once for all its recipients, and keeps the latest events as
/// the whole match heard them, so a player who drops briefly is sent just what it missed.
struct EventHistory {
    static let length = 64
    private var kept: [(seq: Int, bytes: [UInt8])] = []

    init() {}

    /// The message as a line; an event as the match hears it is kept.
    mutating func encode(_ message: HostMessage) -> [UInt8] {
        let bytes = ServerMessageCoding.line(message.message)
        if case .event(let event, _) = message {
            if kept.count == Self.length { kept.removeFirst() }
            kept.append((event.seq, bytes))
        }
        return bytes
    }

    /// The events after `lastSeq` when every one up to `seq` is still kept; nil if not.
    func events(after lastSeq: Int, upTo seq: Int) -> [[UInt8]]? {
        guard lastSeq <= seq else { return nil }
        guard lastSeq < seq else { return [] }
        guard let first = kept.first, first.seq <= lastSeq + 1 else { return nil }
        return kept.filter { $0.seq > lastSeq }.map(\.bytes)
    }
}
