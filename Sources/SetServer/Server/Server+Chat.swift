import SetRules
import SetWire

// A chat request: the server's own rules (chat on or off, who is silenced, how much each person
// may say) are checked here; the room's (who writes in which room, what a line may hold) by the
// match, whose outcome is performed as every other (`apply`).
extension Server {
    func chat(_ text: String, in requested: ChatRoom?, id: JSONValue?, from connection: Connection, at now: Instant) {
        let room: MatchRoom, speaker: ChatSpeaker
        switch connection.session {
        case .greeted:
            return fail(connection, WireError(.notJoined, "Join a match first: chat belongs to a match."), id: id)
        case .player(let playing, let seat): (room, speaker) = (playing, .seat(seat))
        case .spectator(let watched): (room, speaker) = (watched, .spectator(name: connection.name))
        }
        switch config.chat.mode {
        case .off: return fail(connection, WireError(.chatOff, "Chat is off on this server."), id: id)
        case .players where connection.isSpectator:
            return fail(connection, WireError(.chatOff, "On this server only players talk; spectators read the players' room."), id: id)
        case .on, .players: break
        }
        if chatSilence.silences(connection.identity, address: connection.address, at: now, log: { self.log($0) }) {
            return fail(connection, WireError(.chatSilenced, "The operator of this server has silenced you; you can still play and read."), id: id)
        }
        if connection.chatRepeat.repeats(text) {
            return fail(connection, WireError(.chatRepeated, "That is what you said last; it was not said again."), id: id)
        }
        if let retryAfterMs = chatAllowance.allow(by: ChatCounter(identity: connection.identity, address: connection.address), at: now) {
            return fail(connection, WireError(
                .chatLimited, "At most \(chatAllowance.lines) lines per \(chatAllowance.windowMs / 1_000) seconds; this one was not said.",
                details: ["retryAfterMs": .int(retryAfterMs)]), id: id)
        }
        let outcome = room.chat(text, in: requested, by: speaker, at: now)
        apply(outcome, of: room)
        switch outcome.reply {
        case .refused(let error): fail(connection, error, id: id)
        case .said:
            connection.chatRepeat.said(text)
            if let id { send(.ack(id: id, seq: room.host.seq), to: connection) }
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
