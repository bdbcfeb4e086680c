import SetRules

// The names that say what a line is. Encoders write them and decoders switch over them, so a
// name can be neither misspelt on one side nor forgotten on the other.

/// A client request's `type`.
package enum RequestType: String, CaseIterable, Sendable {
    case join, list, snapshot, ping, pong, select, claim, deal, hint, pass, resign, rematch, chat
    /// The ssh door's word on who its player is (Protocol.md, "The door socket").
    case door
    case profile, history, crosstable, leaderboard
    /// Being listed in the lobby, and challenges (Protocol.md, "The lobby and challenges").
    case lobby, challenge, accept, decline
    /// Whether the server can take players now (Protocol.md, "Health").
    case health
    /// Arenas: timed tournaments (Protocol.md, "Arenas").
    case arenas
    case arenaCreate = "arena_create"
    case arenaJoin = "arena_join"
    case arenaPause = "arena_pause"
    case arenaResume = "arena_resume"
    case arenaLeave = "arena_leave"
    case arenaResults = "arena_results"

    /// The type that carries `action`.
    package init(_ action: Action) {
        self = switch action {
        case .select: .select
        case .claim: .claim
        case .deal: .deal
        case .hint: .hint
        case .pass: .pass
        case .resign: .resign
        case .rematch: .rematch
        }
    }

    /// The action asked for, with the card a `select` touches; nil for a request that is not one.
    package func action(touching card: Card?) -> Action? {
        switch self {
        case .join, .list, .snapshot, .ping, .pong, .chat, .door, .profile, .history, .crosstable, .leaderboard,
             .lobby, .challenge, .accept, .decline, .health, .arenas, .arenaCreate, .arenaJoin, .arenaPause, .arenaResume,
             .arenaLeave, .arenaResults: nil
        case .select: card.map(Action.select)
        case .claim: .claim
        case .deal: .deal
        case .hint: .hint
        case .pass: .pass
        case .resign: .resign
        case .rematch: .rematch
        }
    }

    /// Every type, for an error that lists them.
    static let known = allCases.map(\.rawValue).joined(separator: ", ")
}

/// A server message's `type`.
package enum ServerMessageType: String, CaseIterable, Sendable {
    case welcome, joined, snapshot, event, insight, matches, ack, pong, error, goodbye, ping, chat
    case roundTrips = "round_trips"
    case profile, history, crosstable, leaderboard
    case lobby, challenge
    case health
    /// The match lives on another server sharing this one's store (Protocol.md, "Several servers (nodes)").
    case redirect
    /// Arenas (Protocol.md, "Arenas").
    case arenas, arena
    case arenaPairing = "arena_pairing"
    case arenaResults = "arena_results"
}

/// An event's `kind`.
package enum EventKind: String, CaseIterable, Sendable {
    case selection
    case windowOpened = "window_opened"
    case windowClosed = "window_closed"
    case setTaken = "set_taken"
    case notASet = "not_a_set"
    case penalty, table, hint
    case gameOver = "game_over"
    case rematchRequested = "rematch_requested"
    case rematchAgreed = "rematch_agreed"
    case gameStarted = "game_started"
    case playerJoined = "player_joined"
    case presence, resumed, spectators
}

extension EventBody {
    /// What kind of event this is on the wire.
    package var kind: EventKind {
        switch self {
        case .rules(let event): event.kind
        case .gameOver: .gameOver
        case .gameStarted: .gameStarted
        case .playerJoined: .playerJoined
        case .presence: .presence
        case .resumed: .resumed
        case .spectators: .spectators
        }
    }
}

extension MatchEvent {
    /// The kind a rules event travels as; a match's end travels as `game_over`, with its seed.
    package var kind: EventKind {
        switch self {
        case .selectionChanged: .selection
        case .windowOpened: .windowOpened
        case .windowClosed: .windowClosed
        case .setTaken: .setTaken
        case .notASet: .notASet
        case .penalised: .penalty
        case .tableChanged: .table
        case .hintShown: .hint
        case .matchEnded: .gameOver
        case .rematchRequested: .rematchRequested
        case .rematchAgreed: .rematchAgreed
        }
    }
}
