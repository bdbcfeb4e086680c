import SetRules
import SetWire

// What each command does: local state changes at once, and the requests to send.
extension ClientApp {
    /// Reads a key or click and does what it means.
    package mutating func input(_ event: InputEvent, at now: Int64) -> [ClientEffect] {
        if state.leadingEnterDropped, case .key(let key) = event {
            state.leadingEnterDropped = false
            if key == .enter { return [] }
        }
        if state.chatDraft != nil { return typeChat(event, at: now) }
        guard let command = InputMapper.command(for: event, in: inputContext) else { return [] }
        return perform(command, at: now)
    }

    /// What the input mapper needs to know now.
    var inputContext: InputContext {
        let layout = self.layout
        let chain = state.view.map(ChainStrip.cards) ?? []
        var context = InputContext(isPlayer: state.isPlayer, overlay: state.overlay,
                                   pickerRows: state.isPicking ? state.listings?.count ?? 0 : nil, layout: layout,
                                   awaitingStart: state.awaitingStart && state.isPlayer,
                                   chainRects: ChainStrip.rects(layout: layout, count: chain.count) ?? [])
        context.pickerScroll = Overlays.pickerScroll(state, area: layout.tableArea)
        return context
    }

    /// Does one command. Beside a bot of this process (a local match, the door's bot duel), opening
    /// help or the leave box holds the bot off and closing it lets the bot play on: there is
    /// nobody else to be unfair to.
    mutating func perform(_ command: ClientCommand, at now: Int64) -> [ClientEffect] {
        let wasHeld = holdsBotNow
        let effects = performCommand(command, at: now)
        return effects + botHoldChange(from: wasHeld, effects: effects)
    }

    /// The boxes a player reads rather than plays through: a local bot must not score meanwhile.
    static func holdsLocalBot(_ overlay: Overlay?) -> Bool {
        overlay == .help || overlay == .confirmQuit
    }

    private mutating func performCommand(_ command: ClientCommand, at now: Int64) -> [ClientEffect] {
        switch command {
        case .toggle(let index):
            state.cursorVisible = false
            state.typed = ""
            return touch(index, at: now)
        case .label(let key):
            return typeLabel(key, at: now)
        case .move(let columns, let rows):
            moveCursor(columns: columns, rows: rows)
            return []
        case .toggleCursor:
            guard state.cursorVisible else {
                state.cursorVisible = true
                return []
            }
            return touch(state.cursor, at: now)
        case .claim:
            return claim(at: now)
        case .deal:
            if state.view?.phase == .over {
                state.note("the game is over: r for a rematch", .info, at: now)
                return []
            }
            if state.view?.deck == 0 && state.view?.shown?.isSet != true {
                state.overlay = .deckEmpty
                return []
            }
            if !roomToDeal {
                state.note(state.size.columns >= 70 ? "no room for 3 more cards: make the terminal larger, or take a set"
                                                    : "make the terminal larger, or take a set", .bad, at: now)
                return []
            }
            return act(.deal)
        case .hint:
            // The hint shown is still marked, and the server would show the same set again, for
            // the same cost: nothing is asked (the marks are cleared when the table changes).
            if !state.hint.isEmpty {
                state.note("the hint is still marked: that set again would cost \(state.view?.rules.hintCost ?? 0) more", .info, at: now)
                return []
            }
            return act(.hint)
        case .pass: return act(.pass)
        case .resign:
            // Asked from the leave box: resign, then leave, as its key says.
            let leaving = state.overlay == .confirmQuit
            state.overlay = nil
            let message = resignedLine
            let resign = act(.resign)
            guard leaving else { return resign }
            let forget: [ClientEffect] = state.token != nil ? [.saveToken(nil)] : []
            // A duel under way ends with its record: leave once that is told, so whatever the
            // player asks next (a profile, the door's menu) already counts the game.
            guard message != nil, state.connection == .live else { return resign + forget + [.quit(status: 0, message: message)] }
            state.leavingAfterResign = LeavingAfterResign(deadline: now + Self.resignedLeaveWaitMs, message: message)
            return resign + forget
        case .rematch:
            if state.options.mode == .duel && state.view?.phase == .playing {
                state.note("a rematch can be asked for when the game is over", .info, at: now)
                return []
            }
            if let gone = state.opponentGone {
                state.note("\(gone) left the match: no rematch", .info, at: now)
                return []
            }
            if state.view?.rematchAsked.contains(where: { $0 == state.seat }) == true {
                state.note("waiting for \(state.seat.map { state.name(of: $0.other) } ?? "the other player")", .info, at: now)
                return []
            }
            if state.isPlayer, state.options.mode == .solo, state.view?.phase == .playing {
                // A new game throws the kept one away: ask first, as leaving a duel does.
                guard state.overlay == .confirmNewGame else {
                    state.overlay = .confirmNewGame
                    return []
                }
                state.overlay = nil
            }
            return act(.rematch)
        case .help:
            state.overlay = state.overlay == .help ? nil : .help
            return []
        case .dismiss:
            if state.overlay != nil {
                state.overlay = nil
            } else if !state.typed.isEmpty {
                state.typed = ""
            } else if state.view?.phase == .over {
                state.resultHidden.toggle()
            } else {
                state.cursorVisible = false
            }
            return []
        case .quit:
            if state.isPlayer && state.options.mode == .duel && state.options.confirmsQuit && state.view?.phase == .playing {
                state.overlay = .confirmQuit
                return []
            }
            return quit()
        case .quitNow:
            if case .confirmTakeOver = state.overlay {
                // The seat stays the other connection's, and its token stays kept.
                let other = state.options.door == nil ? "join with another --name" : "come with an ssh key of your own"
                return [.quit(status: 0, message: "setgame: the seat stays with the other connection; \(other) to play as someone else")]
            }
            return quit()
        case .pickerMove(let delta):
            let count = state.listings?.count ?? 0
            if count > 0 { state.pickerIndex = (state.pickerIndex + delta + count) % count }
            return []
        case .pick(let index):
            return pick(index ?? state.pickerIndex, at: now)
        case .start:
            guard state.awaitingStart else { return [] }
            state.awaitingStart = false
            // A solo game is dealt as it is joined, so no `game_started` reaches this client: its
            // time (the daily deal's "played in") runs from this key, on the server's clock.
            if state.gameStartedAt == nil, state.joinedAfresh, state.view?.phase == .playing {
                state.gameStartedAt = state.clock.serverTime(at: now)
            }
            state.note("go!", .good, at: now)
            state.botTrouble = nil
            return [.startLocal]
        case .openChat:
            // Only where there is a match to talk in; not over a box the player must answer.
            guard state.view != nil, !state.isPicking, state.overlay == nil else { return [] }
            state.chatDraft = ""
            return []
        case .takeOver:
            guard case .confirmTakeOver = state.overlay else { return [] }
            state.overlay = nil
            return state.session.agreeToTakeOver().flatMap { perform($0, at: now) }
        }
    }

