import SetClient
import SetRules
import SetWire

/// The lobby on the one session: `ClientSession` in its lobby stage speaks the protocol (the
/// welcome, the lists kept fresh, pings, a `redirect` to the lobby's node, `node_away`, a node
/// that does not answer), and `LobbyState` is the screen it feeds. Driven by `ClientDriver` as
/// the game's `ClientApp` is; pure.
package struct LobbyApp: DrivenClient {
    package private(set) var session: ClientSession
    package private(set) var lobby: LobbyState
    /// How the player left the lobby; nil while they are in it.
    package private(set) var outcome: LobbyOutcome?
    /// After a redirect's node did not answer: when the driver connects again (the session's countdown).
    package private(set) var reconnectAt: Int64?

    /// The lobby for `me`, with their account key (nil: a guest) and the variant they came for.
    package init(me: String, account: String? = nil, variant: Variant = .classic) {
        var options = ClientOptions(name: me, variant: variant, pings: .keepAlive)
        options.account = account
        session = ClientSession(options)
        // A person watches the countdown and can quit: wait for the lobby's node as long as they do.
        session.awayNodePatience = .untilQuit
        _ = session.enterLobby(at: 0)
        lobby = LobbyState(me: me, account: account, variant: variant)
    }

    package var redirectedPlace: ServerPlace? { session.redirectedPlace }

    package mutating func start(at now: Int64) -> [ClientEffect] { [.connect] }

    package mutating func connected(at now: Int64) -> [ClientEffect] {
        reconnectAt = nil
        return perform(session.connected(at: now), at: now)
    }

    package mutating func receive(_ message: ServerMessage, at now: Int64) -> [ClientEffect] {
        perform(session.receive(message, at: now), at: now)
    }

    /// A redirect's node that never answered is the session's countdown and a new connection; any
    /// other loss ends the lobby, as before.
    package mutating func connectionLost(_ reason: String, at now: Int64) -> [ClientEffect] {
        guard outcome == nil else { return [] }
        let effects = session.lost(reason, at: now)
        for effect in effects {
            if case .unreachable(let wait) = effect { reconnectAt = wait.retryAt }
        }
        let done = perform(effects, at: now)
        guard reconnectAt == nil, outcome == nil else { return done }
        return done + finish(lobby.connectionLost(reason))
    }

    package mutating func input(_ event: InputEvent, at now: Int64) -> [ClientEffect] {
        guard outcome == nil else { return [] }
        return finish(lobby.input(event, at: now), at: now)
    }

    package mutating func tick(at now: Int64) -> [ClientEffect] {
        guard outcome == nil else { return [] }
        if let at = reconnectAt {
            guard now >= at else { return [] }
            reconnectAt = nil
            return [.connect]
        }
        lobby.tick(at: now)
        return perform(session.tick(at: now), at: now)
    }

    package func nextWake(at now: Int64) -> Int64? {
        guard outcome == nil else { return nil }
        if let reconnectAt { return min(reconnectAt, now + 1_000) }
        return [session.nextWake, lobby.nextWake(at: now), session.nodeAway.map { _ in now + 1_000 }].compactMap { $0 }.min()
    }

    /// The session's effects: shown by the screen, sent, followed. Once the lobby is left the rest
    /// is the game's: the game goes on with this session (`ClientState.continueSession`) and
    /// sends the accepted challenge's join on its own connection.
    private mutating func perform(_ effects: [SessionEffect], at now: Int64) -> [ClientEffect] {
        var out: [ClientEffect] = []
        for effect in effects {
            guard outcome == nil else { break }
            switch effect {
            case .send(let message): out.append(.send(message))
            case .redirected: out.append(.connect)  // the driver connects to the session's new place
            case .log(let text): out.append(.log(text))
            case .gaveUp: out.append(.disconnect)
            default: break
            }
            out += finish(lobby.take(effect, at: now), at: now)
        }
        return out
    }

    /// The screen's effects: its requests sent, its refresh asked of the session, its way out kept.
    private mutating func finish(_ effects: [LobbyEffect], at now: Int64 = 0) -> [ClientEffect] {
        var out: [ClientEffect] = []
        for effect in effects {
            switch effect {
            case .send(let message): out.append(.send(message))
            case .refresh: out += perform(session.refreshLobby(at: now), at: now)
            case .finish(let outcome):
                if self.outcome == nil { self.outcome = outcome }
                return out + [.quit(status: 0, message: nil)]
            }
        }
        return out
    }
}
