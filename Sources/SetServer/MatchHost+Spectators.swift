import SetRules
import SetWire

// Spectators: coming and going costs O(1), and the players hear the count at most once per
// `spectatorAnnounceMs`, however many come and go (issue 11 #4, issue 16 #8).
extension MatchHost {
    func addSpectator(_ connection: ConnectionID, at now: Instant) -> [Delivery] {
        spectatorIndex[connection] = spectators.count
        spectators.append(connection)
        return announceSpectators(at: now)
    }

    func removeSpectator(at index: Int) {
        spectatorIndex[spectators[index]] = nil
        let last = spectators.removeLast()
        if index < spectators.count {
            spectators[index] = last
            spectatorIndex[last] = index
        }
    }

    /// When a changed spectator count may next be announced; nil when the players know it.
    var spectatorAnnouncementDue: Instant? {
        guard spectators.count != announcedSpectators else { return nil }
        return announcedSpectatorsAt.map { $0.adding(spectatorAnnounceMs) } ?? .zero
    }

    /// Announces the spectator count if it changed and the last announcement is old enough.
    /// Spectators come and go as numbered events, so the journal keeps each announcement: a
    /// replay must number every event as the live match did. Coalescing bounds both.
    func announceSpectators(at now: Instant) -> [Delivery] {
        guard let due = spectatorAnnouncementDue, due <= now else { return [] }
        announcedSpectators = spectators.count
        announcedSpectatorsAt = now
        let notice = journalFact(.watchers(count: spectators.count, seq: seq + 1, at: now), at: now)
        return notice + [emit(.spectators(count: spectators.count), at: now)]
    }

    /// Lets every spectator go, for a match that ends before it began; returns who they were.
    func releaseSpectators() -> [ConnectionID] {
        defer {
            spectators.removeAll()
            spectatorIndex.removeAll()
        }
        return spectators
    }

    /// Replays a journaled change in the number of spectators.
    func replaySpectators(_ count: Int, at now: Instant) -> [Delivery] {
        announcedSpectators = count
        announcedSpectatorsAt = now
        return [emit(.spectators(count: count), at: now)]
    }
}
