import SetNet
import SetRules
import SetWire

// Performing what a room's input asks of the server, in one place: every input to every room
// (a request, a timer, a departure, a journal that works again) ends here.
extension Server {
    /// Carries out a room's outcome: its lines sent (not to `excluded`, told already), its next
    /// timer and spectator announcement queued, an idle match forgotten and its spectators let go.
    func apply<Reply>(_ outcome: RoomOutcome<Reply>, of room: MatchRoom, except excluded: ConnectionID? = nil) {
        // Commit, then publish: a finished game's record and ratings are in the store before
        // anyone hears the game is over; until the store answers, the room keeps what it said
        // unencoded (`record` publishes it once they are).
        if let finished = outcome.finished { record(finished, of: room) }
        // Two calls, not one on `a + b`: the sum copied every delivery of every action into a new
        // array (retaining each one's recipients, room and line) though `published` is nearly
        // always empty.
        let published = room.publish(committed: committedRecord)
        deliver(outcome.deliveries, except: excluded)
        if !published.isEmpty { deliver(published, except: excluded) }
        schedule(room.host.name, at: outcome.nextDeadline)
        noteSpectators(room.host.name, due: outcome.announcementDue)
        lobby.remove(room, outcome.idleness)
        release(outcome.released)
    }

    /// Queues a match's timers for `deadline`; nil: it has none (`ServerTimers`).
    func schedule(_ name: String, at deadline: Instant?) {
        loop.assertInLoop()
        timers.schedule(name, at: deadline)
    }

    /// Queues a match whose spectator count changed for its next allowed announcement.
    func noteSpectators(_ name: String, due: Instant?) { timers.noteSpectators(name, due: due) }

    /// A restored match's timers and announcement, queued as any outcome's would be.
    func schedule(_ room: MatchRoom) { schedule(room.host.name, at: room.host.nextDeadline) }

    func noteSpectators(_ room: MatchRoom) { noteSpectators(room.host.name, due: room.host.spectatorAnnouncementDue) }

    /// Writes journals' pending lines to disk, and tries again to write those of stalled matches;
    /// those that go on again are applied. The log hears of a stall once at its start and once
    /// at its end.
    func syncJournals(at now: Instant) {
        var resumed: [(MatchRoom, RoomOutcome<NoReply>)] = []
        var together = SyncTogether()
        for room in lobby.rooms.values {
            guard let journal = room.journal else { continue }
            if room.host.stalledAt != nil {
                let name = room.host.name
                if !room.stallReported {
                    room.stallReported = true
                    log("journal of \(name) cannot be written (\(journal.failure ?? "write failed")): the match is paused until it can")
                }
                guard let outcome = room.retryJournal(at: now) else { continue }
                log("journal of \(name) is written again: the match goes on")
                resumed.append((room, outcome))
            } else {
                journal.sync(with: &together)
            }
        }
        together.ask()
        for (room, outcome) in resumed { apply(outcome, of: room) }
    }

    /// Where a finished game's record stands: its end is told once it is committed.
    func committedRecord(of finished: FinishedGame) -> RecordState { accounts.recordState(of: finished) }

    /// Spectators of a match freed before it began go back to the lobby, told why.
    private func release(_ spectators: [ConnectionID]) {
        for id in spectators {
            guard let connection = connections[id], connection.isSpectator else { continue }
            connection.session = .greeted
            fail(connection, WireError(.noSuchMatch, "The match you watched ended before it began: its players left."))
        }
    }
}
