import SetClient
import SetRules
import SetWire

/// The whole client without a terminal or a socket: it takes what happens (a server message, a
/// key, a resize, the passing of time) and returns what to do. The shell performs the effects;
/// tests drive it directly. Times are local milliseconds on a monotonic clock.
package struct ClientApp: Sendable {
    var state: ClientState

    /// How long a ping may go unanswered before the connection counts as lost.
    static let unansweredLimit = ClientSession.unansweredLimit
    /// How often a spectator choosing a match refreshes the list.
    static let listInterval: Int64 = 2_000
    /// Reconnection waits, doubling up to the last.
    static let backoff: [Int64] = [500, 1_000, 2_000, 4_000, 8_000]

    package init(state: ClientState) {
        self.state = state
    }

    /// The node a redirect named, where the driver connects from then on; nil: its own server.
    package var redirectedPlace: ServerPlace? { state.session.redirectedPlace }

    /// The first effects: connect.
    package mutating func start(at now: Int64) -> [ClientEffect] {
        relayout(at: now)
        return [.connect]
    }

    // MARK: Connection

    /// The socket is open; the server speaks first.
    /// Whatever waited on the old connection's answers is forgotten: a snapshot asked for there
    /// never comes here, and waiting for it would drop every event for good.
    package mutating func connected(at now: Int64) -> [ClientEffect] {
        state.connection = .joining
        state.claimPending = false
        // A session that joins as the connection opens (the door's) sends its join from here.
        return [.log("connected")] + state.session.connected(at: now).flatMap { perform($0, at: now) }
    }

    /// The connection failed or was lost.
    package mutating func connectionLost(_ reason: String, at now: Int64) -> [ClientEffect] {
        // A redirect's node that never answered: the session counts down, then the driver
        // connects to the server it was first given (joined or not).
        for effect in state.session.lost(reason, at: now) {
            switch effect {
            case .unreachable(let wait):
                state.connection = .lost(reason: "\(wait.address): \(reason)", retryAt: wait.retryAt, attempt: 0)
                state.claimPending = false
                return [.log("\(wait.address) did not answer (\(reason)); connecting again in \(wait.secondsLeft(at: now)) s")]
            case .gaveUp(let end): return [.quit(status: 1, message: "setgame: \(end.reason)")]
            default: break
            }
        }
        guard state.everJoined else {
            return [.quit(status: 1, message: "setgame: \(reason)")]
        }
        let attempt: Int
        if case .connecting(let tries) = state.connection { attempt = tries + 1 } else { attempt = 0 }
        let wait = Self.backoff[min(attempt, Self.backoff.count - 1)]
        state.connection = .lost(reason: reason, retryAt: now + wait, attempt: attempt)
        state.claimPending = false
        return [.log("connection lost: \(reason); retrying in \(wait) ms")]
    }

    // MARK: Time

    /// Does what is due at `now`: pings, reconnection, list refreshes, expiring notices.
    package mutating func tick(at now: Int64) -> [ClientEffect] {
        if let leaving = state.leavingAfterResign, now >= leaving.deadline || state.connection != .live {
            state.leavingAfterResign = nil
            return [.quit(status: 0, message: leaving.message)]
        }
        var effects: [ClientEffect] = []
        switch state.connection {
        case .lost(_, let retryAt, let attempt) where now >= retryAt:
            state.connection = .connecting(attempt: attempt)
            effects.append(.connect)
        case .live, .joining:
            for effect in state.session.tick(at: now) {
                if case .gaveUp(let end) = effect { return [.disconnect] + connectionLost(end.reason, at: now) }
                effects += perform(effect, at: now)
            }
            if state.isPicking, state.connection == .live, now >= state.nextListAt {
                effects.append(requestList(at: now))
            }
        default: break
        }
        effects += releaseBotBeforeItForfeits(at: now)
        state.notices.removeAll { $0.until <= now }
        if let flash = state.flash, flash.until <= now { state.flash = nil }
        state.motion.prune(at: now)
        return effects
    }

    /// The next local time at which something must happen or the screen changes by itself; nil
    /// when nothing will until an input arrives.
    package func nextWake(at now: Int64) -> Int64? {
        var times = screenChanges(at: now)
        if let leaving = state.leavingAfterResign { times.append(leaving.deadline) }
        switch state.connection {
        case .live, .joining:
            if let wake = state.session.nextWake { times.append(wake) }
            if state.isPicking { times.append(state.nextListAt) }
        case .lost(_, let retryAt, _):
            // The countdown to the retry shows whole seconds.
            times.append(min(retryAt, now + 1_000 - (retryAt - now) % 1_000))
        case .connecting: break
        }
        return times.filter { $0 > now }.min() ?? times.min().map { max($0, now + 1) }
    }

    /// The next local time after `now` at which the screen changes by itself (a countdown, a
    /// notice or a mark running out, a chat line fading), whatever the connection: what a
    /// recording of the screen waits for. Nil when only an input or a message would change it.
    package func nextScreenChange(at now: Int64) -> Int64? {
        screenChanges(at: now).filter { $0 > now }.min()
    }

    private func screenChanges(at now: Int64) -> [Int64] {
        var times: [Int64] = []
        // The node-away countdown shows whole seconds.
        if let wait = state.session.nodeAway { times.append(min(wait.retryAt, now + 1_000 - (wait.retryAt - now) % 1_000)) }
        if state.motion.isAnimating(at: now) { times.append(now + 33) }
        if let view = state.view, view.phase == .playing {
            // Countdowns show tenths of a second.
            if view.window != nil { times.append(now + 100) }
            if view.forfeitAt != nil { times.append(now + 1_000) }
        }
        times += state.notices.map(\.until)
        if let flash = state.flash { times.append(flash.until) }
        // The newest chat line folded beside the buttons goes after a while.
        if let heard = state.chatHeardAt { times.append(heard + ChatStrip.foldedMs) }
        return times
    }

    // MARK: Screen

    /// The terminal changed size: lay the table out again at once.
    package mutating func resize(to size: TerminalSize, at now: Int64) {
        state.size = size
        relayout(at: now)
    }

    /// The layout of the current screen.
    var layout: ScreenLayout { Self.layout(for: state) }

    static func layout(for state: ClientState) -> ScreenLayout {
        let count = state.isPicking ? 0 : state.view?.table.count ?? 0
        // Chat rows only while a game is played: the waiting and result boxes use the whole table area.
        let chat = state.view?.phase == .playing && !state.session.chat.shown.isEmpty ? ChatStrip.mostLines : 0
        return ScreenLayout(size: state.size, cardCount: count, buttons: buttons(for: state), deck: true, chatRows: chat,
                            strip: needsStrip(state), deckEmpty: state.view?.deck == 0 && !needsStrip(state))
    }

    /// Whether the screen needs the strip beside the table: Set-Chain's chain lies there. While
    /// it does, the cards keep a deal's size as the deck empties: grown two rows tall, they left
    /// the chain no room beside them.
    static func needsStrip(_ state: ClientState) -> Bool {
        guard !state.isPicking, let view = state.view, view.variant == .chain else { return false }
        return !ChainStrip.cards(view).isEmpty
    }

    /// The buttons that make sense now.
    static func buttons(for state: ClientState) -> [ScreenButton] {
        guard state.isPlayer else { return [.help, .quit] }
        let over = state.view?.phase == .over
        if state.options.mode == .solo { return over ? [.newGame, .help, .quit] : [.noSet, .hint, .newGame, .help, .quit] }
        // A duel whose rules turn hints off shows no Hint button: greyed, it could never work.
        let hint: [ScreenButton] = Overlays.offersHint(state) ? [.hint] : []
        // With the opponent gone (forfeited, or left), there is nobody to ask for a rematch.
        if over { return (state.opponentGone == nil ? [.rematch] : []) + [.help, .quit] }
        return [.claim, .deal] + hint + [.pass, .help, .quit]
    }

    /// Tells the motion model where the cards should be now.
    mutating func relayout(at now: Int64) {
        state.labels.update(state.isPicking ? [] : state.touchableCards)
        let layout = self.layout
        guard let view = state.view, !state.isPicking, let table = layout.table else {
            state.motion.retarget([], bounds: Rect(size: state.size), entry: .scatter, deckPile: nil, at: now)
            return
        }
        let targets = zip(view.table, table.cardRects).map { (card: $0.0, rect: $0.1) }
        let flourish = state.flash.flatMap { $0.isSet ? $0.cards : nil } ?? []
        let flyTo = state.flash.flatMap { $0.isSet ? $0.by : nil }.flatMap { ScreenComposer.scoreTarget(of: $0, state: state) }
        let entry = state.tableShown || targets.isEmpty ? state.pendingEntry : .arrival
        state.motion.retarget(targets, bounds: Rect(size: state.size), entry: entry,
                              deckPile: layout.deckPile, flourish: flourish, flyTo: flyTo, at: now)
        state.pendingEntry = .deck
        state.tableShown = state.tableShown || !targets.isEmpty
        if state.cursor >= view.table.count { state.cursor = max(0, view.table.count - 1) }
    }

    /// The frame to show at `now`.
    package func compose(at now: Int64) -> ScreenBuffer {
        ScreenComposer.compose(state, layout: layout, at: now)
    }
}
