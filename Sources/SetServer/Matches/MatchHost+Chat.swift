import SetRules
import SetWire

/// Who says a chat line: a seat's player, or a spectator by the name it joined with.
enum ChatSpeaker: Equatable {
    case seat(Seat)
    case spectator(name: String)
}

/// The chat lines a match keeps: the last of both rooms, oldest first, for those who join (a
/// restart restores them), and the spectators' lines said during the game being played, which
/// its players read at its end.
struct ChatMemory {
    var recent: [ChatLine] = []
    var held: [ChatLine] = []
}

/// A chat line's answer: said (and sent to its room), or refused.
enum ChatReply: Equatable {
    case said
    case refused(WireError)
}

// Chat: each role writes in its own room; the players' room reaches everyone in the match, the
// spectators' room only spectators while a game is played (nobody coaches a player), everyone
// otherwise. Lines are journaled, not numbered: a chat line is no event of the game, so a flood
// of them never pushes a dropped player's missed events out of the history, nor leaves gaps in
// the players' numbering that a spectators-only line would.
extension MatchHost {
    /// The lines a match keeps for those who join, and a restart restores.
    static let keptChat = 20

    /// Says `text` in `room` (nil: the speaker's own). The text is made printable and measured
    /// here (`ChatText.said`), so a journal replayed reads exactly as the live match did.
    /// `replayed`: the journal says the line was said, so it is said again, made printable but
    /// never refused: an earlier server may have taken what today's rules refuse (an invisible
    /// line, one now counted wider), and a journal is not damaged for that.
    mutating func chat(_ text: String, in room: ChatRoom?, by speaker: ChatSpeaker, at now: Instant,
                       replayed: Bool = false) -> HostOutput<ChatReply> {
        if stalledAt != nil { return HostOutput(reply: .refused(Self.journalStalled)) }
        let name: String, seat: Seat?, own: ChatRoom
        switch speaker {
        case .seat(let speaking):
            guard let state = seats[speaking.rawValue] else {
                return HostOutput(reply: .refused(WireError(.noSuchSeat, "Seat \(speaking.rawValue) is empty.")))
            }
            (name, seat, own) = (state.name, speaking, .players)
        case .spectator(let spectator): (name, seat, own) = (spectator, nil, .spectators)
        }
        guard (room ?? own) == own else {
            return HostOutput(reply: .refused(WireError(
                .chatRoomClosed, own == .players ? "Players talk in the players' room; the spectators' room is the spectators'."
                    : "Spectators talk in the spectators' room; the players' room is the players'.",
                details: ["room": .string(own.rawValue)])))
        }
        let said: String
        switch replayed ? .success(ServerText.printable(text)) : ChatText.said(text) {
        case .failure(let error): return HostOutput(reply: .refused(error))
        case .success(let line): said = line
        }
        let line = ChatLine(match: self.name, room: own, name: name, seat: seat, text: said, time: now.milliseconds)
        chatMemory.recent.append(line)
        if chatMemory.recent.count > Self.keptChat { chatMemory.recent.removeFirst(chatMemory.recent.count - Self.keptChat) }
        if own == .spectators && phase == .playing {
            chatMemory.held.append(line)
            if chatMemory.held.count > Self.keptChat { chatMemory.held.removeFirst(chatMemory.held.count - Self.keptChat) }
        }
        lastActivity = max(lastActivity, now)
        let audience: Audience = own == .spectators && phase == .playing ? .spectators : .everyone
        return HostOutput(messages: [.chat(line, to: audience)],
                          journal: [.chat(room: own, seat: seat, name: name, text: said, at: now)], reply: .said)
    }

    /// The game ended: the players read, once, what the spectators said during it (the last
    /// `keptChat` lines), after its `game_over`. Nothing is journaled: a replay holds the same
    /// lines back and gives them at the same end.
    mutating func releaseHeldChat() -> [HostMessage] {
        defer { chatMemory.held = [] }
        return chatMemory.held.map(HostMessage.heldChat)
    }

    /// The kept lines someone in `role` may read now: spectators read both rooms, players the
    /// spectators' room only while no game is played.
    func chatBacklog(for role: Role) -> [ChatLine] {
        role == .spectator || phase != .playing ? chatMemory.recent : chatMemory.recent.filter { $0.room == .players }
    }
}
