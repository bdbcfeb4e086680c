import SetRules
import SetWire

// The accounts edge of a new name (a seat's is decided by `JoinFlow`, the lobby's here): the
// account and the name's owner are looked up off the loop; the admission is decided on the loop
// with the state as it is when the answer comes. Meanwhile the connection is `.admitting`, and
// what it sends waits for the answer (`answerHeld`); an answer for a connection closed meanwhile
// is dropped.
extension Server {
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

    /// Answers a refused name with `name_taken` and a free one to take instead, found off the loop;
    /// `alsoTaken`: skeletons the suggestion must not be either (the lobby's listed names).
    func refuseName(_ refusal: NameRefusal, of join: JoinRequest, id: JSONValue?, to connection: Connection, alsoTaken: Set<String> = []) {
        connection.session = .admitting
        let claimant = connection.nameClaimant, reserved = accounts.reservedNames
        let sitting = lobby.seatedNames(joining: join).union(alsoTaken)
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
