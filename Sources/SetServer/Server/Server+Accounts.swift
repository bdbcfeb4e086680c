import SetRatings
import SetRules
import SetWire

// Accounts at the server's edge: who a joining player is, games recovered after a crash, and
// the answers to profile, history, crosstable and leaderboard.
extension Server {
    /// The account a player's join speaks for, its name checked (`name_taken`); nil: a guest.
    /// An identity the door vouched for (ssh) wins over an account key the client sends.
    func account(for join: JoinRequest, on connection: Connection) -> Result<AccountBook.Account?, WireError> {
        identify(connection, by: join)
        return accounts.seat(join.name, identity: connection.identity, bot: join.bot, sitting: { self.lobby.holder(of: $0, joining: join) },
                             limit: { self.recordRefusal($0, from: connection) })
    }

    /// The identity a join's account key gives a connection the door has not vouched for.
    func identify(_ connection: Connection, by join: JoinRequest) {
        if case .guest = connection.identity, let key = join.account {
            connection.identity = .accountKey(digest: SHA256.hex(key))
        }
    }

    /// Restored matches whose last game ended after their journal said so but before the
    /// accounts log did (a crash between the two writes): their records are written now.
    func recoverGames(of rooms: [MatchRoom]) {
        for room in rooms where room.host.phase == .over {
            guard let finished = room.host.lastFinished, !accounts.book.hasGame(finished.commitment) else { continue }
            let record = accounts.record(of: finished, journal: "\(finished.match).jsonl")
            if accounts.record(record) { log("recorded \(finished.match) game \(finished.game), which ended before the server stopped") }
        }
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

extension ClientMessage {
    /// Whether answering it walks a whole collection (the lobby, every account): such requests
    /// cost more against the rate limit.
    var isPaged: Bool {
        switch self {
        case .list, .account(.leaderboard): true
        case .join, .act, .snapshot, .ping, .pong, .chat, .door, .account: false
        }
    }
}
