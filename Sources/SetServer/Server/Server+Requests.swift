import SetNet
import SetRules
import SetWire

// What the server does with each request a client sends (its lines are read in `Server+Lines`).
extension Server {
    /// Performs one request the connection may make now (`handle(_:from:at:)` decides when).
    func handle(_ request: ClientRequest, from connection: Connection, at now: Instant) {
        switch request.message {
        case .ping(let clientTime):
            send(.pong(time: now.milliseconds, clientTime: clientTime, id: request.id), to: connection)
        case .pong(let time):
            connection.roundTrips.answered(time: time, at: now)
            announceRoundTrips(of: connection, at: now)
        case .list(let after, let limit):
            var cursor: MatchList.Key?
            if let after {
                guard let key = MatchList.Key(cursor: after) else {
                    return fail(connection, WireError(.badField, "\"after\" must be the \"next\" of an earlier page.",
                                                      details: ["field": "after"]), id: request.id)
                }
                cursor = key
            }
            answerList(after: cursor, limit: limit ?? ClientMessageDecoder.defaultListLimit, id: request.id, to: connection, at: now)
        case .join(let join):
            self.join(join, id: request.id, from: connection, at: now)
        case .snapshot:
            snapshot(id: request.id, for: connection, at: now)
        case .act(let action, let seat, let seen):
            act(action, claimedSeat: seat, seen: seen, id: request.id, from: connection, at: now)
        case .chat(let room, let text):
            chat(text, in: room, id: request.id, from: connection, at: now)
        case .door(let attestation):
            admission.attest(attestation, id: request.id, from: connection)
        case .account(let query):
            answer(query, id: request.id, from: connection)
        case .lobby(let asked): answerLobby(asked, id: request.id, from: connection, at: now)
        case .health: answerHealth(id: request.id, from: connection, at: now)
        case .arena(let asked): answerArena(asked, id: request.id, from: connection, at: now)
        }
    }

    private func snapshot(id: JSONValue?, for connection: Connection, at now: Instant) {
        guard let room = connection.room else { return fail(connection, notJoined, id: id) }
        // A snapshot would show a game over nobody may hear of yet: it waits until it is told.
        if room.isHoldingBack {
            let waits = waitForRecord(of: room, joining: nil) { [unowned self] in
                guard connections[connection.id] === connection, !connection.closeWhenFlushed else { return }
                snapshot(id: id, for: connection, at: clock.now())
            }
            if !waits { fail(connection, MatchRoom.recordUnwritten, id: id) }
            return
        }
        send(.snapshot(room.host.snapshot(forSpectator: connection.isSpectator, at: now)), to: connection)
    }

    private var notJoined: WireError {
        WireError(.notJoined, "Join a match first: {\"type\":\"join\",\"name\":\"you\"}.")
    }

    func join(_ join: JoinRequest, id: JSONValue?, from connection: Connection, at now: Instant) {
        // An arena player's connection goes from a finished duel to the next pairing's.
        leaveFinishedArenaDuel(of: connection, at: now)
        switch connection.session {
        case .greeted: break
        // A connection whose join is being answered holds its requests (`answerHeld`): no join comes then.
        case .admitting, .player, .spectator:
            return fail(connection, WireError(.alreadyJoined, "This connection has already joined a match; open another to join again."), id: id)
        }
        if let ticket = join.ticket { return redeem(ticket, of: join, id: id, from: connection) }
        // A new seat (a reserved token's first one too) is taken under a name its account owns
        // (or no account owns, for a guest) and nobody else sits under in that match; a seat
        // resumed by its token keeps the name and account it was taken with. The account is
        // looked up, and made or renamed, off the loop (`JoinFlow`), and only once the seat
        // is sure: a refused join writes nothing.
        identify(connection, by: join)
        var flow = JoinFlow<MatchRoom>()
        let first = flow.start(join, in: ServerJoinWorld(server: self, connection: connection))
        perform(first, of: flow, id: id, from: connection, at: now)
    }

    /// Takes a new seat in `room` with the account its admission gave (written already).
    func takeSeat(_ join: JoinRequest, in room: MatchRoom, token: String, account: StoredAccount?, admission: SeatAdmission,
                  id: JSONValue?, from connection: Connection, at now: Instant) {
        spendAllowance(for: admission, from: connection)
        accounts.noteOwner(connection.id, account != nil)
        // A casual arena's duel is reserved unrated: its seats are casual whatever the join asks,
        // and the journal keeps it so, for a restart and a replay.
        let unrated = lobby.reservedMatches[room.host.name]?.rated == false
        let seatAccount = account.map { SeatAccount(id: $0.id, casual: join.casual || unrated) }
        let outcome = room.join(name: join.name, token: token, connection: connection.id, seat: join.seat, account: seatAccount,
                                rating: account?.rating(room.host.variant), at: now)
        switch outcome.reply {
        case .refused(let error):
            apply(outcome, of: room)
            fail(connection, error, id: id)
        case .seated(let seat):
            lobby.seated(room, seat, token: token, address: connection.address)
            connection.session = .player(room, seat)
            // A first seat, even one reserved for the token it came with (`setgame play`'s).
            admit(connection, to: room, as: join, seat: seat, token: token, resumed: false, replaced: nil, id: id, outcome: outcome, at: now)
            measureRoundTrip(of: connection, at: now)
        }
    }

