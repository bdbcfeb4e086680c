import SetDatabase
import SetRules
import SetWire

// Performing what a join asks of the server, in one place, as `apply` does for a room's
// outcome: each `JoinEffect` of a `JoinFlow` is carried out here, and the answer of one asked
// off the loop is fed back to the flow. Meanwhile the connection is `.admitting`, and what it
// sends waits for the answer (`answerHeld`); an answer for a connection closed meanwhile is dropped.
extension Server {
    /// Carries out `effect`, the step `flow` asked for, for `connection`'s join.
    func perform(_ effect: JoinEffect<MatchRoom>, of flow: JoinFlow<MatchRoom>, id: JSONValue?, from connection: Connection,
                 at now: Instant) {
        let world = ServerJoinWorld(server: self, connection: connection)
        /// Feeds an answer to the flow, unless the connection closed or left meanwhile.
        let answer = { [unowned self] (input: JoinInput, noted: () -> Void) in
            guard admitting(connection) else {
                if let room = flow.roomAwaitingSeat { lobby.releaseIfUnused(room) }
                return
            }
            connection.session = .greeted
            noted()
            var flow = flow
            let next = flow.handle(input, in: ServerJoinWorld(server: self, connection: connection))
            perform(next, of: flow, id: id, from: connection, at: clock.now())
        }
        switch effect {
        case .findHome(let match):
            guard let nodes else { return }
            connection.session = .admitting
            nodes.ask({ directory throws(DatabaseError) in try directory.home(of: match) }) { answer(.home($0), {}) }
        case .place(let match):
            guard let nodes else { return }
            connection.session = .admitting
            nodes.place(match, for: connection.address) { answer(.home($0), {}) }
        case .pair(let variant):
            guard let nodes else { return }
            let candidate = lobby.newDuelName()
            nodes.waitingRows.asked(candidate, variant: variant)
            let keeping = nodes.waitingRows.keeping(variant, state: lobby.pairingState(of:))
            let wall = nodes.wallNow
            connection.session = .admitting
            nodes.ask({ directory throws(DatabaseError) in
                try directory.pair(variant, candidate: candidate, keeping: keeping, at: wall)
            }) { result in
                let wrote = if case .success(.wait) = result { true } else { false }
                nodes.waitingRows.answered(candidate, wrote: wrote, by: connection.id)
                answer(.paired(result), {})
            }
        case .lookUp(let name):
            connection.session = .admitting
            let identity = connection.identity
            accounts.ask({ store throws(StoreError) in try JoinLookup.find(name, identity: identity, in: store) }) { [unowned self] result in
                answer(.lookedUp(result)) { if case .success(let found) = result { accounts.noteOwner(connection.id, found.account != nil) } }
            }
        case .writeAccount(let admission):
            connection.session = .admitting
            let wall = accounts.wallSeconds(), charge = recordCharge(for: admission, from: connection)
            accounts.ask({ store throws(StoreError) in
                try AccountWrite.perform(admission, wallSeconds: wall, charging: charge, in: store)
            }) { [unowned self] result in
                answer(.written(result)) { if case .success(let account) = result { accounts.noteOwner(connection.id, account != nil) } }
            }
        case .waitForRecord(let room):
            // `waitForRecord` checks the connection is still joining before it retries.
            let waits = waitForRecord(of: room, joining: connection) { [unowned self] in
                var flow = flow
                let next = flow.handle(.recordTold, in: ServerJoinWorld(server: self, connection: connection))
                perform(next, of: flow, id: id, from: connection, at: clock.now())
            }
            guard !waits else { return }
            var flow = flow
            perform(flow.handle(.recordUnwaitable, in: world), of: flow, id: id, from: connection, at: now)
        case .redirect(let target, let join):
            redirect(connection, to: target, id: id, joining: join)
        case .refuse(let refusal):
            fail(connection, wireError(refusal, for: connection), id: id)
        case .refuseName(let refusal, let join):
            refuseName(refusal, of: join, id: id, to: connection)
        case .watch(let join, let room):
            connection.session = .spectator(room)
            learnAccount(of: connection)
            let outcome = room.watch(connection.id, at: now)
            admit(connection, to: room, as: join, seat: nil, token: nil, resumed: false, replaced: nil, id: id, outcome: outcome, at: now)
        case .resume(let join, let room, let seat, let token):
            connection.session = .player(room, seat)
            accounts.noteOwner(connection.id, room.host.seats[seat.rawValue]?.account != nil)
            let outcome = room.resume(seat, connection: connection.id, at: now)
            admit(connection, to: room, as: join, seat: seat, token: token, resumed: true, replaced: outcome.reply.replaced,
                  id: id, outcome: outcome, at: now)
            measureRoundTrip(of: connection, at: now)
        case .take(let join, let room, let token, let account, let admission):
            takeSeat(join, in: room, token: token, account: account, admission: admission, id: id, from: connection, at: now)
        case .none:
            break
        }
    }

    /// The wire error a join's refusal is told with; a store's or a node's reason goes to the log only.
    private func wireError(_ refusal: JoinRefusal, for connection: Connection) -> WireError {
        switch refusal {
        case .error(let error): return error
        case .store(let error): return storeRefusal(error)
        case .recordLimit(let kind, let waitMs): return recordLimitError(kind, from: connection, waitMs: waitMs)
        case .unreachable(let error, let match):
            guard let nodes else { return WireError(.journalFailed, "\(error)") }
            logQuietly("routing-unreachable", "node \(nodes.me.name) cannot find where \(match) is played: \(error)")
            return nodes.cutOff(from: match)
        case .pairingUnreachable(let error, let refusal):
            logQuietly("pairing-unreachable", "node \(nodes?.me.name ?? "") cannot pair an unnamed player: \(error)")
            return refusal
        }
    }
}
