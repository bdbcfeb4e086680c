import SetRules
import SetWire

/// A chat line said while the silenced file was being read: it is judged by the new list.
struct WaitingChatLine {
    var text: String
    var room: ChatRoom?
    var id: JSONValue?
    var connection: ConnectionID
}

// A chat request: the server's own rules (chat on or off, who is silenced, how much each person
// may say) are checked here; the room's (who writes in which room, what a line may hold) by the
// match, whose outcome is performed as every other (`apply`).
extension Server {
    /// The most lines that wait for a reading of the silenced file; past it a line is judged by
    /// the list in force, so a flood during a slow reading holds no memory.
    static let mostWaitingChatLines = 1_000

    func chat(_ text: String, in requested: ChatRoom?, id: JSONValue?, from connection: Connection, at now: Instant) {
        let room: MatchRoom, speaker: ChatSpeaker
        switch connection.session {
        case .greeted:
            return fail(connection, WireError(.notJoined, "Join a match first: chat belongs to a match."), id: id)
        case .admitting:
            return fail(connection, Self.stillJoining, id: id)
        case .player(let playing, let seat): (room, speaker) = (playing, .seat(seat))
        case .spectator(let watched): (room, speaker) = (watched, .spectator(name: connection.name))
        }
        switch config.chat.mode {
        case .off: return fail(connection, WireError(.chatOff, "Chat is off on this server."), id: id)
        case .players where connection.isSpectator:
            return fail(connection, WireError(.chatOff, "On this server only players talk; spectators read the players' room."), id: id)
        case .on, .players: break
        }
        if let path = chatSilence.changed(at: now, log: { self.log($0) }) {
            silenceReader.start(path) { [loop] in loop.wake() }
        }
        // A line said after the operator changed the file is judged by what the file says now.
        if chatSilence.isReading, waitingChat.count < Self.mostWaitingChatLines {
            waitingChat.append(WaitingChatLine(text: text, room: requested, id: id, connection: connection.id))
            return
        }
        if chatSilence.list.silences(connection.identity, address: connection.address) {
            return fail(connection, WireError(.chatSilenced, "The operator of this server has silenced you; you can still play and read."), id: id)
        }
        // What nobody could see is refused before it costs a line of the allowance; a repeat is
        // judged on the line as it would be said.
        let line: String
        switch ChatText.said(text) {
        case .failure(let error): return fail(connection, error, id: id)
        case .success(let said): line = said
        }
        if connection.chatRepeat.repeats(line, at: now, windowMs: chatAllowance.windowMs) {
            return fail(connection, WireError(.chatRepeated, "You said that a moment ago; it was not said again."), id: id)
        }
        let counter = ChatCounter(identity: connection.identity, hasAccount: connection.ownsAccount, address: connection.address)
        if let retryAfterMs = chatAllowance.allow(by: counter, at: now) {
            return fail(connection, WireError(
                .chatLimited, "At most \(chatAllowance.lines) lines per \(chatAllowance.windowMs / 1_000) seconds; this one was not said.",
                details: ["retryAfterMs": .int(retryAfterMs)]), id: id)
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

    /// Puts a finished reading of the silenced file in force, then judges the lines that waited
    /// for it, in the order they came, now.
    func takeSilenceReading() {
        guard chatSilence.isReading, let outcome = silenceReader.take() else { return }
        switch outcome {
        case .read(let list):
            list.notes.forEach { log($0) }
            chatSilence.finishReading(list)
        case .unreadable(let path):
            log("chat: \(path) could not be read as UTF-8 text; the previous list stays")
            chatSilence.finishReading(nil)
        }
        let waiting = waitingChat
        waitingChat = []
        let now = clock.now()
        for line in waiting {
            guard let connection = connections[line.connection] else { continue }
            chat(line.text, in: line.room, id: line.id, from: connection, at: now)
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