    /// Whether three more cards could still be shown readably: a deal the screen has no room for
    /// is refused here, before it costs anything (the assignments' "no more room in the UI"; the
    /// server's rules still allow it). Room means cards no smaller than `TableLayout.smallestReadable`,
    /// or, on a terminal too small to show a deal of 12 that large, than its 12 are. Dealing
    /// after a taken set in solo only refills.
    var roomToDeal: Bool {
        guard let view = state.view, view.shown?.isSet != true else { return true }
        func cardSize(_ count: Int) -> CardSize? {
            ScreenLayout(size: state.size, cardCount: count, buttons: Self.buttons(for: state), deck: true,
                         strip: Self.needsStrip(state)).table?.cardSize
        }
        guard let next = cardSize(view.table.count + 3) else { return false }
        let floor = min(TableLayout.smallestReadable, cardSize(ScreenLayout.steadyCount) ?? TableLayout.smallestReadable)
        return next >= floor
    }

    private func act(_ action: Action) -> [ClientEffect] {
        guard state.isPlayer, state.view != nil, state.connection == .live else { return [] }
        return [.send(state.session.request(action))]
    }

    /// Quitting forgets the seat when the game is over: the next run starts a fresh match. So it
    /// does when nobody came to a duel on a server: the server frees a match its only player left,
    /// and a kept token would only promise a game that is gone (the door's menu offered it).
    private func quit() -> [ClientEffect] {
        let nobodyCame = state.view.map { $0.mode == .duel && $0.phase == .waiting && $0.players.count < 2 } ?? false
        let finished = state.view?.phase == .over || state.view == nil || (nobodyCame && !state.options.isLocal)
        let result = state.view?.result.map { "setgame: \(resultLine($0)) · \(scoresLine)" }
        return (state.isPlayer && finished && state.token != nil ? [.saveToken(nil)] : []) + [.quit(status: 0, message: result ?? keptSeatLine(finished: finished))]
    }

    /// What `join` leaves on the terminal when the player leaves a game under way: how long the
    /// seat waits and how to come back. `play` says it its own way (`quitNote`), and the door's
    /// menu offers the game first.
    private func keptSeatLine(finished: Bool) -> String? {
        guard state.isPlayer, !finished, state.token != nil, !state.options.isLocal, state.options.door == nil,
              let match = state.view?.match, let wait = state.seatWaitMs else { return nil }
        let kept = wait % 60_000 == 0 ? "\(wait / 60_000) min" : "\(wait / 1_000) s"
        return "setgame: your seat in \(ServerText.printable(match)) is kept for \(kept): \(state.options.rejoinHint)"
    }

