import SetClient
import SetRules
import SetWire

/// Which of the TV's two connections a happening or an effect is about.
package enum ArenaTVChannel: Hashable, Sendable {
    /// Follows the arena's state (`arena_join` with `watch`), on the arena's node.
    case arena
    /// Watches the followed duel as its spectator, on the duel's node.
    case board
}

/// One of the TV's effects, on one of its connections; a `.quit` on either ends the program.
package struct ArenaTVEffect: Hashable, Sendable {
    package var channel: ArenaTVChannel
    package var effect: ClientEffect

    package init(_ channel: ArenaTVChannel, _ effect: ClientEffect) {
        self.channel = channel
        self.effect = effect
    }
}

/// `setgame watch HOST --arena NAME`: a small TV. One session follows the arena's state as a
/// watcher; `ArenaTV` picks the top board, which a spectator's `ClientApp` watches on a second
/// connection (through redirects to the duel's node, as any spectator's join) until its game is
/// over; then the next top board. With no duel under way the standings show (`ArenaScreen`, in
/// its watching mode), and the final standings once the arena is over. Pure: what each
/// connection heard, keys and the clock in, effects on each connection out.
package struct ArenaTVApp: Sendable {
    /// The arena's watching session.
    package private(set) var session: ClientSession
    package private(set) var screen: ArenaScreen
    package private(set) var tv = ArenaTV()
    /// The followed duel's spectator, while one is followed.
    package private(set) var board: ClientApp?
    package private(set) var size: TerminalSize
    /// Who watches, and how cards show: the spectator's options.
    let options: ClientOptions
    /// How the TV was left; nil while it runs.
    package private(set) var outcome: ArenaOutcome?
    /// When the arena's connection is opened again (a node that did not answer, a lost connection).
    package private(set) var reconnectAt: Int64?

    /// How long the arena's connection waits before it is opened again after a loss.
    static let reconnectMs: Int64 = 1_000

    /// The TV of arena `arena` for `options.name`, drawn at `size`.
    package init(arena: String, options: ClientOptions, size: TerminalSize) {
        var watcher = ClientOptions(name: options.name, pings: .keepAlive)
        watcher.route = options.route
        session = ClientSession(watcher)
        // A person watches the countdown and can quit: wait for the arena's node as long as they do.
        session.awayNodePatience = .untilQuit
        _ = session.enterArena(arena, watch: true, at: 0)
        screen = ArenaScreen(me: "", arena: arena, watching: true)
        self.options = options
        self.size = size
    }

    /// Where a channel connects: the node a redirect named, or nil for the server the TV was given.
    package func redirectedPlace(_ channel: ArenaTVChannel) -> ServerPlace? {
        switch channel {
        case .arena: session.redirectedPlace
        case .board: board?.redirectedPlace
        }
    }

    package func start(at now: Int64) -> [ArenaTVEffect] { [ArenaTVEffect(.arena, .connect)] }

    package mutating func connected(_ channel: ArenaTVChannel, at now: Int64) -> [ArenaTVEffect] {
        guard outcome == nil else { return [] }
        switch channel {
        case .arena:
            reconnectAt = nil
            return perform(session.connected(at: now), at: now)
        case .board:
            return onBoard(at: now) { $0.connected(at: now) }
        }
    }

    package mutating func receive(_ message: ServerMessage, on channel: ArenaTVChannel, at now: Int64) -> [ArenaTVEffect] {
        guard outcome == nil else { return [] }
        switch channel {
        case .arena: return perform(session.receive(message, at: now), at: now)
        case .board:
            var out: [ArenaTVEffect] = []
            // A listed duel not made yet (nobody seated) is watched again shortly, not ended.
            if case .error(let error, _) = message, error.code == .noSuchMatch, let match = tv.board?.match {
                out += change(tv.boardNotMade(match, at: now), at: now)
            }
            out += onBoard(at: now) { $0.receive(message, at: now) }
            if let match = tv.board?.match, Self.isOver(message, match: match) { out += change(tv.boardOver(match, at: now), at: now) }
            return out
        }
    }

    /// Whether `message` says the game of `match` is over for its spectator: its `game_over`, a
    /// snapshot of it ended, or the duel gone before the spectator came (`no_such_match`).
    static func isOver(_ message: ServerMessage, match: String) -> Bool {
        switch message {
        case .error(let error, _): error.code == .noSuchMatch || error.code == .matchOver
        case .event(let event): if case .gameOver = event.body { event.match == match } else { false }
        case .snapshot(let view): view.match == match && view.phase == .over
        default: false
        }
    }

    package mutating func connectionLost(_ reason: String, on channel: ArenaTVChannel, at now: Int64) -> [ArenaTVEffect] {
        guard outcome == nil else { return [] }
        switch channel {
        case .board: return onBoard(at: now) { $0.connectionLost(reason, at: now) }
        case .arena:
            let effects = session.lost(reason, at: now)
            var wait: Int64?
            for case .unreachable(let away) in effects { wait = away.retryAt }
            let done = perform(effects, at: now)
            guard outcome == nil else { return done }
            // Once the arena answered, a lost connection is opened again; before, the words end the TV.
            if let wait = wait ?? (session.everJoined ? now + Self.reconnectMs : nil) {
                reconnectAt = wait
                return done
            }
            return done + finish(screen.connectionLost(reason))
        }
    }

    /// q (or Esc, ^C, ^D) leaves; the TV takes no other key.
    package mutating func input(_ event: InputEvent, at now: Int64) -> [ArenaTVEffect] {
        guard outcome == nil else { return [] }
        if case .key(let key) = event, [.escape, .character("q"), .ctrl("c"), .ctrl("d")].contains(key) { return finish([.finish(.quit)]) }
        return finish(screen.input(event, at: now))
    }

    package mutating func tick(at now: Int64) -> [ArenaTVEffect] {
        guard outcome == nil else { return [] }
        var out: [ArenaTVEffect] = []
        if let at = reconnectAt, now >= at {
            reconnectAt = nil
            out.append(ArenaTVEffect(.arena, .connect))
        } else if reconnectAt == nil {
            out += perform(session.tick(at: now), at: now)
        }
        out += change(tv.tick(at: now), at: now)
        return out + onBoard(at: now) { $0.tick(at: now) }
    }

    /// The next local time something is due: the session's pings, the linger's end, the duel's
    /// own countdowns, the arena's clock each second.
    package func nextWake(at now: Int64) -> Int64? {
        guard outcome == nil else { return nil }
        let clock = screen.arena == nil ? nil : now + 1_000 - now % 1_000
        return [reconnectAt, session.nextWake, tv.nextWake, board?.nextWake(at: now), clock].compactMap { $0 }.min()
    }

    package mutating func resize(to size: TerminalSize, at now: Int64) {
        self.size = size
        board?.resize(to: Self.boardSize(size), at: now)
    }

    /// The duel under the TV's title line.
    static func boardSize(_ size: TerminalSize) -> TerminalSize {
        TerminalSize(columns: size.columns, rows: max(0, size.rows - 1))
    }

    /// The frame at `now`: the followed duel under a title line, or the standings.
    package func compose(at now: Int64) -> ScreenBuffer {
        guard let board, let followed = tv.board else { return ArenaStandingsView.render(screen, size: size, at: now) }
        var frame = ScreenBuffer(size: size)
        guard size.rows > 0, size.columns > 0 else { return frame }
        frame.write(LobbyView.fit(title(followed, at: now), size.columns), column: 0, row: 0, style: CellStyle(bold: true, reverse: true))
        frame.paste(board.compose(at: now), column: 0, row: 1)
        return frame
    }

    /// "TV friday · duel 3: ann #1 vs bob #2 · 7:32 left · q quit" (the arena's game number, the
    /// players' ranks); "· next board in 3 s" while a finished duel lingers.
    func title(_ board: ArenaBoard, at now: Int64) -> String {
        let ranks = board.players.map { name in
            let rank = (screen.arena?.standings ?? []).first { $0.name.lowercased() == name.lowercased() }?.rank
            return name + (rank.map { " #\($0)" } ?? "")
        }
        let prefix = "arena-\(screen.arenaName)-"
        let number = board.match.hasPrefix(prefix) ? "duel \(board.match.dropFirst(prefix.count)): " : ""
        var text = "TV \(screen.arenaName) · \(number)" + ranks.joined(separator: " vs ")
        if case .ended(_, let until) = tv.showing {
            text += " · next board in \(max(0, (until - now + 999) / 1_000)) s"
        } else if case (.running, let left)? = screen.clock(at: now) {
            text += " · \(ArenaStandingsView.minutes(left)) left"
        }
        return text + " · q quit"
    }

    // MARK: Performing

    /// The watching session's effects: shown by the standings, sent, followed; each arena state
    /// goes to the follower too.
    private mutating func perform(_ effects: [SessionEffect], at now: Int64) -> [ArenaTVEffect] {
        var out: [ArenaTVEffect] = []
        for effect in effects {
            guard outcome == nil else { break }
            switch effect {
            case .send(let message): out.append(ArenaTVEffect(.arena, .send(message)))
            case .redirected: out.append(ArenaTVEffect(.arena, .connect))  // to the session's new place
            case .log(let text): out.append(ArenaTVEffect(.arena, .log(text)))
            case .gaveUp: out.append(ArenaTVEffect(.arena, .disconnect))
            case .arena(.state(let view)): out += change(tv.take(view, at: now), at: now)
            default: break
            }
            out += finish(screen.take(effect, at: now))
        }
        return out
    }

    /// The follower's change carried out: a new spectator for a new board, none for the standings.
    private mutating func change(_ change: ArenaTVChange?, at now: Int64) -> [ArenaTVEffect] {
        switch change {
        case nil: return []
        case .unfollow?:
            board = nil
            return [ArenaTVEffect(.board, .disconnect)]
        case .follow(let followed)?:
            var spectator = options
            spectator.role = .spectator
            spectator.match = followed.match
            spectator.variant = nil
            spectator.account = nil
            spectator.watchCommand = nil
            // A viewer's name is only for the duel's chat: one another account owns gives way to
            // the server's suggestion, rather than leaving every board unwatched.
            spectator.takesSuggestedName = true
            var app = ClientApp(state: ClientState(options: spectator, size: Self.boardSize(size)))
            let started = app.start(at: now)
            board = app
            return [ArenaTVEffect(.board, .disconnect)] + started.map { ArenaTVEffect(.board, $0) }
        }
    }

    /// The spectator's effects, on the board's connection. Its quit (a duel gone before we came,
    /// a server that refused us) ends the board, not the TV: the next one comes after the linger.
    private mutating func onBoard(at now: Int64, _ happening: (inout ClientApp) -> [ClientEffect]) -> [ArenaTVEffect] {
        guard var app = board else { return [] }
        let effects = happening(&app)
        board = app
        guard effects.contains(where: \.isQuit) else { return effects.map { ArenaTVEffect(.board, $0) } }
        let match = tv.board?.match ?? ""
        board = nil
        let out = effects.filter { !$0.isQuit }.map { ArenaTVEffect(.board, $0) } + [ArenaTVEffect(.board, .disconnect)]
        return out + change(tv.boardOver(match, at: now), at: now)
    }

    /// The screen's effects: its requests sent on the arena's connection, its way out kept.
    private mutating func finish(_ effects: [ArenaEffect]) -> [ArenaTVEffect] {
        var out: [ArenaTVEffect] = []
        for effect in effects {
            switch effect {
            case .send(let message): out.append(ArenaTVEffect(.arena, .send(message)))
            case .pause, .resume, .leave: break  // a watcher plays no duel
            case .finish(let outcome):
                if self.outcome == nil { self.outcome = outcome }
                board = nil
                switch outcome {
                case .left, .quit: return out + [ArenaTVEffect(.arena, .quit(status: 0, message: nil))]
                case .failed(let message): return out + [ArenaTVEffect(.arena, .quit(status: 1, message: message))]
                }
            }
        }
        return out
    }
}
