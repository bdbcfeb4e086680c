import Foundation
import SetRules

/// Every error code the server sends. Clients match on these; they never change meaning.
package enum ErrorCode: String, CaseIterable, Sendable {
    // The line itself.
    case badJSON = "bad_json"
    case invalidUTF8 = "invalid_utf8"
    case lineTooLong = "line_too_long"
    case notAnObject = "not_an_object"
    case unknownType = "unknown_type"
    case missingField = "missing_field"
    case badField = "bad_field"
    // Joining and roles.
    case unsupportedVersion = "unsupported_version"
    case notJoined = "not_joined"
    case alreadyJoined = "already_joined"
    case spectatorsCannotAct = "spectators_cannot_act"
    case notYourSeat = "not_your_seat"
    case badToken = "bad_token"
    case seatTaken = "seat_taken"
    /// A token named a seat whose owner is still connected, and the join did not ask to take it over.
    case seatInUse = "seat_in_use"
    case matchFull = "match_full"
    case noSuchMatch = "no_such_match"
    case modeMismatch = "mode_mismatch"
    /// The named match plays another variant than the one asked for.
    case variantMismatch = "variant_mismatch"
    case waitingForOpponent = "waiting_for_opponent"
    /// Another connection resumed this seat with its token.
    case replaced
    /// A `door` line on a connection that is not the door's trusted socket, or not its first line.
    case notADoor = "not_a_door"
    // Accounts.
    /// Another account owns the name on this server; `suggestion` names a free one.
    case nameTaken = "name_taken"
    /// No account on this server has the name asked about.
    case noSuchPlayer = "no_such_player"
    // The lobby and challenges.
    /// A challenge, accept or decline from a connection not listed in the lobby (send `lobby` first).
    case notInLobby = "not_in_lobby"
    /// A challenge to the challenger's own name.
    case challengeSelf = "challenge_self"
    /// Nobody of that name is listed in the lobby now (unknown, offline, or playing).
    case playerNotHere = "player_not_here"
    /// The challenger has a challenge open already; `expiresAt` says until when.
    case challengeOpen = "challenge_open"
    /// Over the challenges one player may make lately; `retryAfterMs` says when one may again.
    case challengeLimited = "challenge_limited"
    /// No open challenge from that name to this player: never made, answered, or expired.
    case noSuchChallenge = "no_such_challenge"
    // Arenas (Protocol.md, "Arenas").
    /// No arena has that name.
    case noSuchArena = "no_such_arena"
    /// `arena_create` named an arena that exists.
    case arenaExists = "arena_exists"
    /// A player's `arena_join` to a finished arena.
    case arenaOver = "arena_over"
    /// `arena_pause`, `arena_resume` or `arena_leave` from a connection not joined to an arena.
    case notInArena = "not_in_arena"
    // Several servers (nodes).
    /// A join's handoff ticket is unknown, used, expired or for another match (fatal).
    case badTicket = "bad_ticket"
    // Limits.
    case rateLimited = "rate_limited"
    case slowConsumer = "slow_consumer"
    case serverFull = "server_full"
    /// One address holds its share of connections or matches already.
    case addressLimit = "address_limit"
    /// The join would make an account or rename one past what an address, its network or the
    /// account may write to the accounts store lately; `retryAfterMs` says when it may.
    case accountLimit = "account_limit"
    case idleTimeout = "idle_timeout"
    case serverShuttingDown = "server_shutting_down"
    /// The server cannot write the match's journal (a full disk): the match stands still.
    case journalFailed = "journal_failed"
    // Chat.
    /// This server has chat off, or keeps it to players and the sender watches.
    case chatOff = "chat_off"
    /// Not a room the sender may write in: each role writes in its own.
    case chatRoomClosed = "chat_room_closed"
    /// Over the sender's chat allowance (a few lines per ten seconds); `retryAfterMs` says when.
    case chatLimited = "chat_limited"
    /// The same line as the sender's last one.
    case chatRepeated = "chat_repeated"
    /// The operator silenced the sender's account or address.
    case chatSilenced = "chat_silenced"
    // The rules' refusals, one for each `RuleRefusal` code.
    case matchOver = "match_over"
    case matchNotOver = "match_not_over"
    case noSuchSeat = "no_such_seat"
    case claimFirst = "claim_first"
    case notYourWindow = "not_your_window"
    case claimTaken = "claim_taken"
    case alreadyYourWindow = "already_your_window"
    case finishYourClaim = "finish_your_claim"
    case cardNotOnTable = "card_not_on_table"
    case deckEmpty = "deck_empty"
    case noWindowToPass = "no_window_to_pass"
    case notInSolo = "not_in_solo"
    case hintsDisabled = "hints_disabled"
    case noSetOnTable = "no_set_on_table"
    case rematchAlreadyAsked = "rematch_already_asked"
    case tableNotSeen = "table_not_seen"
    /// The server (node) holding the match is away: its lease in the shared store lapsed
    /// (Protocol.md, "Several servers (nodes)"); `retryAfterMs` says when to try again.
    case nodeAway = "node_away"
}

/// An error as it travels: a stable code, a sentence for people, whether the server closes the
/// connection after it, and any facts a client may want (such as who won a claim race).
package struct WireError: Error, Hashable, Sendable {
    package var code: ErrorCode
    package var message: String
    package var fatal: Bool
    package var details: [String: JSONValue]

    package init(_ code: ErrorCode, _ message: String, fatal: Bool = false, details: [String: JSONValue] = [:]) {
        self.code = code
        self.message = message
        self.fatal = fatal
        self.details = details
    }

    /// The rules' refusal as a wire error, naming players by their names (seats without one are
    /// called "Player N").
    package init(_ refusal: RuleRefusal, playerNames: [String] = []) {
        let message = refusal.message { seat in
            playerNames.indices.contains(seat.rawValue) ? playerNames[seat.rawValue] : "Player \(seat.rawValue + 1)"
        }
        self.init(ErrorCode(refusal), message, details: RefusalFields.details(of: refusal))
    }
}

extension ErrorCode {
    /// The code for each of the rules' refusals; the compiler lists any refusal left without one.
    package init(_ refusal: RuleRefusal) {
        switch refusal {
        case .matchOver: self = .matchOver
        case .matchNotOver: self = .matchNotOver
        case .noSuchSeat: self = .noSuchSeat
        case .claimFirst: self = .claimFirst
        case .notYourWindow: self = .notYourWindow
        case .claimTaken: self = .claimTaken
        case .alreadyYourWindow: self = .alreadyYourWindow
        case .finishYourClaim: self = .finishYourClaim
        case .cardNotOnTable: self = .cardNotOnTable
        case .deckEmpty: self = .deckEmpty
        case .noWindowToPass: self = .noWindowToPass
        case .notInSolo: self = .notInSolo
        case .hintsDisabled: self = .hintsDisabled
        case .noSetOnTable: self = .noSetOnTable
        case .rematchAlreadyAsked: self = .rematchAlreadyAsked
        case .tableNotSeen: self = .tableNotSeen
        }
    }
}
