import SetRules
import SetWire

// Spectator counts announced on a timer, and spectators let go when their match is freed.
extension Server {
    /// Queues a match whose spectator count changed for its next allowed announcement.
    func noteSpectators(_ room: MatchRoom) {
        guard let due = room.host.spectatorAnnouncementDue, announcing.insert(room.host.name).inserted else { return }
        announcements.add(room.host.name, at: due)
    }

    /// Spectators of a match freed before it began go back to the lobby, told why.
    func releaseSpectators() {
        for id in lobby.takeReleased() {
            guard let connection = connections[id], connection.isSpectator else { continue }
            connection.session = .greeted
            fail(connection, WireError(.noSuchMatch, "The match you watched ended before it began: its players left."))
        }
    }
}
