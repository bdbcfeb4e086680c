import SetRatings
import SetRules
import SetWire

// Accounts at the server's edge: who a joining player is, games recovered after a crash, and
// the answers to profile, history, crosstable and leaderboard.
extension Server {
    /// What a player's join would do to the accounts, its name checked (`name_taken`); nothing
    /// is written until its seat is sure (`Accounts.admit`). An identity the door vouched for
    /// (ssh) wins over an account key the client sends.
    func admission(for join: JoinRequest, on connection: Connection) -> Result<AccountAdmission, WireError> {
        identify(connection, by: join)
        return accounts.admission(join.name, identity: connection.identity, claimant: connection.nameClaimant, bot: join.bot,
                                  sitting: { self.lobby.holder(of: $0, joining: join) }, limit: { self.recordRefusal($0, from: connection) })
    }

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

    /// Restored matches' scoreboards: each seat's rating now. (Games that ended after their
    /// journal said so but before the accounts log did were recorded as the journals replayed,
    /// `Accounts.recovered`.)
    func recoverGames(of rooms: [MatchRoom]) {
        for room in rooms {
            for seat in room.host.mode.seats {
                guard let id = room.host.seats[seat.rawValue]?.account?.id, let account = accounts.book.account(id) else { continue }
                room.setRating(account.rating(room.host.variant), of: seat)
            }
            // A finished rated game shows its changes again, as its snapshot did before the stop.
            if room.host.phase == .over, let commitment = room.host.lastFinished?.commitment,
               let record = accounts.book.game(commitment), record.rated {
                room.show(record)
            }
        }
    }

    func answer(_ query: AccountQuery, id: JSONValue?, from connection: Connection) {
        let reply = { (info: AccountInfo) in ServerMessageCoding.line(.accountInfo(info, id: id)) }
        let result: Result<[UInt8], WireError>
        switch query {
        case .profile(let name): result = AccountReplies.profile(name, in: accounts.book).map(reply)
        case .history(let name, let key, let after, let limit):
            let identity = key.map { PlayerIdentity.accountKey(digest: SHA256.hex($0)) } ?? connection.identity
            let own = accounts.book.account(for: identity)
            result = AccountReplies.history(name ?? own?.name, after: after, limit: limit ?? ClientMessageDecoder.defaultListLimit,
                                            id: id, in: accounts.book)
        case .crosstable(let name, let other): result = AccountReplies.crosstable(name, other, in: accounts.book).map(reply)
        case .leaderboard(let variant, let after, let limit):
            result = accounts.leaderboard(variant, after: after, limit: limit ?? ClientMessageDecoder.defaultListLimit).map(reply)
        }
        switch result {
        case .success(let line): enqueue(line, to: connection)
        case .failure(let error): fail(connection, error, id: id)
        }
    }
}

extension Connection {
    /// Who this connection is when it asks for a name, as far as the door has said.
    var nameClaimant: NameClaimant {
        guard case .attested(let attestation) = door else { return .client }
        if attestation.houseBot { return .houseBot }
        return attestation.fingerprint.map { .doorKey(fingerprint: $0) } ?? .doorGuest
    }
}

extension ClientMessage {
    /// Whether answering it walks a whole collection (the lobby, every account): such requests
    /// cost more against the rate limit.
    var isPaged: Bool {
        switch self {
        case .list, .account(.leaderboard), .lobby(.enter): true
        case .join, .act, .snapshot, .ping, .pong, .chat, .door, .account, .lobby: false
        }
    }
}
