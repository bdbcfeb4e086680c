import SetNet
import SetRules
import SetWire

// A line from a client, before it is performed: read and counted against the connection's rate
// limit, then performed at once, or held while the connection's join is being answered and
// performed after that answer, in order (Protocol.md, "The shape of a session"). Actions are
// gathered while they come one after another in a read, and performed together before the next
// line of another kind or at the read's end: their journal records go in one write.
extension Server {
    /// `knownSeq`: the match's seq when this read began, if the connection sat in it then.
    func handle(_ line: LineReader.Line, from connection: Connection, at now: Instant, knownSeq: Int,
                gathering actions: inout [PendingAction]) {
        guard let arrived = arrival(of: line, from: connection, at: now) else { return }
        if case .request(let request) = arrived, case .act(let action, let seat, let seen) = request.message,
           !connection.isAdmitting, connection.held.isEmpty {
            actions.append(PendingAction(action: action, claimedSeat: seat, seen: seen, id: request.id, knownSeq: knownSeq))
            return
        }
        act(actions, from: connection, at: now)
        actions = []
        // While its join is answered off the loop, what a connection asks waits to be answered
        // after the join, in order (and so does what comes before the waiting is answered). A pong
        // is taken at once: it answers nothing, and its round trip is timed on arrival.
        if connection.isAdmitting || !connection.held.isEmpty, !arrived.isPong {
            guard connection.held.hold(arrived) else { return fail(connection, HeldRequests.overflow, id: arrived.id) }
            connections.holding.insert(connection.id)
            return
        }
        perform(arrived, from: connection, at: now)
    }

    /// A line read and counted against the connection's rate limit, as a request or the error
    /// answering it; nil for a blank line.
    private func arrival(of line: LineReader.Line, from connection: Connection, at now: Instant) -> ArrivedRequest? {
        if case .complete(let bytes) = line, ClientMessageDecoder.isBlank(bytes) {
            return nil  // empty lines are allowed and ignored, so a person typing in nc can press Enter freely
        }
        switch line {
        case .tooLong(let count):
            guard connection.limiter.allow(at: now) else { return overLimit(connection, at: now, id: nil) }
            return .refused(WireError(.lineTooLong, "A line of \(count) bytes is over the limit of \(config.limits.maxLineBytes); it was ignored."), id: nil)
        case .invalidUTF8:
            guard connection.limiter.allow(at: now) else { return overLimit(connection, at: now, id: nil) }
            return .refused(WireError(.invalidUTF8, "The line was not valid UTF-8; it was ignored."), id: nil)
        case .complete(let bytes):
            // Decoded before the limit is applied, so a dropped request's error can echo its id.
            let decoded = ClientMessageDecoder.decode(bytes)
            // A list, and a leaderboard (which ranks every account), cost what a page of the lobby does.
            let cost = if case .success(let request) = decoded, request.message.isPaged { config.list.cost } else { 1 }
            let id: JSONValue? = switch decoded {
            case .success(let request): request.id
            case .failure(let error): error.details["id"]
            }
            guard connection.limiter.allow(at: now, cost: cost) else { return overLimit(connection, at: now, id: id) }
            switch decoded {
            case .success(let request): return .request(request)
            case .failure(let error):
                if ProxyHeader.isSplitHeaderLine(bytes) {
                    // A proxy sending PROXY headers to a node that was not told of it: its health
                    // checks and every player through it fail, and only this line says why.
                    logQuietly("unlisted proxy \(connection.address)", "#\(connection.id) from \(connection.address) began with a PROXY header, "
                               + "but \(connection.address) is not in --proxy-from: its connections are read as clients' and fail")
                }
                return .refused(error, id: id)
            }
        }
    }

    /// Answers one arrived line: performs its request, or sends the error it earned.
    private func perform(_ arrived: ArrivedRequest, from connection: Connection, at now: Instant) {
        switch arrived {
        case .refused(let error, let id): fail(connection, error, id: id)
        case .request(let request): handle(request, from: connection, at: now)
        }
    }

    /// At the end of each turn of the loop: answers, in the order they came, the requests each
    /// connection sent while its join was being answered, once it is (whichever part answered
    /// it). Stops where one of them (another join) goes off the loop again; a connection gone or
    /// closing drops them.
    func answerHeld() {
        guard !connections.holding.isEmpty else { return }
        let now = clock.now()
        for id in connections.holding {
            guard let connection = connections[id], !connection.closeWhenFlushed else {
                connections.holding.remove(id)
                continue
            }
            while !connection.isAdmitting, !connection.closeWhenFlushed, let next = connection.held.next() {
                perform(next, from: connection, at: now)
            }
            if connection.held.isEmpty { connections.holding.remove(id) }
        }
    }

    private var rateLimited: WireError {
        WireError(.rateLimited, "Over \(config.limits.messagesPerSecond) messages a second; this one was dropped.")
    }

    /// How many lines of one read past the rate limit are answered `rate_limited` (each its `id`
    /// echoed); the rest of that read is dropped unanswered.
    static let refusalsAnsweredPerRead = 10

    /// A line over the connection's rate limit: refused, and the connection is not read again
    /// until half its burst has come back, so a flood waits in the kernel and TCP slows its
    /// sender, instead of being read, parsed and answered line by line on the loop.
    private func overLimit(_ connection: Connection, at now: Instant, id: JSONValue?) -> ArrivedRequest {
        if connection.readingPausedUntil == nil {
            connection.readingPausedUntil = connection.limiter.halfFull(after: now)
            connection.socket.watchReadable(false)
            connections.pausedReaders.insert(connection.id)
        }
        return .refused(rateLimited, id: id)
    }

    /// Reads again the connections whose pause is over.
    func resumeReaders(at now: Instant) {
        guard !connections.pausedReaders.isEmpty else { return }
        for id in connections.pausedReaders {
            guard let connection = connections[id], let until = connection.readingPausedUntil else {
                connections.pausedReaders.remove(id)
                continue
            }
            guard until <= now else { continue }
            connection.readingPausedUntil = nil
            connection.socket.watchReadable(true)
            connections.pausedReaders.remove(id)
        }
    }

    /// When the first paused connection is to be read again, if one is paused.
    var readersResumeAt: Instant? {
        connections.pausedReaders.compactMap { connections[$0]?.readingPausedUntil }.min()
    }
}
