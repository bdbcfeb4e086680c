import SetRules
import SetWire

// Spectators: the players hear the count at most once per `announceMs`, however many
// come and go (issue 11 #4, issue 16 #8).
/// How many watch a match (who they are is the room's to know, `MatchRoom.spectators`), and the
/// count the players were last told, and when: comings and goings in between are announced once,
/// as a count, at most every `announceMs`.
struct SpectatorTally {
    var count = 0
    var announced = 0
    var announcedAt: Instant?
    let announceMs: Int64

    init(announceMs: Int64) { self.announceMs = announceMs }
}

extension MatchHost {
    mutating func spectatorsChanged(by change: Int, at now: Instant) -> HostOutput<NoReply> {
        spectators.count += change
        return announceSpectators(at: now)
    }

    /// When a changed spectator count may next be announced; nil when the players know it.
    var spectatorAnnouncementDue: Instant? {
        guard spectators.count != spectators.announced else { return nil }
        return spectators.announcedAt.map { $0.adding(spectators.announceMs) } ?? .zero
    }

    /// Announces the spectator count if it changed and the last announcement is old enough.
    /// Spectators come and go as numbered events, so the journal keeps each announcement: a
    /// replay must number every event as the live match did. Coalescing bounds both.
    mutating func announceSpectators(at now: Instant) -> HostOutput<NoReply> {
        guard let due = spectatorAnnouncementDue, due <= now else { return HostOutput(isFact: true) }
        spectators.announced = spectators.count
        spectators.announcedAt = now
        let event = emit(.spectators(count: spectators.count), at: now)
        return HostOutput(messages: [event], journal: [.watchers(count: spectators.count, seq: seq, at: now)], isFact: true)
    }

    /// Replays a journaled change in the number of spectators.
    mutating func replaySpectators(_ count: Int, at now: Instant) -> HostOutput<NoReply> {
        spectators.announced = count
        spectators.announcedAt = now
        return HostOutput(messages: [emit(.spectators(count: count), at: now)])
    }
}
