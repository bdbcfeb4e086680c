import SetRatings
import SetRules
import SetWire

// Accounts at the server's edge: who a joining player is, games recovered after a crash, and
// the answers to profile, history, crosstable and leaderboard.
extension Server {
    /// The identity a join's account key gives a connection the door has not vouched for. A
    /// keyless player the door vouched for is a guest whatever key its client sends: a guest
    /// is a guest, with no account and no rating; only the door's house bots, which keep their
    /// keys in the door's state folder, are known by one there.
    func identify(_ connection: Connection, by join: JoinRequest) {
        guard case .guest = connection.identity, let key = join.account else { return }
        switch connection.door {
        case .none, .awaiting: break
        case .attested(let attestation): guard attestation.houseBot else { return }
        }
        connection.identity = .accountKey(digest: SHA256.hex(key))
    }

    /// Restored matches' scoreboards: each seat's rating now, read at start, before the loop
    /// runs. (Games that ended after their journal said so but before the store did were
    /// recorded as the journals replayed, `recovered`; those the store could not take wait in
    /// their rooms and go to the edge, to be recorded once it can.)
    func recoverGames(of rooms: [MatchRoom]) {
        for room in rooms {
            for seat in room.host.mode.seats {
                guard let id = room.host.seats[seat.rawValue]?.account?.id,
                      let account = try? accounts.synchronously({ store throws(StoreError) in try store.account(id: id) }) ?? nil else { continue }
                room.setRating(account.rating(room.host.variant), of: seat)
            }
            // A finished rated game shows its changes again, as its snapshot did before the stop.
            if room.host.phase == .over, let commitment = room.host.lastFinished?.commitment,
               let record = try? accounts.synchronously({ store throws(StoreError) in try store.game(commitment: commitment) }) ?? nil,
               record.rated {
                room.show(record)
            }
            for waiting in room.unpublished.games { record(waiting.finished, of: room) }
        }
    }

    /// A replayed game's record, at start: the one the store holds, or, for a game that ended
    /// after its journal said so but before the store did (a stop between the two writes, so its
    /// end was never told), one written now. The store decides what it keeps as for a game that
    /// ends live (`GameRecord.isKept`): an arena's duel of guests, which its arena recounts from
    /// its record, is written; another game of guests alone is not, at this start or any other.
    static func recovered(_ finished: FinishedGame, in store: AccountStore, wallSeconds: Int64, log: ServerLog) -> RecordState {
        do throws(StoreError) {
            if let game = try store.game(commitment: finished.commitment) { return .committed(game) }
            let record = try store.record(finished, journal: "\(finished.match).jsonl", wallSeconds: wallSeconds, policy: .standard)
            if record != nil { log("recorded \(finished.match) game \(finished.game), which ended before the server stopped") }
            return .committed(record)
        } catch {
            log("cannot write the record of \(finished.match) game \(finished.game) (\(error)): its game over waits until it is written")
            return .unwritten
        }
    }

    /// Commit, then publish: a finished game's record goes to the store off the loop, and what
    /// the room said from the game's end on is published once it is committed. While the store
    /// cannot take it, it is tried again, and the players are told their result waits.
    func record(_ finished: FinishedGame, of room: MatchRoom) {
        accounts.record(finished, journal: "\(finished.match).jsonl", delayed: { [unowned self] in
            for seat in room.host.seats.compactMap({ $0 }) {
                guard let id = seat.connection, let connection = connections[id] else { continue }
                fail(connection, Self.resultWaits)
            }
        }, committed: { [unowned self] in
            apply(room.publishedOutcome(committed: committedRecord), of: room)
            countArenaGame(finished)
        })
    }

    /// What the players of a finished game hear while the store cannot take its record.
    static let resultWaits = WireError(.journalFailed, "The server cannot save this game's result to its accounts right now; it is told as soon as it is saved, and nothing is lost.")

