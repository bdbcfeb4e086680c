import SetDatabase
import SetRules
import SetWire

// Several servers sharing one PostgreSQL store (`serve --node`, Protocol.md "Several servers
// (nodes)"): a join or watch for a match another node holds is redirected there, a match whose
// node is away is `node_away`, a new named match is placed before it is made here, an unnamed
// player is paired through the store (`Server+Pairing`), and `list` shows every live node's matches.
// Without `--node` every call here goes straight on.
extension Server {
    /// Goes on with `join` here (`proceed`) unless its match lives elsewhere: then the client is
    /// told where (`redirect`), or that its node is away. A lookup in the store is made off the
    /// loop; the connection is `.admitting` meanwhile. A player who names no match is paired
    /// through the store (`Server+Pairing`), and `proceed` gets the join naming their duel here.
    func routeAcrossNodes(_ join: JoinRequest, id: JSONValue?, from connection: Connection, proceed: @escaping (JoinRequest) -> Void) {
        guard let nodes else { return proceed(join) }
        // A resume that names no match goes where its token's match lives (the token names it):
        // a node that does not hold that match redirects there, never `bad_token` for a seat held
        // on another node.
        var join = join
        if join.role == .player, join.match == nil, let token = join.token, let named = TokenMatch.match(of: token) { join.match = named }
        if let unnamed = pairingJoin(join) { return pairAcrossNodes(unnamed, id: id, from: connection, proceed: proceed) }
        // A drained node makes no new match of any kind: a solo game naming none would be one.
        if nodes.lease.draining, join.role == .player, join.mode == .solo, join.match == nil, join.token == nil {
            return fail(connection, nodes.drainedRefusal, id: id)
        }
        if lobby.holdsHere(join) {
            if let match = join.match ?? join.token.flatMap(lobby.matchName(ofToken:)), let refusal = nodes.lapsedRefusal(match) {
                return fail(connection, refusal, id: id)
            }
            return proceed(join)
        }
        // A seat token resumes a seat where it was taken: it places nothing.
        if let match = join.match, join.role == .player, join.token == nil {
            // A placement writes a row before any match exists: one address holds only so many.
            if let refusal = nodes.placementRefusal(for: connection.address, cap: config.addressLimits.placements) {
                return fail(connection, refusal, id: id)
            }
            connection.session = .admitting
            nodes.place(match, for: connection.address) { [unowned self] result in
                answerRoute(of: join, match: match, result.map(Optional.some), id: id, connection: connection, proceed: proceed)
            }
            return
        }
        connection.session = .admitting
        if let match = join.match {
            nodes.ask({ directory throws(DatabaseError) in try directory.home(of: match) }) { [unowned self] result in
                answerRoute(of: join, match: match, result, id: id, connection: connection, proceed: proceed)
            }
            return
        }
        proceed(join)  // nothing else is asked of the store
    }

    /// Goes on with a join for `match` as the store answered where it lives: here, elsewhere
    /// (`redirect`), on a node that is away, or nowhere yet (`proceed`: no such match).
    private func answerRoute(of join: JoinRequest, match: String, _ result: Result<MatchHome?, DatabaseError>, id: JSONValue?,
                             connection: Connection, proceed: @escaping (JoinRequest) -> Void) {
        guard admitting(connection), let nodes else { return }
        connection.session = .greeted
        switch result {
        case .failure(let error): fail(connection, unreachable(error, match: match), id: id)
        case .success(nil): proceed(join)
        case .success(let home?):
            guard home.node != nodes.me.name else { return proceed(join) }
            guard home.lease.isAlive(at: nodes.wallNow) else {
                return fail(connection, NodeEdge.away(match: match, node: home.node, retryAfterMs: home.lease.retryAfterMs(at: nodes.wallNow)), id: id)
            }
            redirect(connection, to: Redirect(match: match, address: home.address), id: id, joining: join)
        }
    }

    /// Tells a connection where its match lives; the connection stays open (the client closes it).
    /// A door connection's redirect carries a handoff ticket, written first (`Server+Handoffs`).
    func redirect(_ connection: Connection, to redirect: Redirect, id: JSONValue?, joining join: JoinRequest) {
        if case .attested = connection.door, redirect.ticket == nil {
            return handOff(connection, to: redirect, id: id, joining: join)
        }
        send(.redirect(redirect, id: id), to: connection)
        logQuietly("redirected", "\(connection.label) sent to \(redirect.address) for \(redirect.match)")
    }

    /// A lookup the shared store could not answer: this node cannot say where the match is.
    private func unreachable(_ error: DatabaseError, match: String) -> WireError {
        guard let nodes else { return WireError(.journalFailed, "\(error)") }
        return NodeEdge.away(match: match, node: nodes.me.name, retryAfterMs: max(1_000, nodes.settings.renewEveryMs))
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
