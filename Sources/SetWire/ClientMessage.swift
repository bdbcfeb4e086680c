import SetRules

/// The protocol versions this build speaks.
package enum ProtocolVersion {
    package static let current = 1
    package static let supported = [1]
}

/// Whether a connection plays or only watches.
package enum Role: String, CaseIterable, Sendable {
    case player
    case spectator
}

/// A client's request to join a match.
package struct JoinRequest: Hashable, Sendable {
    package var protocolVersion: Int = ProtocolVersion.current
    package var role: Role = .player
    package var name: String
    /// The match's name; nil asks to be paired with whoever is waiting.
    package var match: String?
    package var mode: Mode = .duel
    /// The variant to play; nil takes an existing match's, and the classic game for a new one.
    package var variant: Variant?
    /// A particular seat, for a player who wants one; nil takes any free seat.
    package var seat: Seat?
    /// The seat token from an earlier `joined`, to resume that seat.
    package var token: String?
    /// The last event `seq` this client saw, so a resume can send only what it missed.
    package var lastSeq: Int?
    /// With `token`: take the seat even while another connection still holds it. Without it the
    /// server refuses with `seat_in_use`, so nobody's live seat is taken silently.
    package var takeOver = false
    /// The client's account key (64 hex digits), which the server keeps only as a digest; nil: a guest.
    package var account: String?
    /// Whether a match this join creates is casual (unrated) even between two accounts.
    package var casual = false
    /// Whether the player is a program (`setgame bot`): its account is marked a bot in every listing.
    package var bot = false

    package init(role: Role = .player, name: String, match: String? = nil, mode: Mode = .duel,
                seat: Seat? = nil, token: String? = nil, lastSeq: Int? = nil, takeOver: Bool = false,
                variant: Variant? = nil) {
        self.takeOver = takeOver
        self.variant = variant
        self.role = role
        self.name = name
        self.match = match
        self.mode = mode
        self.seat = seat
        self.token = token
        self.lastSeq = lastSeq
    }
}

/// Everything a client may send.
package enum ClientMessage: Hashable, Sendable {
    case join(JoinRequest)
    /// Ask for one page of the live matches: at most `limit` of them, after the `cursor` a
    /// previous page returned as `next` (nil: the first page).
    case list(after: String? = nil, limit: Int? = nil)
    /// A move in the match; `seat`, when given, must be the sender's own.
    case act(Action, seat: Seat?)
    case snapshot
    /// `time` is the client's own clock, echoed back so it can measure the round trip.
    case ping(time: Int64?)
    /// A question about players, ratings and finished games.
    case account(AccountQuery)
}

/// A client message with the `id` it carried, which the server echoes on the reply it causes.
package struct ClientRequest: Hashable, Sendable {
    package var id: JSONValue?
    package var message: ClientMessage

    package init(id: JSONValue? = nil, _ message: ClientMessage) {
        self.id = id
        self.message = message
    }
}
