import SetRules
import SetWire

/// What a session asks its driver to do, or tells it happened, in the order it happened. The
/// driver (the terminal app, a bot, a bench player) performs the sends and shows or acts on the
/// rest; the session itself does no I/O.
package enum SessionEffect: Hashable, Sendable {
    /// Write this message on the connection.
    case send(ClientMessage)
    /// Keep this seat token for a later run; nil forgets the kept one.
    case saveToken(String?)
    /// The server greeted us with its clock and limits.
    case welcomed(serverTime: Int64, limits: ServerLimits)
    /// Greeted, with nothing to join: a spectator who has not chosen a match yet.
    case readyToChoose
    /// The server seated us (or let us watch); `first` on the session's first join.
    case joined(match: String, seat: Seat?, resumed: Bool, first: Bool)
    /// A snapshot replaced the view; `previous` is what was shown before (nil at first).
    case viewReplaced(previous: MatchView?)
    /// An event was applied in order; `before` is the view it was applied to.
    case eventApplied(WireEvent, before: MatchView)
    /// The server measured the seats' round trips anew (in the view's `roundTripMs`).
    case roundTrips([Int64?])
    /// Spectators: how many sets the table now holds.
    case setsOnTable(Int)
    /// A chat line was heard (kept in `ClientSession.chat`); `shown` unless its room or speaker is muted.
    case chatHeard(ChatLine, shown: Bool)
    /// One page of the live matches, and the cursor of the next page (nil on the last).
    case listed([MatchListing], next: String?)
    /// Who is listed in the lobby, as the server answered `lobby`.
    case lobbyListed([LobbyEntry])
    /// A challenge made, answered or accepted that this player is a side of.
    case challenge(ChallengeNotice)
    /// Something about arenas: their list, an arena's state, a duel dealt, results.
    case arena(ArenaHeard)
    /// A pong: the server's time and the time we sent the ping it answers, for clock sync.
    case pong(serverTime: Int64, sentAt: Int64?)
    /// The kept seat is still held by another connection, and taking it over was not agreed:
    /// the driver asks (the terminal) or gives up (a bot). `takeOver()` agrees.
    case seatInUse(WireError)
    /// An error the session does not handle itself: a refused join, a rules refusal (typed in
    /// `error.refusal`), a limit. A fatal one is followed by the server closing the connection.
    case refused(WireError)
    /// The server said goodbye, with its reason as it sent it.
    case goodbye(String)
    /// Something worth a line in a log.
    case log(String)
    /// The session ended on our side: the connection should be closed.
    case gaveUp(SessionEnd)
    /// The match lives on another node: close this connection and connect to `place` (the
    /// session's `place` now); the session sends the join again there.
    case redirected(to: ServerPlace)
    /// The node holding the match is away: the session sends the join again at `wait.retryAt`
    /// (show the countdown).
    case nodeAway(NodeAwayWait)
    /// A node a redirect named did not answer: the driver connects again at `wait.retryAt`, to
    /// the server it was first given (`redirectedPlace` is nil again); show the countdown.
    case unreachable(UnreachableWait)
}

/// Why a session gave up on its server.
package enum SessionEnd: Hashable, Sendable {
    /// The welcome lists no protocol version this client speaks.
    case unsupportedProtocol(serverVersions: [Int])
    /// Nothing answered a ping, or the welcome, for this long.
    case silent(ms: Int64)
    /// Redirected more times than `ClientSession.maxRedirects` for one request: the nodes disagree
    /// where the match lives.
    case redirectLoop(count: Int, address: String)
    /// A redirect to something that is not HOST:PORT.
    case badRedirect(address: String)
    /// The node a redirect named did not answer, this many times in a row (the patience of a program).
    case unreachable(address: String, reason: String, tries: Int)

    /// A sentence for people.
    package var reason: String {
        switch self {
        case .unsupportedProtocol(let versions):
            "the server speaks protocol \(versions.map(String.init).joined(separator: ", ")), this client \(ProtocolVersion.current)"
        case .silent(let ms): "the server did not answer for \(ms / 1_000) s"
        case .redirectLoop(let count, let address):
            "the servers sent this client on \(count) times without seating it (last to \(ServerText.printable(address))): a redirect loop"
        case .badRedirect(let address): "the server redirected to \"\(ServerText.printable(address))\", which is not HOST:PORT"
        case .unreachable(let address, let reason, let tries):
            "the server holding the match (\(ServerText.printable(address))) did not answer after \(tries + 1) tries: \(ServerText.printable(reason))"
        }
    }
}

/// What the server said about arenas (Protocol.md, "Arenas"), handed to whoever shows it.
package enum ArenaHeard: Hashable, Sendable {
    /// The answer to `arenas`.
    case listed([ArenaSummary])
    /// An arena's whole state, answered or pushed.
    case state(ArenaView)
    /// A duel dealt to this player: join its match with the token.
    case paired(ArenaPairingNotice)
    /// An arena's standings with performance, and its winners.
    case results(ArenaResults)
    /// The arena's duel is over (its `game_over`, or its seat refused for good): the session is
    /// back in the arena between duels.
    case duelOver
}
