import SetRules
import SetWire

// The lobby's list and its challenges (Protocol.md, "The lobby and challenges"): the state is
// `Challenges`; here the server checks names against the accounts and tells the people. On
// nodes, every request first reaches the lobby's node (`Server+LobbyNode`).
extension Server {
    func answerLobby(_ request: LobbyRequest, id: JSONValue?, from connection: Connection, at now: Instant) {
        routeLobby(request, id: id, from: connection) { [unowned self] in
            answerLobbyHere(request, id: id, from: connection, at: clock.now())
        }
    }

    /// Answers a lobby request on the node that holds the lobby (or on a server that is no node).
    private func answerLobbyHere(_ request: LobbyRequest, id: JSONValue?, from connection: Connection, at now: Instant) {
        let challenges = lobby.challenges
        settleLobby()
        // What expired is told first, so an answer to it finds nothing and says so afterwards.
        announceExpiredChallenges(at: now)
        defer { timers.challengeExpiry = challenges.nextExpiry }
        switch request {
        case .enter(let join):
            guard case .greeted = connection.session else {
                return fail(connection, WireError(.alreadyJoined, "This connection is in a match; open another to come into the lobby."), id: id)
            }
            let variant = join.variant ?? .classic
            // The same check as a new seat's, decided on the loop from a lookup made off it: a
            // name another account owns, or one kept for the house, is refused.
            let request = JoinRequest(name: join.name, variant: variant).withAccount(join.account)
            identify(connection, by: request)
            decideAdmission(of: request, sitting: { _ in nil }, id: id, from: connection) { [unowned self] admission, lookup in
                // A new name is made the account's now, as a seat's is: the door's "Your name"
                // asks this way, and two keys must not both be told a name is theirs (issue 45).
                guard !admission.writes else {
                    return claimName(admission, of: request, id: id, from: connection) { [unowned self] in
                        answerLobby(.enter(request), id: id, from: connection, at: clock.now())
                    }
                }
                let rating = lookup.account?.rating(variant)
                let entry = LobbyEntry(name: join.name, variant: variant, rating: rating?.rounded, provisional: rating?.isProvisional ?? false)
                let presence = Challenges.Presence(connection: connection.id, entry: entry, key: PlayerName.skeleton(join.name),
                                                   identity: connection.identity, address: connection.address)
                // An account's name here is its own (checked above): a guest listed under it
                // since before the account took it gives it up, or it would challenge as them.
                if connection.identity != .guest { displaceGuests(listedAs: presence.key, by: join.name) }
                switch challenges.enter(presence) {
                case .failure(let error) where error.code == .nameTaken:
                    // As a seat's refused name is: with a free one like it to take instead.
                    return refuseName(NameRefusal(name: join.name, because: "is someone else's in the lobby"), of: request, id: id,
                                      to: connection, alsoTaken: challenges.listedKeys)
                case .failure(let error): return fail(connection, error, id: id)
                case .success(let withdrawn):
                    // Its challenger came back under another name: listed under that one now, it
                    // is not among the old name's connections, and is told on its own.
                    if let withdrawn { tellExpired(withdrawn, alsoTo: connection.id) }
                }
                connection.name = join.name
                pushLobbyIfChanged(except: connection.id)  // the answer below is the newest list for the one who asked
                send(.lobby(challenges.entries(), id: id), to: connection)
            }
        case .challenge(let name, let variant):
            switch challenges.challenge(from: connection.id, to: name, variant: variant, at: now) {
            case .failure(let error): fail(connection, error, id: id)
            case .success(let open):
                let notice = ChallengeNotice(from: open.challenger.entry.name, to: open.challengedName, variant: open.variant, state: .open,
                                             expiresAt: open.expiresAt.milliseconds, rating: open.challenger.entry.rating)
                send(.challenge(notice, id: id), to: connection)
                tell(notice, to: challenges.connections(named: open.challenger.key).filter { $0 != connection.id }
                     + challenges.connections(named: open.challengedKey))
            }
        case .accept(let from), .decline(let from):
            let answered: Challenges.Open
            switch challenges.answer(by: connection.id, from: from) {
            case .failure(let error): return fail(connection, error, id: id)
            case .success(let found): answered = found
            }
            guard case .accept = request else {
                let notice = ChallengeNotice(from: answered.challenger.entry.name, to: answered.challengedName, variant: answered.variant,
                                             state: .declined)
                send(.challenge(notice, id: id), to: connection)
                return tell(notice, to: bothSides(of: answered).filter { $0 != connection.id })
            }
            accept(answered, id: id, by: connection, at: now)
        }
    }

