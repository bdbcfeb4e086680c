import SetRules
import SetWire

// The lobby as a stage of the one session (Protocol.md, "The lobby and challenges"): greeted, the
// session enters the lobby and keeps its lists fresh; the lobby's `redirect`, `node_away` and an
// unreachable node are the session's own (`ClientSession+Nodes`), and an accepted challenge goes
// on, on this session, to its reserved seat.
extension ClientSession {
    /// How often the lobby's lists (and this player's place in it) are asked for again.
    package static let lobbyRefreshMs: Int64 = 5_000

    /// Makes the lobby the session's goal: entered at the next welcome, or at once when greeted.
    package mutating func enterLobby(at now: Int64) -> [SessionEffect] {
        inLobby = true
        switch stage {
        case .offline, .greeting: return []
        case .choosing, .joining, .joined, .lobby, .arena: return lobbyEntered(at: now)
        }
    }

    /// The request that lists this player in the lobby: its name, account and variant, and a door
    /// connection's handoff ticket from the redirect that led here.
    package var lobbyMessage: ClientMessage {
        var enter = JoinRequest(name: options.name, variant: options.variant ?? .classic)
        enter.account = options.account
        enter.ticket = ticket
        return .lobby(.enter(enter))
    }

    /// Both lists asked for now (a person's `r`, or the lobby's clock); nothing outside the lobby.
    package mutating func refreshLobby(at now: Int64) -> [SessionEffect] {
        guard stage == .lobby else { return [] }
        nextLobbyRefreshAt = now.saturatingAdding(Self.lobbyRefreshMs)
        return [.send(lobbyMessage), .send(.list())]
    }

    /// Greeted with the lobby as the goal: enter it.
    mutating func lobbyEntered(at now: Int64) -> [SessionEffect] {
        stage = .lobby
        return refreshLobby(at: now)
    }

    /// A `challenge` line. An accepted one with its match and token ends the lobby: the session
    /// takes the seat reserved for this player there, on this connection (a node that does not
    /// hold the duel redirects the join, as any join's).
    mutating func heard(_ notice: ChallengeNotice) -> [SessionEffect] {
        guard inLobby, notice.state == .accepted, let match = notice.match, let token = notice.token else { return [.challenge(notice)] }
        inLobby = false
        arrived()  // the lobby's redirects and waits are not the seat's
        options.match = match
        options.variant = nil  // the duel plays the challenge's variant
        options.reservedSeat = true  // a fresh seat would be a public one
        matchName = nil
        view = nil
        self.token = token
        takeOver = false
        guard stage == .lobby else { return [.challenge(notice), .saveToken(token)] }
        stage = .joining
        return [.challenge(notice), .saveToken(token), .send(joinMessage)]
    }
}
