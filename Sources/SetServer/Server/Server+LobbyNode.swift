import SetDatabase
import SetRules
import SetWire

// The lobby across nodes (Protocol.md, "The lobby and challenges"): one room for the whole
// service, `~lobby`, placed by the same rendezvous placement as a match. Its row names the node
// that holds it; every lobby request reaching another node gets the same `redirect` a join gets,
// and `node_away` while that node is away. Presence is live connections: a restarted node, or
// another one placing it after a forget, starts an empty lobby.
extension Server {
    /// The lobby's name in the store's `match_homes` (no match name has a `~`).
    static let lobbyRoom = "~lobby"

    /// Goes on with a lobby request here (`proceed`) when this server holds the lobby: always
    /// without nodes; on a node once the lobby's row names it (placed now if no row does).
    /// Otherwise the client is redirected to the lobby's node, or told it is away.
    func routeLobby(_ request: LobbyRequest, id: JSONValue?, from connection: Connection, proceed: @escaping () -> Void) {
        guard let nodes else { return proceed() }
        // A door player's lobby handed over from another node: the ticket names who it is.
        if case .enter(let join) = request, let ticket = join.ticket {
            var asked = join
            asked.match = Self.lobbyRoom
            return redeem(ticket, of: asked, id: id, from: connection) { [unowned self] player in
                var entered = player
                entered.match = nil
                answerLobby(.enter(entered), id: id, from: connection, at: clock.now())
            }
        }
        routePlaced(Self.lobbyRoom, held: lobby.challenges.heldHere, joining: lobbyJoin(request, connection), id: id, from: connection,
                    hold: { [unowned self] in
                        if !lobby.challenges.heldHere { log("node \(nodes.me.name) holds the lobby") }
                        lobby.challenges.heldHere = true
                    }, proceed: proceed)
    }

    /// Goes on with a request of a placed room (`~lobby`, `~arena-NAME`) here (`proceed`) when
    /// this node holds it (`held`), or once its row names this node (placed now if no row does:
    /// `hold` marks it held). Otherwise the client is redirected to the room's node (`joining`:
    /// the join its door ticket stands for), or told it is away.
    func routePlaced(_ room: String, held: Bool, joining: JoinRequest, id: JSONValue?, from connection: Connection,
                     hold: @escaping () -> Void, proceed: @escaping () -> Void) {
        guard let nodes else { return proceed() }
        guard !held else {
            if let refusal = nodes.lapsedRefusal(room) { return fail(connection, refusal, id: id) }
            return proceed()
        }
        // A connection in a match is answered here (`already_joined`, `not_in_lobby`): it asks nothing of the store.
        guard case .greeted = connection.session else { return proceed() }
        connection.session = .admitting
        let wall = nodes.wallNow, leaseMs = nodes.settings.leaseMs
        nodes.ask({ directory throws(DatabaseError) in try directory.place(room, at: wall, leaseMs: leaseMs) }) { [unowned self] result in
            guard admitting(connection) else { return }
            connection.session = .greeted
            switch result {
            case .failure:
                fail(connection, nodes.cutOff(from: room), id: id)
            case .success(let placement):
                let home = placement.home
                if home.node == nodes.me.name {
                    hold()
                    return proceed()
                }
                guard home.lease.isAlive(at: nodes.wallNow) else {
                    return fail(connection, NodeEdge.away(match: room, node: home.node, retryAfterMs: home.lease.retryAfterMs(at: nodes.wallNow)),
                                id: id)
                }
                redirect(connection, to: Redirect(match: room, address: home.address), id: id, joining: joining)
            }
        }
    }

    /// The join a lobby request stands for in a door connection's handoff ticket.
    private func lobbyJoin(_ request: LobbyRequest, _ connection: Connection) -> JoinRequest {
        if case .enter(let join) = request {
            var asked = join
            asked.match = Self.lobbyRoom
            return asked
        }
        return JoinRequest(name: connection.name, match: Self.lobbyRoom)
    }

    /// The rows this node's renewals keep besides its matches': the lobby's and the arenas' while it holds them,
    /// and each accepted challenge's duel no player has made yet (so a restart, which keeps its
    /// seats, keeps the row that sends its players here). With no seats, no node lists them.
    var lobbyListing: [MatchListing] {
        let rows = (lobby.challenges.heldHere ? [Self.lobbyRoom] : []) + arenaRooms.held.sorted().map(ArenaRoom.room)
            + lobby.reservedMatches.filter { $0.value.unclaimedUntil != nil && lobby.rooms[$0.key] == nil }.keys.sorted()
        return rows.map { MatchListing(name: $0, mode: .duel, phase: .waiting, players: [], spectators: 0) }
    }

    /// Writes the home row of `match`, made here for an accepted challenge, placed on this node
    /// for `forMs` (its placement ends when a player makes it, as any match's does); `then`
    /// runs on the loop with the error, if any.
    func writeHome(of match: String, forMs: Int64, then: @escaping (DatabaseError?) -> Void) {
        guard let nodes else { return then(nil) }
        let wall = nodes.wallNow
        nodes.ask({ directory throws(DatabaseError) in try directory.claim(match, until: wall + forMs) }) { result in
            switch result {
            case .success(true): then(nil)
            case .success(false): then(DatabaseError(.uniqueViolation, "another node holds a match named \(match)"))
            case .failure(let error): then(error)
            }
        }
    }
}
