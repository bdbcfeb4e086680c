import SetNet
import SetRules
import SetWire

/// Whether a connection came through the ssh door's socket, and whether the door spoke yet.
enum DoorStanding: Equatable {
    /// An ordinary TCP client: it may not speak for anyone.
    case none
    /// The door's socket, whose first line may say who the player is and where from.
    case awaiting
    /// The door has spoken, saying this; it may not speak again.
    case attested(DoorAttestation)
}

/// One client's socket and everything the server knows about it.
final class Connection {
    enum Session {
        /// Welcomed, not yet joined.
        case greeted
        /// A join waits for the accounts store (its account looked up, made or renamed); what
        /// the connection asks meanwhile waits in `held`, to be answered after the join.
        case admitting
        case player(MatchRoom, Seat)
        case spectator(MatchRoom)

        var inMatch: Bool {
            switch self {
            case .greeted, .admitting: false
            case .player, .spectator: true
            }
        }
    }

    let id: ConnectionID
    /// Its socket: lines in, queued bytes out.
    let socket: LineSocket
    var limiter: RateLimiter
    /// Until when it is not read, being over its rate limit (`Server+Lines`); nil: read.
    var readingPausedUntil: Instant?
    /// A connection in no match is served in the loop's priority lane: its questions, challenges
    /// and joins are few and each waits for a person, while the matches' lines are most of a
    /// busy loop's work; a seat or a watch moves it to the ordinary lane, leaving moves it back.
    var session = Session.greeted {
        didSet { if session.inMatch != oldValue.inMatch { socket.prioritize(!session.inMatch) } }
    }
    /// Requests that came while the session was `.admitting`, answered once the join is.
    var held = HeldRequests()
    var lastInput: Instant {
        didSet { pingedWhileIdle = false }
    }
    /// Whether the server has asked this quiet connection if it is still there.
    var pingedWhileIdle = false
    /// When the unfinished line now buffered began, to time out slow-drip clients.
    var partialLineSince: Instant?
    /// A spectator's place in its match's `SpectatorFeed`: the lines before it were given to it.
    var feedOffset = 0
    /// Set after a fatal error: close once the error has been written.
    var closeWhenFlushed = false
    /// Whether closing must first deliver a fatal error line (see `ConnectionTable.linger`).
    var lingerOnClose = false
    var name = Connection.unnamed
    /// The name of a connection that never joined a match, the lobby or an arena.
    static let unnamed = "?"
    /// Whether it ever joined a match, the lobby or an arena under a name.
    var saidWhoItIs: Bool { name != Connection.unnamed }
    /// The peer's IP address: per-address limits count by it.
    var address = "?"
    /// Who this connection speaks for; a guest until a door or an account key says otherwise.
    var identity = PlayerIdentity.guest
    /// Its last chat line, which it may not say again at once.
    var chatRepeat = ChatRepeat()
    /// How the connection came: only the door's own socket may say who and where from.
    var door = DoorStanding.none
    /// Its round trips, measured by the server's own pings, for lag compensation.
    var roundTrips = RoundTrips()

    init(id: ConnectionID, socket: LineSocket, limits: ServerLimits, at now: Instant) {
        self.id = id
        self.socket = socket
        limiter = RateLimiter(perSecond: limits.messagesPerSecond, burst: limits.messageBurst, at: now)
        lastInput = now
    }

    var room: MatchRoom? {
        switch session {
        case .greeted, .admitting: nil
        case .player(let room, _), .spectator(let room): room
        }
    }

    /// Whether its join waits for the accounts store (what it asks meanwhile is held).
    var isAdmitting: Bool {
        if case .admitting = session { return true }
        return false
    }

    var isSpectator: Bool {
        if case .spectator = session { return true }
        return false
    }

    /// "ann (player 1 of duel-3)" for the log.
    var label: String {
        switch session {
        case .greeted: "#\(id)"
        case .admitting: "#\(id) (joining)"
        case .player(let room, let seat): "#\(id) \(name) (seat \(seat.rawValue) of \(room.host.name))"
        case .spectator(let room): "#\(id) \(name) (watching \(room.host.name))"
        }
    }
}
