import SetRules
import SetWire

/// The arena a session plays in (or watches), and where it stands there.
package struct ArenaGoal: Hashable, Sendable {
    /// The arena's name.
    package var name: String
    /// Follow the arena's state without playing.
    package var watch: Bool
    /// The duel the arena dealt, from its pairing until its `game_over`.
    package var pairing: ArenaPairingNotice?
    /// The arena as the server last told it.
    package var state: ArenaView?
    /// Whether this connection's `arena_join` was answered: a connection made for a duel (a
    /// reconnect, a redirect to the duel's node) joins the arena again once the duel is over.
    package var joinedHere = false

    package init(name: String, watch: Bool = false) {
        self.name = name
        self.watch = watch
    }
}

// An arena as a stage of the one session (Protocol.md, "Arenas"): greeted, the session joins the
// arena and takes its pushed state; an `arena_pairing` goes on, on this session and connection, to
// the duel's reserved seat (joined with its token, followed through redirects and waits as any
// join); the duel's `game_over` comes back to the arena, whose connection stayed joined.
extension ClientSession {
    /// Makes `arena` the session's goal: joined at the next welcome, or at once when greeted.
    package mutating func enterArena(_ name: String, watch: Bool = false, at now: Int64) -> [SessionEffect] {
        arena = ArenaGoal(name: name, watch: watch)
        switch stage {
        case .offline, .greeting: return []
        case .choosing, .joining, .joined, .lobby, .arena: return arenaEntered()
        }
    }

    /// The `arena_join` as it stands now: this player's name, account and kind, and a door
    /// connection's handoff ticket from the redirect that led here.
    package var arenaJoinMessage: ClientMessage? {
        guard let arena else { return nil }
        return .arena(.join(ArenaJoinRequest(arena: arena.name, name: options.name, account: options.account, bot: options.bot, watch: arena.watch, ticket: ticket)))
    }

    /// Not paired until `resumeArena`; nothing outside the arena stage.
    package func pauseArena() -> [SessionEffect] { stage == .arena ? [.send(.arena(.pause))] : [] }

    /// Paired again from now on.
    package func resumeArena() -> [SessionEffect] { stage == .arena ? [.send(.arena(.resume))] : [] }

    /// Leaves the arena (the points stay in its standings): the session's goal is no longer it.
    package mutating func leaveArena() -> [SessionEffect] {
        guard arena != nil, stage == .arena else { return [] }
        arena = nil
        return [.send(.arena(.leave))]
    }

    /// Whether the session plays an arena's duel now.
    package var inArenaDuel: Bool { arena?.pairing != nil }

    /// Greeted with an arena as the goal and no duel under way: join it.
    mutating func arenaEntered() -> [SessionEffect] {
        stage = .arena
        return arenaJoinMessage.map { [.send($0)] } ?? []
    }

    /// An `arena` line: kept as the arena's state when it is ours.
    mutating func heard(_ state: ArenaView) -> [SessionEffect] {
        if var goal = arena, goal.name == state.arena {
            goal.state = state
            goal.joinedHere = true
            arena = goal
            everJoined = true  // a lost connection is retried from now on, as a seated one is
            if stage == .arena { arrived() }  // the join's redirects and waits are over
        }
        // A duel whose opponent never sat: once the arena counted it (their no-show) it no longer
        // has this player playing it, and no `game_over` comes: back between duels.
        if let pairing = arena?.pairing, pairing.arena == state.arena, view?.match == pairing.match, view?.phase == .waiting,
           let me = state.standings.first(where: { $0.name == options.name }), me.playing != pairing.match {
            return [.arena(.state(state))] + backToArena()
        }
        return [.arena(.state(state))]
    }

    /// An `arena_pairing`: the session takes the seat reserved for this player in the dealt duel,
    /// on this connection, as an accepted challenge's (a node that does not hold it redirects).
    mutating func heard(_ pairing: ArenaPairingNotice) -> [SessionEffect] {
        guard var goal = arena, !goal.watch, goal.name == pairing.arena else {
            return [.log("a pairing for \(pairing.arena), which this session does not play in")]
        }
        goal.pairing = pairing
        arena = goal
        arrived()
        options.match = pairing.match
        options.variant = nil  // the duel plays the arena's variant
        options.reservedSeat = true  // a fresh seat would be a public one
        matchName = nil
        view = nil
        snapshotAskedAt = nil
        token = pairing.token
        takeOver = false
        let told: [SessionEffect] = [.arena(.paired(pairing)), .saveToken(pairing.token)]
        guard stage != .offline, stage != .greeting else { return told }
        stage = .joining
        return told + [.send(joinMessage)]
    }

    /// The duel is over (its `game_over`, or its seat refused for good): back to the arena, whose
    /// connection stayed joined; one made since joins it again. The match's last view stays for the
    /// screen to tell how it ended.
    mutating func backToArena() -> [SessionEffect] {
        guard var goal = arena, goal.pairing != nil else { return [] }
        goal.pairing = nil
        arena = goal
        options.match = nil
        options.reservedSeat = false
        token = nil
        takeOver = false
        let joinAgain = stage == .offline || stage == .greeting || goal.joinedHere ? [] : arenaEntered()
        if stage != .offline && stage != .greeting { stage = .arena }
        return [.saveToken(nil), .arena(.duelOver)] + joinAgain
    }
}
