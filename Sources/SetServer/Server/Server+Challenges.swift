import SetRules
import SetWire

// The lobby's list and its challenges (Protocol.md, "The lobby and challenges"): the state is
// `Challenges`; here the server checks names against the accounts and tells the people.
extension Server {
    func answerLobby(_ request: LobbyRequest, id: JSONValue?, from connection: Connection, at now: Instant) {
        let challenges = lobby.challenges
        challenges.keep { listed in
            guard let other = connections[listed], case .greeted = other.session else { return false }
            return true
        }
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
                guard !admission.writes else { return claimLobbyName(admission, of: request, id: id, from: connection) }
                let rating = lookup.account?.rating(variant)
                let entry = LobbyEntry(name: join.name, variant: variant, rating: rating?.rounded, provisional: rating?.isProvisional ?? false)
                let presence = Challenges.Presence(connection: connection.id, entry: entry, key: PlayerName.skeleton(join.name),
                                                   identity: connection.identity)
                if case .failure(let error) = challenges.enter(presence) { return fail(connection, error, id: id) }
                connection.name = join.name
                send(.lobby(challenges.entries(), id: id), to: connection)
            }
        case .challenge(let name, let variant):
            switch challenges.challenge(from: connection.id, to: name, variant: variant, at: now) {
            case .failure(let error): fail(connection, error, id: id)
            case .success(let open):
                let notice = ChallengeNotice(from: open.challenger.entry.name, to: open.challengedName, variant: open.variant, state: .open,
                                             expiresAt: open.expiresAt.milliseconds, rating: open.challenger.entry.rating)
                send(.challenge(notice, id: id), to: connection)
                tell(notice, to: challenges.connections(named: open.challengedKey))
            }
        case .accept(let from), .decline(let from):
            let answered: Challenges.Open
            switch challenges.answer(by: connection.id, from: from) {
            case .failure(let error): return fail(connection, error, id: id)
            case .success(let found): answered = found
            }
            var notice = ChallengeNotice(from: answered.challenger.entry.name, to: answered.challengedName, variant: answered.variant,
                                         state: .declined)
            guard case .accept = request else {
                send(.challenge(notice, id: id), to: connection)
                return tell(notice, to: [answered.challenger.connection])
            }
            // A private match for the two: only their tokens take its seats (as `setgame play`'s).
            // It is kept until it is played, or for a seat wait if nobody comes to make it.
            lobby.dropLapsedReservations(at: now)
            let match = challenges.nextMatchName { lobby.rooms[$0] == nil && lobby.reservedMatches[$0] == nil }
            let challengerToken = SeatToken.make(), challengedToken = SeatToken.make()
            lobby.reservedMatches[match] = ReservedMatch(tokens: [challengerToken, challengedToken], mode: .duel, variant: answered.variant,
                                                         unclaimedUntil: Instant(milliseconds: now.milliseconds + lobby.seatWaitMs))
            notice.state = .accepted
            notice.match = match
            notice.token = challengedToken
            send(.challenge(notice, id: id), to: connection)
            notice.token = challengerToken
            tell(notice, to: [answered.challenger.connection])
            log("challenge: \(answered.challenger.entry.name) and \(answered.challengedName) play \(match)")
        }
    }

    /// Makes or renames the account a lobby entry comes under, off the loop, then enters it
    /// again: the name is the account's from then on, for every key and node that asks.
    private func claimLobbyName(_ admission: SeatAdmission, of request: JoinRequest, id: JSONValue?, from connection: Connection) {
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
            case .success: answerLobby(.enter(request), id: id, from: connection, at: clock.now())
            }
        }
    }

    /// Tells both sides of each challenge whose minute is up, on every connection each is listed
    /// on (Protocol.md: `state` `expired`); the loop calls it when `timers` says one is due.
    func announceExpiredChallenges(at now: Instant) {
        let challenges = lobby.challenges
        for gone in challenges.expire(at: now) {
            let notice = ChallengeNotice(from: gone.challenger.entry.name, to: gone.challengedName, variant: gone.variant, state: .expired,
                                         expiresAt: gone.expiresAt.milliseconds)
            tell(notice, to: challenges.connections(named: gone.challenger.key) + challenges.connections(named: gone.challengedKey))
        }
        timers.challengeExpiry = challenges.nextExpiry
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
