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
    /// The handoff ticket a node's `redirect` gave a door connection: the node it leads to seats
    /// the join under the door's identity the ticket was minted for, once.
    package var ticket: String?

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
    /// A move in the match; `seat`, when given, must be the sender's own. A claim's `seen` is the
    /// `seq` of the last event of the match its sender had received when it pressed: the table it
    /// claims (nil: the server judges by the sender's round trip, as before `seen` existed).
    case act(Action, seat: Seat?, seen: Int? = nil)
    case snapshot
    /// `time` is the client's own clock, echoed back so it can measure the round trip.
    case ping(time: Int64?)
    /// A line said in the match's chat; `room` nil: the sender's own room.
    case chat(room: ChatRoom?, text: String)
    /// The ssh door vouches for its player; only valid first, on the door's Unix socket.
    case door(DoorAttestation)
    /// The answer to the server's `ping`, echoing its `time`: the server measures the seat's
    /// round trip on its own clock from it (lag compensation), never trusting the client's.
    case pong(time: Int64)
    /// A question about players, ratings and finished games.
    case account(AccountQuery)
    /// Being listed in the lobby, and challenges between those who are.
    case lobby(LobbyRequest)
    /// Whether the server can take players now (`HealthReport`), for probes.
    case health
    /// Arenas: listing, creating, joining, pausing, leaving, results.
    case arena(ArenaRequest)
}

/// What `setgame door` tells the server about the player behind an ssh session: the key sshd
/// accepted (none for a guest) and the address the player really connected from.
package struct DoorAttestation: Hashable, Sendable {
    /// `SHA256:` and the unpadded base64 of the key's SHA-256, as `ssh-keygen -l` prints it;
    /// nil for a keyless guest.
    package var fingerprint: String?
    /// The player's IP address, the first field of `SSH_CONNECTION`.
    package var address: String
    /// The connection is a house bot the door runs beside its player, not the player: its
    /// account key is its identity (a keyless player's is not), and it may take the house bots'
    /// names.
    package var houseBot: Bool
    /// The door bot match (`bot-…`) this connection was started for: only connections whose door
    /// line names such a match may take a seat in it.
    package var match: String?

    package init(fingerprint: String?, address: String, houseBot: Bool = false, match: String? = nil) {
        self.fingerprint = fingerprint
        self.address = address
        self.houseBot = houseBot
        self.match = match
    }

    /// Whether `text` looks like an ssh SHA-256 fingerprint: `SHA256:` and 43 base64 characters.
    package static func isFingerprint(_ text: String) -> Bool {
        let prefix = "SHA256:"
        guard text.hasPrefix(prefix) else { return false }
        let body = text.utf8.dropFirst(prefix.utf8.count)
        return body.count == 43 && body.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2B || byte == 0x2F
        }
    }

    /// Whether `text` can be an IPv4 or IPv6 address as sshd writes it: hex digits, dots and
    /// colons, at most 45 of them. It goes into logs and limit tables, so nothing else passes.
    package static func isAddress(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 45 && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66) || byte == 0x2E || byte == 0x3A
        }
    }
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