    /// Tells a connection it joined, with what it missed, and everyone else what its joining caused.
    func admit<Reply>(_ connection: Connection, to room: MatchRoom, as join: JoinRequest, seat: Seat?, token: String?,
                              resumed: Bool, replaced: ConnectionID?, id: JSONValue?, outcome: RoomOutcome<Reply>, at now: Instant) {
        let host = room.host
        let role: Role = seat == nil ? .spectator : .player
        connection.name = join.name
        // What its own coming caused is already in the feed, and in the snapshot it is sent.
        if connection.isSpectator { watchFromNow(connection, room) }
        send(.joined(role: role, match: host.name, mode: host.mode, seat: seat, token: token, resumed: resumed, id: id), to: connection)
        // A player back from a short drop gets only what it missed, when all of it is kept.
        if resumed, let lastSeq = join.lastSeq, let missed = room.events(after: lastSeq) {
            missed.forEach { enqueue($0, to: connection) }
        } else {
            send(.snapshot(host.snapshot(forSpectator: role == .spectator, at: now)), to: connection)
        }
        sendChatBacklog(to: connection, of: room)
        if let old = replaced, let previous = connections[old] {
            previous.session = .greeted
            fail(previous, WireError(.replaced, "Your seat was resumed from another connection.", fatal: true))
        }
        // The snapshot already shows what this join caused; everyone else hears it as events.
        apply(outcome, of: room, except: connection.id)
        if connection.isSpectator { watchFromNow(connection, room) }
        if role == .spectator || !host.holdsSeats {
            return logQuietly(role == .spectator ? "spectator-joined" : "joined", "\(connection.label) joined from \(connection.address)")
        }
        // Per address: a client reconnecting within the connect rate must not write a line each time.
        logQuietly("joined from \(connection.address)",
                   "\(connection.label) joined\(join.token != nil ? " with a token" : "") from \(connection.address)"
                   + (host.phase == .playing ? "; \(host.name) is playing" : ""))
    }

    private func act(_ action: Action, claimedSeat: Seat?, seen: Int?, id: JSONValue?, from connection: Connection, at now: Instant) {
        // Only a line held behind its join comes here: read before its sender sat, it saw nothing.
        act([PendingAction(action: action, claimedSeat: claimedSeat, seen: seen, id: id, knownSeq: 0)], from: connection, at: now)
    }

    /// Performs a connection's actions in order: those that may be performed, together (their
    /// records in one journal write, `MatchRoom.changes`); each refused one answered in its place.
    func act(_ actions: [PendingAction], from connection: Connection, at now: Instant) {
        guard !actions.isEmpty else { return }
        let room: MatchRoom, seat: Seat
        switch connection.session {
        case .greeted, .admitting: return actions.forEach { fail(connection, notJoined, id: $0.id) }
        case .spectator: return actions.forEach { fail(connection, WireError(.spectatorsCannotAct, "Spectators can watch but not play."), id: $0.id) }
        case .player(let playing, let own):
            room = playing
            seat = own
        }
        if let refusal = nodeLapsedRefusal(room) { return actions.forEach { fail(connection, refusal, id: $0.id) } }
        var together: [PendingAction] = []
        together.reserveCapacity(actions.count)
        for pending in actions {
            if let claimed = pending.claimedSeat, claimed != seat {
                perform(together, in: room, by: seat, from: connection, at: now)
                together = []
                fail(connection, WireError(.notYourSeat, "You sit in seat \(seat.rawValue), not seat \(claimed.rawValue)."), id: pending.id)
            } else if pending.action == .rematch {
                // Alone: only a rematch begins a game, so each performance logs at most one end
                // and one start, in that order.
                perform(together, in: room, by: seat, from: connection, at: now)
                together = []
                perform([pending], in: room, by: seat, from: connection, at: now)
            } else {
                together.append(pending)
            }
        }
        perform(together, in: room, by: seat, from: connection, at: now)
    }

    private func perform(_ actions: [PendingAction], in room: MatchRoom, by seat: Seat, from connection: Connection, at now: Instant) {
        guard !actions.isEmpty else { return }
        // Read in place: a copy of the host (`let host = room.host`) retained each of its parts
        // on every action only to compare two numbers.
        let phaseBefore = room.host.phase, gameBefore = room.host.game
        let outcomes = room.act(actions, by: seat, at: now, lag: claimLag(in: room))
        for (pending, outcome) in zip(actions, outcomes) {
            apply(outcome, of: room)
            switch outcome.reply {
            case .refused(let refusal): fail(connection, refusal, id: pending.id)
            case .accepted(let seq): if let id = pending.id { send(.ack(id: id, seq: seq), to: connection) }
            case .held: break  // answered once its claim race is decided
            }
        }
        if room.host.phase == .over && phaseBefore != .over, let result = room.host.match?.result {
            log("\(room.host.name) game \(room.host.game) over (\(result.reason.rawValue)): scores \(result.scores.map(String.init).joined(separator: "-"))")
        }
        if room.host.game != gameBefore { log("\(room.host.name) game \(room.host.game) started") }
    }
}
