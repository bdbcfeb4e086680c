import SetRules
import SetWire

// An arena player's duels, on their arena connection (Protocol.md, "Arenas"): the connection
// stays the arena's member (its pushes, its pause on close) while it sits in a duel, since the
// membership is the arena room's (`ArenaRooms`) and the seat is the session's. Once that duel's
// game is over the seat is spent: the next pairing's `join` leaves it and takes the new one, so
// the connection is back between duels without a new `arena_join`.
extension Server {
    /// Leaves the finished arena duel `connection` sits in, when it is joined to that duel's
    /// arena as a player: its session is then `.greeted`, ready for the next pairing's `join`.
    /// A duel its opponent never sat in is finished too once the arena counted it a no-show.
    func leaveFinishedArenaDuel(of connection: Connection, at now: Instant) {
        guard case .player(let room, _) = connection.session, let (arena, number) = ArenaStore.parse(match: room.host.name),
              let followed = arenaRooms.room(of: connection.id), followed.name == arena,
              followed.members[connection.id]?.player != nil else { return }
        switch room.host.phase {
        case .over: break
        case .waiting: guard followed.arena.games[number] == nil else { return }
        case .playing: return
        }
        connection.session = .greeted
        apply(room.leave(connection.id, at: now), of: room)
    }
}
