import SetRules
import SetWire

// Spectators: the players hear the count at most once per `spectatorAnnounceMs`, however many
// come and go (issue 11 #4, issue 16 #8).
extension MatchHost {
    mutating func spectatorsChanged(by change: Int, at now: Instant) -> HostOutput<NoReply> {
        spectatorCount += change
        return announceSpectators(at: now)
    }

    /// When a changed spectator count may next be announced; nil when the players know it.
    var spectatorAnnouncementDue: Instant? {
        guard spectatorCount != announcedSpectators else { return nil }
        return announcedSpectatorsAt.map { $0.adding(spectatorAnnounceMs) } ?? .zero
    }

    /// Announces the spectator count if it changed and the last announcement is old enough.
    /// Spectators come and go as numbered events, so the journal keeps each announcement: a
    /// replay must number every event as the live match did. Coalescing bounds both.
    mutating func announceSpectators(at now: Instant) -> HostOutput<NoReply> {
        guard let due = spectatorAnnouncementDue, due <= now else { return HostOutput(isFact: true) }
        announcedSpectators = spectatorCount
        announcedSpectatorsAt = now
        let event = emit(.spectators(count: spectatorCount), at: now)
        return HostOutput(messages: [event], journal: [.watchers(count: spectatorCount, seq: seq, at: now)], isFact: true)
    }

    /// Replays a journaled change in the number of spectators.
    mutating func replaySpectators(_ count: Int, at now: Instant) -> HostOutput<NoReply> {
        announcedSpectators = count
        announcedSpectatorsAt = now
        return HostOutput(messages: [emit(.spectators(count: count), at: now)])
    }
}
