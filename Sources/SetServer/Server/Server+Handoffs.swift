import SetWire

// Handoff tickets (Protocol.md, "Handoff tickets"): the node a door connection reached writes who
// the door vouched for under a ticket, and redirects it; the node holding the match seats a TCP
// join carrying that ticket as the door's player, once. The store is the only witness: nothing
// a client sends can make a door identity on a TCP connection without a row the door's node wrote.
extension Server {
    /// Redirects a door connection with a ticket for its player: the row is written off the loop
    /// (through the store worker) before the redirect that names it is sent; the connection is
    /// `.admitting` meanwhile. A store that cannot write it refuses the join as any store failure.
    /// The row keeps the address the door attested, which the connection already counts at here.
    func handOff(_ connection: Connection, to target: Redirect, id: JSONValue?, joining join: JoinRequest) {
        let handoff = DoorHandoff(identity: connection.identity, name: join.name, match: target.match, address: connection.address)
        let ticket = DoorHandoff.makeTicket(), now = accounts.wallSeconds() * 1_000
        connection.session = .admitting
        accounts.ask({ store throws(StoreError) in
            guard let tickets = store as? HandoffStore else { throw .unavailable("this store keeps no handoff tickets") }
            try tickets.mint(ticket, for: handoff, expiresWallMs: now + DoorHandoff.lifetimeMs, nowWallMs: now)
        }) { [unowned self] result in
            guard admitting(connection) else { return }
            connection.session = .greeted
            switch result {
            case .success:
                var ticketed = target
                ticketed.ticket = ticket
                redirect(connection, to: ticketed, id: id, joining: join)
            case .failure(let error): fail(connection, storeRefusal(error), id: id)
            }
        }
    }

    /// A join carrying a ticket: checked and consumed off the loop; the connection then joins as
    /// the door's player the ticket names, under its name, and anything else is `bad_ticket`.
    /// It counts at the address the row says the door attested, under that address's limits (as
    /// `Admission.attest` does on the door's node), not at the door host's it came from.
    /// `proceed` goes on with the player's request instead of a join (a lobby handed over).
    func redeem(_ ticket: String, of join: JoinRequest, id: JSONValue?, from connection: Connection,
                proceed: ((JoinRequest) -> Void)? = nil) {
        guard connection.door == .none, let match = join.match else { return fail(connection, Self.badTicket, id: id) }
        connection.session = .admitting
        let now = accounts.wallSeconds() * 1_000
        accounts.ask({ store throws(StoreError) -> DoorHandoff? in
            guard let tickets = store as? HandoffStore else { return nil }
            return try tickets.redeem(ticket, match: match, nowWallMs: now)
        }) { [unowned self] result in
            guard admitting(connection) else { return }
            connection.session = .greeted
            switch result {
            case .failure(let error): fail(connection, storeRefusal(error), id: id)
            case .success(nil): fail(connection, Self.badTicket, id: id)
            case .success(let handoff?):
                // Only the row names the address: a join cannot say where it comes from.
                let address = handoff.address ?? connection.address
                if address != connection.address {
                    if let refusal = admission.addressRefusal(for: address, what: "a door player handed over for") {
                        return fail(connection, refusal, id: id)
                    }
                    // The door host paid for this connection on accepting it; the player's
                    // address has paid now, so the door's many players never spend its allowance.
                    connections.addresses.refundConnect(to: connection.address)
                    connections.move(connection, to: address)
                }
                // As if the door had said it here: the door may not speak again on it, and the
                // names kept for the door's keys and guests are its own. Only a house bot comes
                // through the door under an account key; a ticket for a door bot match was minted
                // for a connection the door started for it (A refused any other before redirecting).
                let fingerprint: String? = if case .sshKey(let fingerprint) = handoff.identity { fingerprint } else { nil }
                let houseBot = if case .accountKey = handoff.identity { true } else { false }
                connection.door = .attested(DoorAttestation(fingerprint: fingerprint, address: connection.address, houseBot: houseBot,
                                                            match: DoorAttestation.isBotMatch(handoff.match) ? handoff.match : nil))
                connection.identity = handoff.identity
                logQuietly("handed over from \(address)", "#\(connection.id) came through the door on another node from \(address) as \(handoff.name)")
                var seated = join
                seated.ticket = nil
                seated.account = nil
                seated.name = handoff.name
                if let proceed { return proceed(seated) }
                self.join(seated, id: id, from: connection, at: clock.now())
            }
        }
    }

    /// Any ticket that does not seat: unknown, used, expired, for another match, or not on TCP.
    static let badTicket = WireError(.badTicket, "That handoff ticket is unknown, used, expired or for another match; connect through the door again.",
                                     fatal: true)
}
