import SetNet
import SetRules
import SetWire

// The loop's turn: how long it may sleep, what is due when it wakes (the parts say; the server
// performs), the sweep, each connection's readiness, and the goodbye at the end.
extension Server {
    func waitMilliseconds() -> Int32 {
        let now = clock.now()
        var next = timers.earliest(admission.pausedUntil)
        if let output = connections.dirty.waitMilliseconds(at: now) { next = min(next, now.adding(output)) }
        if let retry = accounts.nextRetry { next = min(next, retry) }
        if let push = lobby.challenges.pushDue(at: now) { next = min(next, push) }
        if let push = arenaPushDue(at: now) { next = min(next, push) }
        if let resume = readersResumeAt { next = min(next, resume) }
        if let renewal = nodes?.nextDeadline { next = min(next, renewal) }
        if nodes != nil, !chatGate.silencedPoll.asking { next = min(next, chatGate.silencedPoll.next) }
        // Often enough to renew the clock's lease before the clock reaches it (`ServerState`).
        return Int32(max(0, min(ServerState.renewEveryMs, next.milliseconds(since: now))))
    }

    func tick() {
        let now = clock.now()
        for name in timers.dueMatches(at: now) {
            guard let room = lobby.rooms[name] else { continue }
            apply(room.fireTimers(at: now), of: room)
        }
        for name in timers.dueAnnouncements(at: now) {
            guard let room = lobby.rooms[name] else { continue }
            apply(room.announceSpectators(at: now), of: room)
        }
        admission.resumeIfDue(at: now)
        resumeReaders(at: now)
        if !admission.pendingProxies.isEmpty { admission.expireProxyHeaders(at: now) }
        accounts.retryDue(at: now)
        renewNodeLease(at: now)
        if timers.challengeExpiryDue(at: now) { announceExpiredChallenges(at: now) }
        if timers.arenaDeadlineDue(at: now) { advanceArenas(at: now) }
        if timers.arenaScheduleDue(at: now) { keepArenaSchedule() }
        takeSilenceReading()
        pollSilenced(at: now)
        if let slot = timers.dueMeasureSlot(at: now) {
            measureRoundTrips(slot: slot, at: now)
            announceRoundTrips(at: now)
        }
        if timers.sweepDue(at: now) { sweep(at: now) }
        if timers.pruneDue(at: now) { finished?.pruneInBackground(log: log) }
        answerHeld()
        connections.closePending()
        settleLobbyTurn()
        settleArenasTurn()
        connections.flushDirty()
    }

    /// Closes connections that sent nothing for too long, left a line unfinished too long, or
    /// could not be sent their fatal error in a whole sweep; puts new journal lines on disk.
    private func sweep(at now: Instant) {
        syncJournals(at: now)
        quietLog.sayOverdue(at: now)
        connections.closeOverdueLingering(at: now)
        connections.keepQueuesWithinBudget()
        connections.addresses.forgetQuietAllowances(at: now)
        lobby.retireAbandoned(at: now)
        // On nodes the lease's renewals drop them too, each turn, for the listings.
        lobby.dropLapsedReservations(at: now)
        for connection in connections.all where !connection.closeWhenFlushed {
            if now.milliseconds(since: connection.lastInput) > config.limits.idleTimeoutMs {
                fail(connection, WireError(.idleTimeout, "Nothing received for \(config.limits.idleTimeoutMs / 1000) s; send a ping to stay connected.", fatal: true))
            } else if !connection.pingedWhileIdle, now.milliseconds(since: connection.lastInput) > config.limits.idleTimeoutMs / 2 {
                // Half the allowance gone: ask once, so a client that is merely quiet can answer.
                connection.pingedWhileIdle = true
                ping(connection, at: now)
            } else if let since = connection.partialLineSince, now.milliseconds(since: since) > config.partialLineTimeoutMs {
                fail(connection, WireError(.idleTimeout, "A line stayed unfinished for \(config.partialLineTimeoutMs / 1000) s.", fatal: true))
            }
        }
    }

    func shutDown() {
        log("shutting down: telling \(connections.count) client\(connections.count == 1 ? "" : "s")")
        connections.closeAll(saying: ServerMessageCoding.line(.goodbye(reason: "The server is shutting down.")))
        // Records asked for are committed (a game over they hold back is told after a restart).
        accounts.stop()
        nodes?.stop()
        lobby.closeJournals()
        MatchJournal.drain()
        FinishedJournals.drain()
        admission.close()
        (clock as? LeasedTime)?.settle()
        folderLock?.release()
        log("stopped")
    }

    // MARK: Sockets

    func ready(_ connection: Connection, _ readiness: Readiness) {
        guard connections[connection.id] === connection else { return }
        if readiness.contains(.writable) { connections.writable(connection) }
        if readiness.contains(.readable) || readiness.contains(.closed) { read(connection) }
    }

    /// One read per readiness: level-triggered epoll calls again while bytes remain, which keeps
    /// one busy client from starving the others.
    private func read(_ connection: Connection) {
        let lines: [LineReader.Line]
        switch connection.socket.read() {
        case .nothing: return
        case .endOfStream: return markClosed(connection, "disconnected")
        case .failed(let error): return markClosed(connection, "read failed: \(error)")
        case .lines(let read): lines = read
        }
        let now = clock.now()
        connection.lastInput = now
        // An unfinished line is timed from when it began: a read that completed lines starts a new one.
        connection.partialLineSince = !connection.socket.isMidLine ? nil
            : lines.isEmpty ? (connection.partialLineSince ?? now) : now
        // What had been sent the player before these bytes came: a claim among them saw no more.
        let knownSeq = if case .player(let room, _) = connection.session { room.host.seq } else { 0 }
        var actions: [PendingAction] = []
        actions.reserveCapacity(lines.count)
        var overLimit = 0
        for line in lines {
            guard connections[connection.id] != nil, !connection.closeWhenFlushed else { return }
            // Past its rate limit (it is then not read for a while): a few lines are answered, the rest dropped.
            if connection.readingPausedUntil != nil {
                overLimit += 1
                if overLimit >= Self.refusalsAnsweredPerRead { break }
            }
            handle(line, from: connection, at: now, knownSeq: knownSeq, gathering: &actions)
        }
        act(actions, from: connection, at: now)
    }
}
