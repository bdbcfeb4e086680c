import SetRules
import SetWire

// A join that takes a new seat, through the accounts edge: the account and the name's owner are
// looked up off the loop; the admission is decided on the loop with the match as it is when the
// answer comes; a new account or name is written off the loop, and the seat taken when it is.
// Meanwhile the connection is `.admitting`, and what it sends waits for the answer (`answerHeld`);
// an answer for a connection closed meanwhile is dropped.
extension Server {
    /// Looks up the joining player's account and its name's owner, then decides its admission.
    func admitToSeat(_ join: JoinRequest, id: JSONValue?, from connection: Connection) {
        decideAdmission(of: join, sitting: { self.lobby.holder(of: $0, joining: join) }, id: id, from: connection) { [unowned self] admission, _ in
            seat(join, admission: admission, id: id, from: connection, at: clock.now())
        }
    }

    /// The step every new name goes through (a seat, the lobby's list): the account and the
    /// name's owner looked up off the loop, the admission decided on the loop when they come.
    /// A refusal is answered here; `admitted` gets the admission and what the lookup found.
    func decideAdmission(of join: JoinRequest, sitting: @escaping (String) -> SeatHolder?, id: JSONValue?, from connection: Connection,
                         admitted: @escaping (SeatAdmission, JoinLookup) -> Void) {
        connection.session = .admitting
        let name = join.name, identity = connection.identity
        accounts.ask({ store throws(StoreError) in try JoinLookup.find(name, identity: identity, in: store) }) { [unowned self] result in
            guard admitting(connection) else { return }
            connection.session = .greeted
            let lookup: JoinLookup
            switch result {
            case .failure(let error): return fail(connection, storeRefusal(error), id: id)
            case .success(let found): lookup = found
            }
            accounts.noteOwner(connection.id, lookup.account != nil)
            let decision = JoinDecision(name, identity: identity, claimant: connection.nameClaimant, bot: join.bot, lookup: lookup,
                                        reserved: accounts.reservedNames, sitting: sitting,
                                        limit: { self.recordRefusal($0, from: connection) })
            switch decision {
            case .admitted(let admission): admitted(admission, lookup)
            case .limited(let error): fail(connection, error, id: id)
            case .nameRefused(let refusal): refuseName(refusal, of: join, id: id, to: connection)
            }
        }
    }

    /// Makes or renames the account an admitted join takes its seat with, then takes the seat,
    /// seating checked again: the match may have filled, gone, or seated the name meanwhile.
    func writeAccount(_ admission: SeatAdmission, for join: JoinRequest, in room: MatchRoom, token: String, id: JSONValue?,
                      from connection: Connection) {
        connection.session = .admitting
        let wall = accounts.wallSeconds(), charge = recordCharge(for: admission, from: connection)
        accounts.ask({ store throws(StoreError) in
            try AccountWrite.perform(admission, wallSeconds: wall, charging: charge, in: store)
        }) { [unowned self] result in
            guard admitting(connection) else { return }
            connection.session = .greeted
            let account: StoredAccount?
            switch result {
            case .failure(.overAllowance(let waitMs)):
                // Spent through other nodes: the ration is the service's (issue 42 item 2).
                return fail(connection, recordLimitError(admission.recordKind, from: connection, waitMs: waitMs), id: id)
            case .failure(.nameTaken):
                // Another server sharing the store took the name since it was looked up.
                return refuseName(NameRefusal(name: join.name, because: "belongs to another player here"), of: join, id: id, to: connection)
            case .failure(let error): return fail(connection, storeRefusal(error), id: id)
            case .success(let written): account = written
            }
            accounts.noteOwner(connection.id, account != nil)
            // A node's duel this player was paired into may have filled while the account was written.
            if let unnamed = pairingJoin(join) {
                return pairAcrossNodes(unnamed, id: id, from: connection) { [unowned self] in admitToSeat($0, id: id, from: connection) }
            }
            guard lobby.rooms[room.host.name] === room else {
                return fail(connection, WireError(.noSuchMatch, "The match you were joining ended before your seat was ready; join again."), id: id)
            }
            if let refusal = room.host.seatRefusal(requested: join.seat) { return fail(connection, refusal, id: id) }
            if let holder = lobby.holder(of: join.name, joining: join), holder != account.map({ .account(id: $0.id) }) {
                return refuseName(NameRefusal(name: join.name, because: "is another player's in that match"), of: join, id: id, to: connection)
            }
            takeSeat(join, in: room, token: token, account: account, admission: admission, id: id, from: connection, at: clock.now())
        }
    }

    /// Answers a refused name with `name_taken` and a free one to take instead, found off the loop.
    func refuseName(_ refusal: NameRefusal, of join: JoinRequest, id: JSONValue?, to connection: Connection) {
        connection.session = .admitting
        let claimant = connection.nameClaimant, reserved = accounts.reservedNames, sitting = lobby.seatedNames(joining: join)
        accounts.ask({ store throws(StoreError) in
            try NameSuggestion.free(like: refusal.name, for: claimant, reserved: reserved, sitting: sitting, in: store)
        }) { [unowned self] result in
            guard admitting(connection) else { return }
            connection.session = .greeted
            switch result {
            case .success(let suggestion): fail(connection, NameSuggestion.error(refusal, suggestion: suggestion), id: id)
            case .failure(let error): fail(connection, storeRefusal(error), id: id)
            }
        }
    }

    /// Runs `retry` once the finished game `room` holds back is told, or its record failed a
    /// first time (the retry then refuses); a joining connection is `.admitting` meanwhile. False:
    /// nothing waits (the store has failed already), and the caller refuses now.
    func waitForRecord(of room: MatchRoom, joining connection: Connection?, retry: @escaping () -> Void) -> Bool {
        guard let finished = room.unpublished.games.first?.finished else { return false }
        let waits = accounts.afterRecord(of: finished) { [unowned self] in
            if let connection {
                guard admitting(connection) else { return }
                connection.session = .greeted
            }
            retry()
        }
        if waits, let connection { connection.session = .admitting }
        return waits
    }

    /// Whether an answer for `connection`'s join still has someone to go to.
    func admitting(_ connection: Connection) -> Bool {
        guard connections[connection.id] === connection, !connection.closeWhenFlushed, case .admitting = connection.session else { return false }
        return true
    }

    /// A join the store could not serve: nothing was written, and the player may come as a guest.
    func storeRefusal(_ error: StoreError) -> WireError {
        storeUnreachable(error, "join as a guest or try later")
    }

    /// What a player hears when the accounts store cannot answer: the reason (a database URL, a
    /// path, a driver's message) goes to the server's log only, never to the public port.
    func storeUnreachable(_ error: StoreError, _ advice: String) -> WireError {
        quietLog.quietly("accounts-unreachable", "the accounts store cannot answer: \(error)")
        return WireError(.journalFailed, "The server cannot reach its accounts right now; \(advice).")
    }

    /// Whether a connection's identity owns an account, learnt off the loop for one that joins
    /// without a seat of its own (a spectator with a key): its chat is then counted by account.
    func learnAccount(of connection: Connection) {
        let identity = connection.identity
        guard identity != .guest, !accounts.ownsAccount(connection.id) else { return }
        accounts.ask({ store throws(StoreError) in try store.account(for: identity) != nil }) { [unowned self] result in
            guard connections[connection.id] === connection, case .success(let owns) = result else { return }
            accounts.noteOwner(connection.id, owns)
        }
    }
}
