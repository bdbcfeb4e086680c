import SetDatabase
import SetRules
import SetWire

// A chat request: the server's own rules are checked at its gate (`ChatGate`); the room's (who
// writes in which room, what a line may hold) by the match, whose outcome is performed as every
// other (`apply`).
extension Server {
    func chat(_ text: String, in requested: ChatRoom?, id: JSONValue?, from connection: Connection, at now: Instant) {
        let room: MatchRoom, speaker: ChatSpeaker
        switch connection.session {
        case .greeted, .admitting:
            return fail(connection, WireError(.notJoined, "Join a match first: chat belongs to a match."), id: id)
        case .player(let playing, let seat): (room, speaker) = (playing, .seat(seat))
        case .spectator(let watched): (room, speaker) = (watched, .spectator(name: connection.name))
        }
        let hasAccount = accounts.ownsAccount(connection.id)
        let line: String
        switch chatGate.judge(text, in: requested, id: id, from: connection, hasAccount: hasAccount, at: now) {
        case .refused(let error): return fail(connection, error, id: id)
        case .waiting: return
        case .claiming(let identity): return claimChatBudget(of: identity)
        case .pass(let said): line = said
        }
        let outcome = room.chat(text, in: requested, by: speaker, at: now)
        apply(outcome, of: room)
        switch outcome.reply {
        case .refused(let error): fail(connection, error, id: id)
        case .said:
            connection.chatRepeat.said(line, at: now)
            if let id { send(.ack(id: id, seq: room.host.seq), to: connection) }
        }
    }

    /// Judges the lines that waited for a reading of the silenced file, now that it is read.
    func takeSilenceReading() {
        let waiting = chatGate.takeReading()
        guard !waiting.isEmpty else { return }
        let now = clock.now()
        for line in waiting {
            guard let connection = connections[line.connection] else { continue }
            chat(line.text, in: line.room, id: line.id, from: connection, at: now)
        }
    }

    /// Claims an account's chat budget for this node (`ChatLeases`), off the loop, and judges the
    /// lines that waited for it once it is answered.
    func claimChatBudget(of identity: PlayerIdentity) {
        guard let nodes else { return }
        let node = nodes.me.name, stored = identity.storedText
        nodes.ask({ directory throws(DatabaseError) in
            try directory.reach()
            return try ChatBudgetStore.claim(stored, for: node, leaseMs: ChatLeases.leaseMs, in: directory.database)
        }) { [unowned self] result in
            if case .failure(let error) = result {
                logQuietly("chat-budget", "chat: an account's chat budget cannot be claimed (\(error)); this node counts its lines alone for now")
            }
            let now = clock.now()
            for line in chatGate.claimed(identity, try? result.get(), at: now) {
                guard let connection = connections[line.connection] else { continue }
                chat(line.text, in: line.room, id: line.id, from: connection, at: now)
            }
        }
    }

    /// The kept lines a newcomer may read, after its snapshot: a restart restores them too.
    func sendChatBacklog(to connection: Connection, of room: MatchRoom) {
        guard config.chat.mode != .off else { return }
        for line in room.host.chatBacklog(for: connection.isSpectator ? .spectator : .player) {
            send(.chat(line), to: connection)
        }
    }
}
