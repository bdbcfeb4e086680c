import SetNet
import SetRules
import SetWire

// Output: every line is encoded once. Players' lines go into their own buffers; a match's
// spectators share its room's `SpectatorFeed` and are given its new lines when their round comes.
extension ConnectionTable {
    func send(_ message: ServerMessage, to connection: Connection) {
        enqueue(ServerMessageCoding.line(message), to: connection)
    }

    func deliver(_ deliveries: [Delivery], except excluded: ConnectionID? = nil) {
        for delivery in deliveries {
            for id in delivery.recipients where id != excluded {
                if let connection = self[id] { enqueue(delivery.bytes, to: connection, broadcast: true) }
            }
            // The room has put the line in its spectators' feed: they are queued once per round.
            if let room = delivery.spectatorsOf {
                dirty.feedGrew(room.host.name, crowded: room.spectators.count >= OutputQueues.crowdSize)
            }
        }
    }

    /// A new spectator's feed starts now: what happened before is in its snapshot.
    func watchFromNow(_ connection: Connection, _ room: MatchRoom) {
        connection.feedOffset = room.feed.end
    }

    /// The spectators of `match`, as its round begins; what all of them were given by the last
    /// round is forgotten (each round gives every one of them everything, or drops it).
    private func roundOfWatchers(_ match: String) -> [ConnectionID] {
        guard let room = lobby.rooms[match] else { return [] }
        let oldest = room.spectators.lazy.compactMap { self[$0]?.feedOffset }.min()
        room.forgetFeed(before: oldest ?? room.feed.end)
        return room.spectators
    }

    /// Moves a spectator's unread feed lines into its own buffer, before anything sent to it
    /// alone, so it receives every line in the order the match produced them.
    private func catchUp(_ connection: Connection) {
        guard case .spectator(let room) = connection.session else { return }
        let unread = room.feed.unread(from: connection.feedOffset)
        connection.feedOffset = room.feed.end
        if !unread.isEmpty, admits(unread.count, to: connection) { connection.socket.send(unread) }
    }

    /// Queues bytes for a connection. A broadcast waits in the connection's lane if it already
    /// has output queued; a direct answer (joined, snapshot, pong...) is queued at once.
    func enqueue(_ bytes: [UInt8], to connection: Connection, broadcast: Bool = false) {
        loop.assertInLoop()
        guard !connection.closeWhenFlushed else { return }
        if connection.isSpectator { catchUp(connection) }
        guard admits(bytes.count, to: connection) else { return }
        let socket = connection.socket
        if socket.pendingBytes == 0 || !broadcast { dirty.add(connection.id, connection.isSpectator ? .spectator : .player) }
        socket.send(bytes)
    }

    /// Whether `count` more bytes fit in the connection's queue. One that cannot keep up is
    /// dropped rather than let it hold memory or slow its match down; what it has not begun to
    /// receive is dropped, so the reason reaches it next.
    private func admits(_ count: Int, to connection: Connection) -> Bool {
        guard !connection.socket.fits(count) else { return true }
        dropSlowConsumer(connection, waiting: connection.socket.pendingBytes + count, because: nil)
        return false
    }

    private func dropSlowConsumer(_ connection: Connection, waiting: Int, because reason: String?) {
        connection.socket.replaceUnstartedLines(with: ServerMessageCoding.line(.error(
            WireError(.slowConsumer, "You are not reading fast enough; disconnected.", fatal: true), id: nil)))
        markClosed(connection, "dropped: slow consumer (\(waiting) bytes waiting\(reason.map { "; \($0)" } ?? ""))", lingering: true)
    }

    /// Drops the connections with the fullest queues as slow consumers while all queues
    /// together hold more than `ServerLimits.queuedBytesTotal`; the sweep calls it.
    func keepQueuesWithinBudget() {
        let budget = limits.queuedBytesTotal
        var open = all.filter { !$0.closeWhenFlushed }
        var total = open.reduce(0) { $0 + $1.socket.pendingBytes }
        guard total > budget else { return }
        open.sort { $0.socket.pendingBytes > $1.socket.pendingBytes }
        for connection in open where total > budget {
            total -= connection.socket.pendingBytes
            dropSlowConsumer(connection, waiting: connection.socket.pendingBytes, because: "all queues together over \(budget / 1_024) KiB")
        }
    }

    /// Sends a coded error; a fatal one closes the connection once it is written.
    func fail(_ connection: Connection, _ error: WireError, id: JSONValue? = nil) {
        send(.error(error, id: id), to: connection)
        if Self.loggedLimits.contains(error.code) {
            // A host learns which limit turned whom away, once a second per address and limit.
            log.quietly("limit \(connection.address) \(error.code.rawValue)",
                        "refused \(connection.label) from \(connection.address): \(error.code.rawValue): \(error.message)")
        }
        if error.fatal {
            // Per address and code: a client taking its seat over again and again (each time
            // closing its last connection with `replaced`) must not write a line each time.
            log.quietly("closing \(connection.address) \(error.code.rawValue)", "closing \(connection.label): \(error.code.rawValue)")
            markClosed(connection, "closed after a fatal error", lingering: true)
        }
    }

    /// The refusals that are a limit reached (Protocol.md, Limits), said in the log as they are
    /// to the client: the connection limits at the door are logged where they are met.
    static let loggedLimits: Set<ErrorCode> = [.serverFull, .addressLimit, .rateLimited, .accountLimit, .challengeLimited, .chatLimited]

    /// A socket with room again: a watcher's waits for its slice like any other spectator
    /// output, so hundreds of them draining never delay a player's input; a player's is written.
    func writable(_ connection: Connection) {
        if case .spectator(let room) = connection.session {
            connection.socket.stopWatchingWritable()
            dirty.add(connection.id, room.spectators.count >= OutputQueues.crowdSize ? .crowd : .spectator)
        } else {
            flush(connection)
        }
    }

    func flushDirty() {
        for id in dirty.takeDue(at: clock.now(), watchers: roundOfWatchers) {
            guard let connection = self[id] else { continue }
            if connection.isSpectator {
                catchUp(connection)
                // A full socket is written when it says it has room, not tried again every round.
                if connection.socket.watchingWritable || connection.closeWhenFlushed { continue }
            }
            flush(connection)
        }
        closePending()
    }

    func flush(_ connection: Connection) {
        if case .failed(let code) = connection.socket.flush() {
            markClosed(connection, "write failed: \(SystemCallError("write", code: code))")
        }
    }
}