    /// What the terminal keeps of a resignation once the screen is gone: resigning loses the match.
    /// The longest a client that resigned from the leave box waits for the game's end to be
    /// told before it leaves anyway (a store slow to commit the record does not hold it).
    static let resignedLeaveWaitMs: Int64 = 3_000

    private var resignedLine: String? {
        guard state.isPlayer, let view = state.view, view.mode == .duel, view.phase == .playing, let me = state.seat else { return nil }
        if Overlays.noSetTaken(view, scores: view.players.map(\.score)) {
            return "setgame: you resigned before any set: the game is aborted, unrated"
        }
        return "setgame: you resigned: \(state.name(of: me.other)) wins · \(scoresLine)"
    }

    /// The scores as the scoreboard has them, mine first: "you 12, bot-easy 30".
    private var scoresLine: String {
        guard let view = state.view else { return "" }
        let players = view.players.sorted { a, _ in state.isPlayer && a.seat == state.seat }
        return players.map { "\(state.who($0.seat)) \($0.score.scoreText)" }.joined(separator: ", ")
    }

    /// Touches a card. In a duel only the window holder selects, so touching with no window open
    /// first calls "Set!": one gesture, two requests, sent at once.
    private mutating func touch(_ index: Int, at now: Int64) -> [ClientEffect] {
        let touchable = state.touchableCards
        guard state.isPlayer, let view = state.view, view.phase == .playing, index >= 0, index < touchable.count else { return [] }
        guard state.connection == .live else {
            state.note("not connected", .bad, at: now)
            return []
        }
        let card = touchable[index]
        // A key or click meant for a card that has just gone must not land on the one replacing it.
        guard state.motion.isShowing(card, at: now) else { return [] }
        if index < view.table.count { state.cursor = index }
        var effects: [ClientEffect] = []
        if view.mode == .duel {
            if let window = view.window, window.holder != state.seat {
                state.note("\(state.name(of: window.holder)) holds the window", .bad, at: now, during: window)
                return []
            }
            if view.window == nil && !state.claimPending {
                state.claimPending = true
                effects.append(.send(state.session.request(.claim)))
            }
        }
        if view.shown != nil {
            // Solo: the judged trio goes with this touch; the server says what is selected next.
            state.mySelection = view.shown?.isSet == true && view.shown!.cards.contains(card) ? [] : [card]
        } else if let position = state.mySelection.firstIndex(of: card) {
            state.mySelection.remove(at: position)
        } else if state.mySelection.count < view.variant.pickCount {
            state.mySelection.append(card)
        }
        effects.append(.send(state.session.request(.select(card))))
        return effects
    }

    private mutating func claim(at now: Int64) -> [ClientEffect] {
        guard state.isPlayer, let view = state.view, view.phase == .playing else { return [] }
        guard view.mode == .duel else {
            state.note("in solo just pick \(view.variant.pickCountWord) cards", .info, at: now)
            return []
        }
        if let window = view.window {
            state.note(window.holder == state.seat ? "pick \(view.variant.pickCountWord) cards" : "\(state.name(of: window.holder)) holds the window",
                       .info, at: now, during: window)
            return []
        }
        guard !state.claimPending else { return [] }
        let effects = act(.claim)
        if !effects.isEmpty { state.claimPending = true }
        return effects
    }

    private mutating func typeLabel(_ key: Character, at now: Int64) -> [ClientEffect] {
        guard state.view != nil else { return [] }
        switch state.labels.match(state.typed + String(key)) {
        case .card(let card):
            state.typed = ""
            state.cursorVisible = false
            guard let index = state.touchableCards.firstIndex(of: card) else { return [] }
            return touch(index, at: now)
        case .partial:
            state.typed += String(key)
        case .none:
            state.typed = ""
        }
        return []
    }

    /// Moves the cursor through the grid, which fills column by column.
    private mutating func moveCursor(columns: Int, rows: Int) {
        guard let table = layout.table, !table.cardRects.isEmpty else { return }
        let count = table.cardRects.count
        guard state.cursorVisible else {
            state.cursorVisible = true
            state.cursor = min(state.cursor, count - 1)
            return
        }
        let column = state.cursor / table.rows, row = state.cursor % table.rows
        let newColumn = min(max(0, column + columns), table.columns - 1)
        let newRow = min(max(0, row + rows), table.rows - 1)
        state.cursor = min(newColumn * table.rows + newRow, count - 1)
    }

    private mutating func pick(_ index: Int, at now: Int64) -> [ClientEffect] {
        guard let listings = state.listings, listings.indices.contains(index), state.connection == .live else { return [] }
        state.pendingEntry = .scatter
        return state.session.watch(listings[index].name).flatMap { perform($0, at: now) }
    }
}
