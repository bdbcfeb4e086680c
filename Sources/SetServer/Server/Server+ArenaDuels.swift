import SetArena
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

    /// The `arena_pairing` line telling `player` their seat in a told duel of `room`.
    func pairingLine(_ game: ArenaGame, tokens: [String], for player: String, in room: ArenaRoom) -> [UInt8]? {
        guard let index = game.players.firstIndex(of: player), tokens.indices.contains(index) else { return nil }
        let match = ArenaStore.match(arena: room.name, game: game.number)
        return ServerMessageCoding.line(.arenaPairing(ArenaPairingNotice(arena: room.name, match: match, token: tokens[index],
                                                                         opponent: game.players[1 - index])))
    }

    /// Tells a player who joined the arena again (a new connection, or after its node restarted)
    /// the seat of each duel told to them whose seat wait still runs: the connection that was told
    /// may be gone, and without its token the duel would be their no-show.
    func retellPairings(of player: String, to connection: Connection, in room: ArenaRoom) {
        for (number, tokens) in room.seatTokens.sorted(by: { $0.key < $1.key }) {
            guard let game = room.arena.games[number], let line = pairingLine(game, tokens: tokens, for: player, in: room) else { continue }
            if case .player(let seated, _) = connection.session, seated.host.name == ArenaStore.match(arena: room.name, game: number) { continue }
            enqueue(line, to: connection)
        }
    }
}
