import SetWire

/// What one person has heard of a match's chat, and whom they muted on their own screen. Muting
/// is theirs alone: the server still sends every line, the log keeps it, and unmuting shows it.
package struct ChatLog: Hashable, Sendable {
    /// The most lines kept.
    package static let capacity = 50

    /// The lines heard, oldest first, as the server sent them (made printable when shown).
    package private(set) var lines: [ChatLine] = []
    package private(set) var mutedRooms: Set<ChatRoom> = []
    /// Muted speakers by name, compared without regard to case.
    package private(set) var mutedNames: Set<String> = []

    package init() {}

    /// A line heard.
    package mutating func hear(_ line: ChatLine) {
        lines.append(line)
        if lines.count > Self.capacity { lines.removeFirst(lines.count - Self.capacity) }
    }

    /// Forgets what was heard: a new join is sent the match's kept lines again.
    package mutating func forgetLines() { lines.removeAll() }

    /// Whether `line` shows: neither its room nor its speaker is muted.
    package func shows(_ line: ChatLine) -> Bool {
        !mutedRooms.contains(line.room) && !mutedNames.contains(line.name.lowercased())
    }

    /// The lines that show, oldest first.
    package var shown: [ChatLine] { lines.filter(shows) }

    /// What a `/mute` or `/unmute` does.
    package enum Target: Hashable, Sendable {
        case room(ChatRoom)
        case person(String)

        /// "players", "spectators", or a name (with or without a leading "@").
        package init?(_ word: some StringProtocol) {
            let trimmed = word.trimmingPrefix("@")
            guard !trimmed.isEmpty else { return nil }
            if let room = ChatRoom(rawValue: String(trimmed).lowercased()) { self = .room(room) } else { self = .person(String(trimmed)) }
        }
    }

    package mutating func mute(_ target: Target) {
        switch target {
        case .room(let room): mutedRooms.insert(room)
        case .person(let name): mutedNames.insert(name.lowercased())
        }
    }

    package mutating func unmute(_ target: Target) {
        switch target {
        case .room(let room): mutedRooms.remove(room)
        case .person(let name): mutedNames.remove(name.lowercased())
        }
    }
}