    /// Answers an account question off the loop: the reply goes to the connection when the
    /// store answers, if it is still open. One connection, and all together, may have only so
    /// many questions waiting (`AccountsEdge.questionBound`).
    func answer(_ query: AccountQuery, id: JSONValue?, from connection: Connection) {
        let identity = connection.identity
        // A profile's arenas are in the state they have at the store's wall time, or, for one
        // held here, at the room's own (its timers run on this server's clock).
        let wall = wallNow
        let held = arenaRooms.rooms.mapValues { $0.time(at: clock.now()) }
        answerFromStore(id: id, from: connection) { store throws(StoreError) in
            try Self.reply(to: query, id: id, identity: identity, arenasAt: { held[$0] ?? wall }, in: store)
        }
    }

    /// Asks the store off the loop, as an account question (bounded per connection), and sends
    /// the line it answers, or its refusal (account questions, and arenas' from the store).
    func answerFromStore(id: JSONValue?, from connection: Connection, on lane: AccountsEdge.Lane = .questions,
                         _ call: @escaping @Sendable (AccountStore) throws(StoreError) -> Result<[UInt8], WireError>) {
        let asked = accounts.askQuestion(from: connection.id, on: lane, call) { [unowned self] result in
            guard connections[connection.id] === connection, !connection.closeWhenFlushed else { return }
            switch result {
            case .success(.success(let line)): enqueue(line, to: connection)
            case .success(.failure(let error)): fail(connection, error, id: id)
            case .failure(let error): fail(connection, storeUnreachable(error, "ask again later"), id: id)
            }
        }
        guard !asked else { return }
        fail(connection, WireError(.rateLimited, "Too many account questions are waiting for an answer; this one was dropped, ask again in a moment."), id: id)
    }

    /// The reply line to an account question; runs on the accounts worker.
    private static func reply(to query: AccountQuery, id: JSONValue?, identity: PlayerIdentity, arenasAt: (String) -> Int64,
                              in store: AccountStore) throws(StoreError) -> Result<[UInt8], WireError> {
        let line = { (info: AccountInfo) in ServerMessageCoding.line(.accountInfo(info, id: id)) }
        switch query {
        case .profile(let name):
            let answered = try store.profile(name)
            guard case .success(let profile) = answered else { return answered.map { line($0.info) } }
            var info = profile.info
            // Present once the account joined an arena, so an older profile reads as it did; read
            // only then, so most profiles are one statement.
            let arenas = profile.joinedArenas ? try store.profileArenas(ofAccountNamed: name, limit: ArenaProfiles.listed) : []
            if !arenas.isEmpty { info.fields["arenas"] = .array(arenas.map { $0.line(at: arenasAt($0.name)) }) }
            return .success(line(info))
        case .history(let name, let key, let after, let limit):
            let asker = key.map { PlayerIdentity.accountKey(digest: SHA256.hex($0)) } ?? identity
            var named = name
            if named == nil { named = try store.account(for: asker)?.name }
            guard let name = named else {
                return .failure(WireError(.missingField, "\"name\" is required: this connection has no account to show the history of.",
                                          details: ["field": "name"]))
            }
            return try store.history(name, after: after, limit: limit ?? ClientMessageDecoder.defaultListLimit, id: id)
        case .crosstable(let name, let other): return try store.crosstable(name, other).map(line)
        case .leaderboard(let variant, let after, let limit):
            return try store.leaderboard(variant, after: after, limit: limit ?? ClientMessageDecoder.defaultListLimit).map(line)
        }
    }
}

extension Connection {
    /// Whether the door vouches for this connection as one of its house bots.
    var isHouseBot: Bool {
        guard case .attested(let attestation) = door else { return false }
        return attestation.houseBot
    }

    /// Who this connection is when it asks for a name, as far as the door has said.
    var nameClaimant: NameClaimant {
        guard case .attested(let attestation) = door else { return .client }
        if isHouseBot { return .houseBot }
        return attestation.fingerprint.map { .doorKey(fingerprint: $0) } ?? .doorGuest
    }
}

extension ClientMessage {
    /// Whether answering it walks a whole collection (the lobby, every account): such requests
    /// cost more against the rate limit.
    var isPaged: Bool {
        switch self {
        case .list, .account(.leaderboard), .lobby(.enter), .arena(.list), .arena(.results), .arena(.create): true
        case .join, .act, .snapshot, .ping, .pong, .chat, .door, .account, .lobby, .health, .arena: false
        }
    }
}