    /// Makes an accepted challenge's private duel here, its home row written first on a node (so
    /// every node lists it, sends its spectators and its players here), then tells both sides on
    /// every connection each is listed on. Only the two tokens take its seats (as `setgame
    /// play`'s); it is kept for them for a seat wait, even if the first to sit leaves meanwhile.
    private func accept(_ answered: Challenges.Open, id: JSONValue?, by connection: Connection, at now: Instant) {
        lobby.dropLapsedReservations(at: now)
        let match = lobby.challenges.nextMatchName(node: lobby.node) { lobby.rooms[$0] == nil && lobby.reservedMatches[$0] == nil }
        let challengerToken = SeatToken.make(), challengedToken = SeatToken.make()
        let until = Instant(milliseconds: now.milliseconds + lobby.seatWaitMs)
        let reserved = ReservedMatch(tokens: [challengerToken, challengedToken], mode: .duel, variant: answered.variant, unclaimedUntil: until)
        // Reserved (and kept in the data folder) once its row is the store's, so this node's
        // renewals never write the row first and make the claim below fail.
        let told = { [unowned self] in
            lobby.reservedMatches[match] = reserved
            var notice = ChallengeNotice(from: answered.challenger.entry.name, to: answered.challengedName, variant: answered.variant,
                                         state: .accepted, match: match, token: challengedToken)
            if connections[connection.id] === connection { send(.challenge(notice, id: id), to: connection) }
            tell(notice, to: lobby.challenges.connections(named: answered.challengedKey).filter { $0 != connection.id })
            notice.token = challengerToken
            tell(notice, to: lobby.challenges.connections(named: answered.challenger.key).filter { $0 != connection.id })
            log("challenge: \(answered.challenger.entry.name) and \(answered.challengedName) play \(match)")
        }
        guard nodes != nil else { return told() }
        writeHome(of: match, forMs: lobby.seatWaitMs) { [unowned self] error in
            guard let error else { return told() }
            log("challenge: the store did not take \(match)'s row: \(error)")
            // The challenge is used up and no duel was made: it ended unanswered, told to both
            // sides as an expiry is (the one who accepted gets it as the answer, with its `id`).
            let notice = ChallengeNotice(from: answered.challenger.entry.name, to: answered.challengedName, variant: answered.variant,
                                         state: .expired, expiresAt: answered.expiresAt.milliseconds)
            if connections[connection.id] === connection { send(.challenge(notice, id: id), to: connection) }
            tell(notice, to: bothSides(of: answered).filter { $0 != connection.id })
        }
    }

    /// Every connection listed under either side of a challenge.
    private func bothSides(of challenge: Challenges.Open) -> [ConnectionID] {
        let challenges = lobby.challenges
        return challenges.connections(named: challenge.challenger.key) + challenges.connections(named: challenge.challengedKey)
    }

    /// Makes or renames the account a lobby entry (or an arena player) comes under, off the loop,
    /// then asks again (`retry`): the name is the account's from then on, for every key and node.
    func claimName(_ admission: SeatAdmission, of request: JoinRequest, id: JSONValue?, from connection: Connection,
                   retry: @escaping () -> Void) {
        connection.session = .admitting
        let wall = accounts.wallSeconds(), charge = recordCharge(for: admission, from: connection)
        accounts.ask({ store throws(StoreError) in
            try AccountWrite.perform(admission, wallSeconds: wall, charging: charge, in: store)
        }) { [unowned self] result in
            guard admitting(connection) else { return }
            connection.session = .greeted
            switch result {
            case .failure(.nameTaken):
                refuseName(NameRefusal(name: request.name, because: "belongs to another player here"), of: request, id: id, to: connection)
            case .failure(.overAllowance(let waitMs)):
                fail(connection, recordLimitError(admission.recordKind, from: connection, waitMs: waitMs), id: id)
            case .failure(let error): fail(connection, storeRefusal(error), id: id)
            case .success:
                // Written: spent from the same ration as a seat's join spends (a rename through
                // the lobby or an arena is as much a record kept for good).
                spendAllowance(for: admission, from: connection)
                retry()
            }
        }
    }

