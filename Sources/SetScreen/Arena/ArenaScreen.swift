import SetClient
import SetRules
import SetWire

/// How a player leaves the arena screen; the shell around it carries it out.
package enum ArenaOutcome: Hashable, Sendable {
    /// Left the arena (`arena_leave`): no longer paired; the points stay in the standings.
    case left
    /// Closed the screen without leaving (the arena may pause an absent player).
    case quit
    /// The server refused us for good, or went away: the words to print.
    case failed(String)
}

/// What the arena screen asks its shell to do; the shell's `ClientSession` speaks the protocol.
package enum ArenaEffect: Hashable, Sendable {
    /// `ClientSession.pauseArena`, `resumeArena`, `leaveArena`.
    case pause, resume, leave
    /// Send this request on the session's connection (the final results).
    case send(ClientMessage)
    case finish(ArenaOutcome)
}

/// The arena between duels as a person sees it: the live standings and boards, the minutes left,
/// the last duel's end, and the keys to pause, resume and leave; the final standings once it is
/// over. Pure: the session's effects, keys and local times in, effects out; `ArenaView` draws it.
package struct ArenaScreen: Hashable, Sendable {
    /// Where the screen stands.
    package enum Stage: Hashable, Sendable {
        /// Waiting for the welcome and the arena's first state.
        case greeting
        /// Joined, between duels (or waiting for the start).
        case between
        /// Playing the dealt duel: the match screen shows.
        case playing(ArenaPairingNotice)
        /// An outcome was returned; nothing more happens.
        case over
    }

    package let me: String
    package let arenaName: String
    /// Following the arena without playing in it (the TV): no keys but quitting.
    package let watching: Bool
    package private(set) var stage = Stage.greeting
    /// The arena as the server last told it.
    package private(set) var arena: ArenaView?
    /// The final standings, once the arena finished and they were asked for.
    package private(set) var results: ArenaResults?
    /// Server time minus local time, from the welcome: turns `endsAt` into minutes left.
    package private(set) var serverOffset: Int64 = 0
    /// What happened last, in words.
    package private(set) var note: String?
    /// This player's seat in the duel being played.
    package private(set) var seat: Seat?
    /// How the last duel ended, in words ("You beat bob 12–9.").
    package private(set) var lastDuel: String?
    private var askedResults = false

    package init(me: String, arena: String, watching: Bool = false) {
        self.me = me
        arenaName = arena
        self.watching = watching
    }

    /// Whether a listed name is this player's (names compare without case, as the server's do).
    func isMe(_ name: String) -> Bool { name.lowercased() == me.lowercased() }

    /// This player's line in the standings.
    package var mine: ArenaEntry? { (results?.standings ?? arena?.standings)?.first { isMe($0.name) } }

    /// Whether the arena is over: its clock ran out and its last duels are counted (`finished`
    /// with duels under way still counts them), so its final standings show.
    package var finished: Bool { results != nil || Self.isFinal(arena) }

    /// Whether `state` is the arena's final state: finished, with no duel left under way.
    static func isFinal(_ state: ArenaView?) -> Bool { state?.state == .finished && state?.boards.isEmpty == true }

    /// Whole minutes and seconds left on the arena's clock (before its start: until the start).
    package func clock(at now: Int64) -> (state: ArenaState, secondsLeft: Int64)? {
        guard let arena else { return nil }
        let serverNow = now + serverOffset
        switch arena.state {
        case .starting: return (.starting, max(0, (arena.startsAt - serverNow + 999) / 1_000))
        case .running: return (.running, max(0, (arena.endsAt - serverNow + 999) / 1_000))
        case .finished: return (.finished, 0)
        }
    }

    // MARK: The server

    /// What the session did or heard; returns what to do about it.
    package mutating func take(_ effect: SessionEffect, at now: Int64) -> [ArenaEffect] {
        guard stage != .over else { return [] }
        switch effect {
        case .welcomed(let time, _):
            serverOffset = time - now
        case .arena(.state(let state)):
            guard state.arena == arenaName else { return [] }
            arena = state
            if stage == .greeting { stage = .between }
            if Self.isFinal(state), !askedResults, case .between = stage {
                askedResults = true
                return [.send(.arena(.results(arena: arenaName)))]
            }
        case .arena(.results(let final)):
            guard final.arena == arenaName else { return [] }
            results = final
        case .arena(.paired(let pairing)):
            stage = .playing(pairing)
            seat = nil
            note = nil
            lastDuel = nil  // told again at this duel's end
        case .joined(_, let seat, _, _):
            self.seat = seat
        case .eventApplied(let event, let before):
            guard case .playing(let pairing) = stage, case .gameOver(let result, _, _) = event.body else { return [] }
            lastDuel = Self.words(result, seat: seat ?? before.players.first { isMe($0.name) }?.seat, opponent: pairing.opponent)
        case .arena(.duelOver):
            // Over with no game: the opponent never sat, and the arena counted their no-show.
            if case .playing(let pairing) = stage, lastDuel == nil { lastDuel = "\(pairing.opponent) did not come: the duel is yours." }
            stage = .between
            if Self.isFinal(arena), !askedResults {
                askedResults = true
                return [.send(.arena(.results(arena: arenaName)))]
            }
        case .refused(let error), .seatInUse(let error):
            if error.fatal || (stage == .greeting && [.noSuchArena, .arenaOver].contains(error.code)) { return finish(.failed(error.message)) }
            note = error.message
        case .nodeAway(let wait):
            note = "The arena's server\(wait.node.map { " (\(ServerText.printable($0)))" } ?? "") is away; asking again in \(wait.secondsLeft(at: now)) s."
        case .unreachable(let wait):
            note = "The arena's server (\(ServerText.printable(wait.address))) did not answer; trying again in \(wait.secondsLeft(at: now)) s."
        case .gaveUp(let end):
            return finish(.failed("setgame: \(end.reason)"))
        case .goodbye(let reason):
            return finish(.failed(reason))
        case .send, .saveToken, .readyToChoose, .viewReplaced, .roundTrips, .setsOnTable, .chatHeard, .pong, .log, .redirected,
             .listed, .lobbyListed, .challenge, .arena(.listed):
            break
        }
        return []
    }

    /// The connection is gone: the arena screen cannot go on without it.
    package mutating func connectionLost(_ reason: String) -> [ArenaEffect] {
        guard stage != .over else { return [] }
        if stage == .greeting { return finish(.failed("setgame: cannot reach the server (\(reason))")) }
        return finish(.failed("setgame: lost the server (\(reason))"))
    }

    /// "You beat bob 12–9.", "bob beat you 9–12.", "A draw with bob, 10–10."; the reason when it was not the cards.
    static func words(_ result: MatchResult, seat: Seat?, opponent: String) -> String {
        guard let seat, result.scores.count == 2 else { return "Your duel with \(opponent) is over." }
        let mine = result.scores[seat.rawValue], theirs = result.scores[1 - seat.rawValue]
        let how = switch result.reason {
        case .noSetsLeft: ""
        case .resigned: result.by == seat ? " (you resigned)" : " (\(opponent) resigned)"
        case .forfeited: result.by == seat ? " (you forfeited)" : " (\(opponent) forfeited)"
        }
        switch result.winner {
        case nil: return "A draw with \(opponent), \(mine)–\(theirs)\(how)."
        case seat?: return "You beat \(opponent) \(mine)–\(theirs)\(how)."
        default: return "\(opponent) beat you \(theirs)–\(mine)\(how)."
        }
    }

    // MARK: Keys

    /// One key between duels; returns what to do about it (the match screen has the keys while playing).
    package mutating func input(_ event: InputEvent, at now: Int64) -> [ArenaEffect] {
        guard case .between = stage, case .key(let key) = event else { return [] }
        switch key {
        case .character("p"):
            guard !finished, !watching else { return [] }
            if mine?.paused == true {
                note = "Resuming: you will be paired again."
                return [.resume]
            }
            note = "Pausing: you will not be paired until you press p again."
            return [.pause]
        case .character("l"):
            guard !watching else { return [] }
            guard !finished else { return finish(.quit) }
            return [.leave] + finish(.left)
        case .escape, .character("q"), .ctrl("c"), .ctrl("d"): return finish(.quit)
        default: return []
        }
    }

    private mutating func finish(_ outcome: ArenaOutcome) -> [ArenaEffect] {
        stage = .over
        return [.finish(outcome)]
    }
}
