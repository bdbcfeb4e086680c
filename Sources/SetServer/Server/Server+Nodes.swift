import SetDatabase
import SetRules
import SetWire

// Several servers sharing one PostgreSQL store (`serve --node`, Protocol.md "Several servers
// (nodes)"): a join or watch for a match another node holds is redirected there, a match whose
// node is away is `node_away`, a new named match is placed before it is made here, an unnamed
// player is paired through the store (`Server+Pairing`); the join decides each (`JoinFlow`), and
// this serves the rest: redirects, leases, and `list` with every live node's matches.
extension Server {
    /// Tells a connection where its match lives; the connection stays open (the client closes it).
    /// A door connection's redirect carries a handoff ticket, written first (`Server+Handoffs`).
    func redirect(_ connection: Connection, to redirect: Redirect, id: JSONValue?, joining join: JoinRequest) {
        if case .attested = connection.door, redirect.ticket == nil {
            return handOff(connection, to: redirect, id: id, joining: join)
        }
        send(.redirect(redirect, id: id), to: connection)
        logQuietly("redirected", "\(connection.label) sent to \(redirect.address) for \(redirect.match)")
    }

    /// The refusal for an action in `room` while this node's lease has lapsed.
    func nodeLapsedRefusal(_ room: MatchRoom) -> WireError? {
        nodes?.lapsedRefusal(room.host.name)
    }

    /// Renews this node's lease (its matches live by it) and writes their changed listings, when
    /// due, and takes out of the store the waiting rows of duels that filled or emptied.
    func renewNodeLease(at now: Instant) {
        guard let nodes else { return }
        lobby.dropLapsedReservations(at: now)
        nodes.renewIfDue(at: now, changes: lobby.changes, listings: { lobby.rooms.values.map(\.host.listing.storedSummary) + lobbyListing })
        settleWaitingRows()
    }

    /// Answers a `list` page: this server's matches, and every other live node's.
    func answerList(after cursor: MatchList.Key?, limit: Int, id: JSONValue?, to connection: Connection, at now: Instant) {
        guard let nodes else { return enqueue(lobby.listLine(after: cursor, limit: limit, id: id, at: now), to: connection) }
        nodes.otherListings(maxAgeMs: config.list.cacheMs, at: now) { [unowned self] elsewhere in
            guard connections[connection.id] === connection, !connection.closeWhenFlushed else { return }
            enqueue(lobby.listLine(after: cursor, limit: limit, id: id, at: clock.now(), elsewhere: elsewhere), to: connection)
        }
    }
}