    /// Tells both sides of each challenge whose minute is up, on every connection each is listed
    /// on (Protocol.md: `state` `expired`); the loop calls it when `timers` says one is due.
    func announceExpiredChallenges(at now: Instant) {
        for gone in lobby.challenges.expire(at: now) { tellExpired(gone) }
        timers.challengeExpiry = lobby.challenges.nextExpiry
    }

    /// Takes the guests listed as an account's name off the list, tells each why, and tells
    /// every challenge from them or to that name ended (to them too, no longer listed).
    private func displaceGuests(listedAs key: String, by name: String) {
        let (guests, ended) = lobby.challenges.displaceGuests(listedAs: key)
        for challenge in ended {
            let notice = ChallengeNotice(from: challenge.challenger.entry.name, to: challenge.challengedName, variant: challenge.variant,
                                         state: .expired, expiresAt: challenge.expiresAt.milliseconds)
            tell(notice, to: bothSides(of: challenge) + guests.filter { $0 == challenge.challenger.connection || challenge.challengedKey == key })
        }
        for guest in guests {
            guard let listed = connections[guest] else { continue }
            fail(listed, WireError(.nameTaken, "\(name) is an account's name here, and its owner came into the lobby; come back under another name."),
                 id: nil)
        }
    }

    /// Tells whoever is still listed on either side that a challenge is over unanswered (and
    /// `renamed`, its challenger listed under another name now).
    private func tellExpired(_ gone: Challenges.Open, alsoTo renamed: ConnectionID? = nil) {
        let notice = ChallengeNotice(from: gone.challenger.entry.name, to: gone.challengedName, variant: gone.variant, state: .expired,
                                     expiresAt: gone.expiresAt.milliseconds)
        let sides = bothSides(of: gone)
        tell(notice, to: sides + (renamed.map { sides.contains($0) ? [] : [$0] } ?? []))
    }

    /// Once per loop turn: drops from the lobby the connections that closed or sat down (the
    /// challenges they had open or were asked are told `expired` to whoever is left), then
    /// pushes the list to every lobby connection if it changed since it was last sent.
    func settleLobbyTurn() {
        settleLobby()
        pushLobbyIfChanged(except: nil)
    }

    private func settleLobby() {
        let gone = lobby.challenges.keep { listed in
            guard let other = connections[listed], !other.closeWhenFlushed else { return false }
            switch other.session {
            case .greeted, .admitting: return true
            case .player, .spectator: return false
            }
        }
        for challenge in gone { tellExpired(challenge) }
        if !gone.isEmpty { timers.challengeExpiry = lobby.challenges.nextExpiry }
    }

    /// One `lobby` line (no `id`) to every listed connection but `except`, when the list moved
    /// since the last one sent: a newcomer shows at once, not at each client's next refresh.
    private func pushLobbyIfChanged(except skipped: ConnectionID?) {
        let challenges = lobby.challenges, now = clock.now()
        guard challenges.version != challenges.pushedVersion, challenges.pace.allows(at: now) else { return }
        challenges.pushedVersion = challenges.version
        challenges.pace.pushed(at: now)
        let line = ServerMessageCoding.line(.lobby(challenges.entries(), id: nil))
        for id in challenges.listed where id != skipped {
            if let connection = connections[id], !connection.closeWhenFlushed { enqueue(line, to: connection) }
        }
    }

    private func tell(_ notice: ChallengeNotice, to recipients: [ConnectionID]) {
        let line = ServerMessageCoding.line(.challenge(notice, id: nil))
        for id in recipients { if let connection = connections[id] { enqueue(line, to: connection) } }
    }
}

private extension JoinRequest {
    func withAccount(_ key: String?) -> JoinRequest {
        var request = self
        request.account = key
        return request
    }
}
