import SetClient
import SetRules
import SetWire

/// The arena on the one session: between duels `ArenaScreen` (drawn by `ArenaView`) shows the
/// standings and takes the keys; a pairing hands the screen and the keys to the game's own
/// `ClientApp`, which plays the duel as any other, and its end hands them back. One
/// `ClientSession` (the game's, in its arena stage) speaks the protocol on one connection
/// throughout. Driven by `ClientDriver` as the game and the lobby are; pure.
package struct ArenaApp: DrivenClient {
    /// The duel's screen and keys; its `state.session` is the arena's one session.
    package private(set) var game: ClientApp
    package private(set) var screen: ArenaScreen
    /// How the player left the arena; nil while they are in it.
    package private(set) var outcome: ArenaOutcome?

    /// The arena `arena` for `options.name` (its account and host as the game's options say), drawn at `size`.
    package init(arena: String, options: ClientOptions, size: TerminalSize) {
        var options = options
        options.match = nil
        options.mode = .duel
        options.role = .player
        var state = ClientState(options: options, size: size)
        _ = state.session.enterArena(arena, at: 0)
        game = ClientApp(state: state)
        screen = ArenaScreen(me: options.name, arena: arena)
    }

    package var redirectedPlace: ServerPlace? { game.redirectedPlace }
    /// Whether the duel's screen is the one shown.
    package var isPlaying: Bool { if case .playing = screen.stage { true } else { false } }

    package mutating func start(at now: Int64) -> [ClientEffect] { game.start(at: now) }

    package mutating func connected(at now: Int64) -> [ClientEffect] { game.connected(at: now) }

    package mutating func receive(_ message: ServerMessage, at now: Int64) -> [ClientEffect] {
        guard outcome == nil else { return [] }
        var out: [ClientEffect] = []
        for effect in game.state.session.receive(message, at: now) { out += perform(effect, at: now) }
        game.relayout(at: now)
        return out
    }

    package mutating func connectionLost(_ reason: String, at now: Int64) -> [ClientEffect] {
        guard outcome == nil else { return [] }
        return game.connectionLost(reason, at: now)
    }

    /// Keys go to the duel while it is played, to the standings between duels.
    package mutating func input(_ event: InputEvent, at now: Int64) -> [ClientEffect] {
        guard outcome == nil else { return [] }
        if isPlaying { return game.input(event, at: now) }
        return finish(screen.input(event, at: now), at: now)
    }

    package mutating func tick(at now: Int64) -> [ClientEffect] {
        guard outcome == nil else { return [] }
        return game.tick(at: now)
    }

    /// The game's next wake, and the arena's clock each second between duels.
    package func nextWake(at now: Int64) -> Int64? {
        guard outcome == nil else { return nil }
        let clock = isPlaying || screen.arena == nil ? nil : now + 1_000 - now % 1_000
        return [game.nextWake(at: now), clock].compactMap { $0 }.min()
    }

    package mutating func resize(to size: TerminalSize, at now: Int64) { game.resize(to: size, at: now) }

    /// The frame to show at `now`: the duel's while it is played, the standings otherwise.
    package func compose(at now: Int64) -> ScreenBuffer {
        isPlaying ? game.compose(at: now) : ArenaStandingsView.render(screen, size: game.state.size, at: now)
    }

    /// One of the session's effects: shown by both screens (the game's keeps its clock, seat and
    /// view; the arena's its standings), performed once.
    private mutating func perform(_ effect: SessionEffect, at now: Int64) -> [ClientEffect] {
        let done = game.perform(effect, at: now)
        return done + finish(screen.take(effect, at: now), at: now)
    }

    /// The arena screen's effects: its requests sent through the session, its way out kept.
    private mutating func finish(_ effects: [ArenaEffect], at now: Int64) -> [ClientEffect] {
        var out: [ClientEffect] = []
        for effect in effects {
            switch effect {
            case .pause: out += game.state.session.pauseArena().flatMap { game.perform($0, at: now) }
            case .resume: out += game.state.session.resumeArena().flatMap { game.perform($0, at: now) }
            case .leave: out += game.state.session.leaveArena().flatMap { game.perform($0, at: now) }
            case .send(let message): out.append(.send(message))
            case .finish(let outcome):
                if self.outcome == nil { self.outcome = outcome }
                switch outcome {
                case .left, .quit: return out + [.quit(status: 0, message: nil)]
                case .failed(let message): return out + [.quit(status: 1, message: message)]
                }
            }
        }
        return out
    }
}
