import SetRules
import SetWire

/// The boxes drawn over the table (help, alerts, the result) and the screens that replace it
/// (the spectator's match list, the wait for an opponent).
enum Overlays {
    static func draw(_ overlay: Overlay, state: ClientState, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        let key = CellStyle(bold: true)
        switch overlay {
        case .help:
            HelpBox.draw(state, cardSize: ClientApp.layout(for: state).table?.cardSize, into: &buffer, area: area)
        case .deckEmpty:
            Panel(title: "Deck empty", lines: [
                [Span("The deck is empty: there are no more cards to deal.")],
                [Span("Find a set among the cards on the table.")],
                [],
                [Span("Enter", key), Span(" or "), Span("Esc", key), Span(": OK")],
            ], border: theme.style(for: .bad)).draw(into: &buffer, centredIn: area)
        case .confirmQuit:
            // Wrapped to the box: cut at an 80-column edge, the note stopped mid-sentence.
            Panel(title: "Leave the match?", lines: wrapped(quitNote(state), .plain, width: min(60, area.width - 6)) + [
                [],
                [Span("q", key), Span(" leave   "), Span("x", key), Span(" resign and leave   "), Span("Esc", key), Span(" stay")],
            ], border: theme.panel).draw(into: &buffer, centredIn: area)
        case .confirmNewGame:
            Panel(title: "Start a new game?", lines: [
                [Span(newGameNote(state))],
                [],
                [Span("y", key), Span(" new game   "), Span("Esc", key), Span(" keep playing")],
            ], border: theme.panel).draw(into: &buffer, centredIn: area)
        case .confirmTakeOver(let message):
            Panel(title: "Your seat is in use", lines: [
                [Span(message)],
                [Span("Taking it over closes the other connection (another terminal of yours?).", theme.quiet)],
                // Through the door a key is the player: another person needs a key of their own.
                [Span(state.options.door == nil ? "Someone else on this machine? Quit and join with another --name."
                                                : "Someone else with your key? Quit: each player needs a key of their own.", theme.quiet)],
                [],
                [Span("y", key), Span(" take the seat over   "), Span("n", key), Span(" quit")],
            ], border: theme.style(for: .bad)).draw(into: &buffer, centredIn: area)
        }
    }

    /// The variant in one short paragraph, for the help box and the wait for an opponent.
    static func legend(_ variant: Variant, width: Int = 64) -> [[Span]] {
        RulesText.wrapped(variant.summary, width: max(20, min(width, 72))).split(separator: "\n").map { [Span(String($0))] }
    }

    /// What a new game throws away: this game's score and the cards still to play.
    static func newGameNote(_ state: ClientState) -> String {
        guard let view = state.view, let me = state.seat, let score = view.player(me)?.score else { return "This game is thrown away." }
        return "This game (\(score.scoreText) point\(abs(score) == 1 ? "" : "s"), \(view.deck) cards in the deck) is thrown away."
    }

    /// What leaving keeps, said truthfully: the local game's own note, else the server's wait.
    static func quitNote(_ state: ClientState) -> String {
        if let note = state.options.quitNote { return note }
        let hint = state.options.rejoinHint
        guard let wait = state.seatWaitMs else { return "Your seat waits for you a while: \(hint)." }
        let minutes = wait / 60_000, seconds = wait / 1_000
        let span = wait % 60_000 == 0 ? "\(minutes) minute\(minutes == 1 ? "" : "s")" : "\(seconds) s"
        return "Your seat waits \(span), then counts as forfeited: \(hint)."
    }

    /// The start of a local match: what it is, one line of how to play, and the key that begins it.
    static func start(_ state: ClientState, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        let key = CellStyle(bold: true)
        let width = area.width - 4
        var lines = wrapped(state.options.startBoxTitle ?? "", CellStyle(bold: true), width: width) + [[]]
        // The variant's own rule: the classic one would teach a junior or ultra player the wrong game.
        lines += wrapped((state.view?.variant ?? .classic).rule, .plain, width: width)
        lines += wrapped("Call \"Set!\" with s, or just pick a card; ? shows every key.", theme.quiet, width: width)
        lines.append([])
        // A kept game resumes, as the status row says when this box is hidden.
        let resumes = state.view?.forfeitAt != nil
        lines.append([Span(resumes ? "Press any key to resume" : "Press any key to start", key), Span("   "), Span("q", key), Span(" quit")])
        if let watch = state.options.watchHint { lines += [[]] + commandLines(watch, theme.quiet, width: width) }
        Panel(title: "Ready?", lines: lines, border: theme.panel).draw(into: &buffer, centredIn: area)
    }

    /// Whether the hint key does anything: a duel's rules may turn hints off (the standard ones
    /// do), and then the help must not offer it.
    static func offersHint(_ state: ClientState) -> Bool {
        state.options.mode == .solo || (state.view?.rules ?? .standard).hintsInDuel
    }

    /// A few labels to show what picks a card: the first three the cards on the table hold now,
    /// so each can be found on a card ("4 5 6 …" once a set took 1, 2 and 3; "11 12 13 …" with
    /// two-key labels), or "1 2 3 …" with no card labelled. Three, never the first twelve by
    /// count: those named labels no card held and pushed the help's second column out of line.
    static func labelSample(_ state: ClientState) -> String {
        let labels = state.labels.labelsInUse
        guard !labels.isEmpty else { return "1 2 3 …" }
        return labels.prefix(3).joined(separator: " ") + (labels.count > 3 ? " …" : "")
    }

    /// Every key, as the help overlay lists it; a spectator sees only theirs.
    static func helpLines(_ state: ClientState) -> [[Span]] {
        let key = CellStyle(bold: true)
        func row(_ keys: String, _ text: String) -> [Span] {
            [Span(keys.count >= 15 ? keys + "  " : keys.padding(toLength: 16), key), Span(text)]
        }
        var lines: [[Span]] = []
        if state.isPlayer {
            lines.append(row(labelSample(state), "touch the card with that label"))
        }
        lines.append(row("← ↓ ↑ → / hjkl", state.isPlayer ? "move the cursor" : "look around"))
        if state.isPlayer {
            lines.append(row("space", "touch the card under the cursor"))
            let variant = state.view?.variant ?? .classic
            if state.options.mode == .duel { lines.append(row("s or Enter", "call \"Set!\", then pick \(variant.pickCountWord) cards")) }
            if state.options.mode == .duel {
                lines.append(row("d", "deal three more cards"))
            } else {
                // Solo's deal is a claim that the table holds no set: say what it costs to be wrong.
                lines.append(row("d", "no set here? 3 more cards: free, or −\((state.view?.rules ?? .standard).dealPenalty) if one was"))
            }
            if offersHint(state) {
                lines.append(row("c", "hint: show \(variant.aPick) (costs \((state.view?.rules ?? .standard).hintCost) points)"))
            }
            if state.options.mode == .duel { lines.append(row("p", "pass your window")) }
            lines.append(row("r", state.options.mode == .duel ? "rematch, once the game is over" : "new game (asks first)"))
        }
        lines.append(row("?", "this help"))
        lines.append(row("Esc", "close a box, or put the result away"))
        lines.append(row("/", "chat: say a line, ↑ the last lines (/mute NAME or ROOM)"))
        lines.append(row("q  Ctrl-C", "quit"))
        if state.isPlayer {
            lines.append([])
            lines.append([Span("Mouse: click a card to touch it, a button to use it.")])
            if state.options.mode == .duel {
                lines.append([Span("Touching a card when nobody holds the table calls \"Set!\" for you.")])
            }
            if state.options.holdsBot && state.options.mode == .duel {
                lines.append([Span("The game is paused while this help is open.")])
            }
        }
        if let watch = state.options.watchHint { lines += [[]] + commandLines(watch, .plain, width: state.size.columns - 8) }
        return lines
    }

    /// A suggested command under its lead: on lines of its own (a long path to the binary must not
    /// push the rest off the screen), in plain text, so it reads as what to type.
    static func commandLines(_ hint: CommandHint, _ leadStyle: CellStyle, width: Int) -> [[Span]] {
        wrapped(hint.lead, leadStyle, width: width) + wrapped(hint.command, .plain, width: width)
    }

    /// Text as lines of spans no wider than `width` cells, broken at spaces: commands and rules
    /// stay whole on a narrow terminal instead of being cut at the box's edge.
    static func wrapped(_ text: String, _ style: CellStyle, width: Int) -> [[Span]] {
        Notice.wrap(text, width: max(10, width)).map { [Span($0, style)] }
    }

    /// The end of a game: scores, winner, the revealed seed checked against its commitment.
    static func result(_ state: ClientState, view: MatchView, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        let key = CellStyle(bold: true)
        var lines: [[Span]] = []
        if let result = view.result {
            lines.append([Span(resultHeadline(state, view: view, result: result), CellStyle(bold: true))])
            let scores = rankedPlayers(state, view: view, result: result).map { "\($0.name) \($0.score.scoreText)" }.joined(separator: "   ")
            lines.append([Span(scores)])
            let reason = switch result.reason {
            case .noSetsLeft: "the deck is empty and no set is left"
            case .resigned: "\(result.by.map(state.name(of:)) ?? "a player") resigned"
            case .forfeited: "\(result.by.map(state.name(of:)) ?? "a player") stayed away too long"
            }
            lines.append([Span(isAborted(view, result: result) ? reason + " before any set: no result, unrated" : reason, theme.quiet)])
            if let date = state.options.daily {
                // Which day's deal, and how long it took: what a friend compares a claimed time with.
                let played = state.gameStartedAt.map { " · played in \(clock(view.time - $0))" } ?? ""
                lines.append([Span("the daily deal of \(date) (UTC)\(played)")])
            }
            // A rated game: how it moved each rating ("bob 1500 → 1662?, +162"), the winner first.
            for player in rankedPlayers(state, view: view, result: result) {
                guard let change = view.lastRatings.first(where: { $0.seat == player.seat }) else { continue }
                lines.append([Span("\(player.name) \(change.shown)", change.after >= change.before ? theme.style(for: .good) : theme.quiet)])
            }
        }
        if let seed = view.seed {
            var line = [Span("seed \(seed) ", theme.quiet)]
            if let commitment = view.commitment {
                let fair = SeedCommitment.verify(seed: seed, against: commitment)
                line.append(fair ? Span("✓ matches the promised deal", theme.style(for: .good))
                                 : Span("✗ does NOT match the promised deal", theme.style(for: .bad)))
            }
            lines.append(line)
            // With the seed, what a friend compares against the commitment they saw (or were
            // printed); cut short only where the box cannot hold all 64 digits.
            if let commitment = view.commitment {
                let room = area.width - 4 - "commitment ".count
                let shown = commitment.count <= room ? commitment : String(commitment.prefix(max(8, room - 1))) + "…"
                lines.append([Span("commitment \(shown)", theme.quiet)])
            }
        }
        // A local solo game's personal records, as this game left them.
        if let records = state.soloRecords?.lines, !records.isEmpty, view.phase == .over {
            lines.append([])
            for line in records {
                lines.append([Span(line, line.contains("new record") ? theme.style(for: .good) : .plain)])
            }
        }
        lines.append([])
        if state.isPlayer {
            var keys = [Span("r", key), Span(view.mode == .solo ? " new game   " : " rematch   ")]
            if let gone = state.opponentGone {
                keys = [Span("\(gone) has left: no rematch · ", theme.quiet)]
            } else if let other = state.seat?.other, view.rematchAsked.contains(other) {
                keys.insert(Span("\(state.name(of: other)) asked for a rematch · ", theme.style(for: .good)), at: 0)
            } else if let me = state.seat, view.rematchAsked.contains(me) {
                keys = [Span("waiting for \(state.name(of: me.other)) · ", theme.quiet)]
            }
            lines.append(keys + [Span("q", key), Span(" quit   "), Span("Esc", key), Span(" see the table")])
        } else {
            lines.append([Span("q", key), Span(" quit   "), Span("Esc", key), Span(" see the table")])
        }
        Panel(title: "Game over", lines: lines, border: theme.panel).draw(into: &buffer, centredIn: area)
    }

    /// The scores as the box lists them: the winner first; on a tie or in solo, the viewer first.
    static func rankedPlayers(_ state: ClientState, view: MatchView, result: MatchResult) -> [PlayerInfo] {
        let first = result.winner ?? (state.isPlayer ? state.seat : nil)
        guard let first, let index = view.players.firstIndex(where: { $0.seat == first }) else { return view.players }
        var players = view.players
        players.insert(players.remove(at: index), at: 0)
        return players
    }

    /// A duration as minutes and seconds, "4:07"; an hour or more as "1:02:03".
    static func clock(_ ms: Int64) -> String {
        let seconds = max(0, ms) / 1_000
        let (h, m, s) = (seconds / 3_600, seconds / 60 % 60, seconds % 60)
        let tail = (s < 10 ? "0" : "") + "\(s)"
        return h > 0 ? "\(h):" + (m < 10 ? "0" : "") + "\(m):" + tail : "\(m):" + tail
    }

    /// Whether a duel ended by a resignation or a forfeit before any set was taken: the server
    /// records it as aborted and rates nobody (Protocol.md, Accounts and ratings), so nobody won.
    /// No set taken: nobody scored a point (only sets score), no rating moved, and every card out
    /// of the deck is still on the table.
    static func isAborted(_ view: MatchView, result: MatchResult) -> Bool {
        view.mode == .duel && result.reason != .noSetsLeft && noSetTaken(view, scores: result.scores)
    }

    /// Whether no set has been taken in the view's game (see `isAborted`).
    static func noSetTaken(_ view: MatchView, scores: [Int]) -> Bool {
        scores.allSatisfy { $0 <= 0 } && view.lastRatings.isEmpty && view.chain.isEmpty
            && view.deck + view.table.count == view.variant.cards.count
    }

    static func resultHeadline(_ state: ClientState, view: MatchView, result: MatchResult) -> String {
        // A spectator of a solo game (or of its replay) is not the one who scored.
        if view.mode == .solo { return "\(state.isPlayer ? "You" : state.name(of: .first)) scored \((result.scores.first ?? 0).scoreText)" }
        if isAborted(view, result: result) { return "Aborted: no set was taken" }
        guard let winner = result.winner else { return "A tie!" }
        if state.isPlayer && winner == state.seat { return "You win!" }
        return "\(state.name(of: winner)) wins"
    }

    /// How many matches of the list are scrolled past: the chosen line stays in view once the
    /// list is longer than the screen.
    static func pickerScroll(_ state: ClientState, area: Rect) -> Int {
        max(0, state.pickerIndex - max(1, area.endRow - InputMapper.pickerFirstRow) + 1)
    }

    /// A spectator's list of live matches.
    static func picker(_ state: ClientState, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        buffer.write([Span(" Live matches on \(state.options.door ?? state.options.serverAddress)", CellStyle(bold: true))], column: 1, row: area.row)
        guard let listings = state.listings else {
            buffer.write([Span(" Asking the server…", theme.quiet)], column: 1, row: InputMapper.pickerFirstRow)
            return
        }
        guard !listings.isEmpty else {
            buffer.write([Span(" No live matches yet: the list refreshes every 2 s.", theme.quiet)], column: 1, row: InputMapper.pickerFirstRow)
            return
        }
        let first = pickerScroll(state, area: area)
        for (index, listing) in listings.enumerated().dropFirst(first) {
            let row = InputMapper.pickerFirstRow + index - first
            guard row < area.endRow else { break }
            // Ratings as the scoreboard shows them, so a spectator sees who is strong before choosing.
            let players = LobbyView.players(listing)
            let watchers = listing.spectators > 0 ? "  \(listing.spectators) watching" : ""
            let variant = listing.variant == .classic ? "" : listing.variant.title + "  "
            let text = " \(index < 9 ? String(index + 1) : " ")  \(listing.name.padding(toLength: 14)) \(listing.mode.rawValue.padding(toLength: 5)) \(listing.phase.rawValue.padding(toLength: 8)) \(variant)\(players)\(watchers) "
            let style = index == state.pickerIndex ? theme.highlight : CellStyle.plain
            buffer.write([Span(text, style)], column: 1, row: row)
        }
    }

    /// The wait for a second player, with the lines the CLI gave us (how a friend can join).
    static func waiting(_ state: ClientState, view: MatchView, into buffer: inout ScreenBuffer, area: Rect) {
        let theme = state.options.theme
        var lines: [[Span]]
        if let trouble = state.botTrouble, !state.awaitingStart {
            lines = [[Span("The bot could not take its seat", CellStyle(bold: true))], []]
            lines += wrapped(trouble, theme.quiet, width: area.width - 2)
            lines += [[]] + wrapped("Leave with q; try again in a while.", theme.quiet, width: area.width - 2)
        } else if state.options.startBoxTitle != nil {
            lines = [[Span(state.awaitingStart ? "" : "Dealing…", CellStyle(bold: true))]]
        } else if state.options.reservedSeat {
            // An accepted challenge's duel: only its two tokens sit here, so no friend can join.
            lines = [[Span("Waiting for your opponent…", CellStyle(bold: true))], []]
            lines += wrapped("This duel is your challenge's: its other seat is kept for them.", theme.quiet, width: area.width - 2)
            if let watch = state.options.watchHint { lines += [[]] + commandLines(watch, theme.quiet, width: area.width - 2) }
        } else {
            lines = [[Span("Waiting for an opponent…", CellStyle(bold: true))], []]
            let join = CommandHint(lead: "A friend can join with:", command: joinCommand(state, match: view.match))
            lines += commandLines(join, theme.quiet, width: area.width - 2)
            if let note = state.options.inviteNote { lines += wrapped(note, theme.quiet, width: area.width - 2) }
            if let watch = state.options.watchHint { lines += [[]] + commandLines(watch, theme.quiet, width: area.width - 2) }
        }
        if view.variant != .classic { lines += [[]] + legend(view.variant, width: area.width - 2) }
        let top = area.row + max(0, (area.height - lines.count) / 2)
        for (index, line) in lines.enumerated() { buffer.writeCentred(line, in: area, row: top + index) }
    }
}

extension Overlays {
    /// The command a friend runs to take the other seat of `match`: the door's own through the
    /// door (its key names the friend), else the TCP client's with another name, so that a second
    /// person on this machine takes the other seat, not this one.
    static func joinCommand(_ state: ClientState, match: String) -> String {
        if let door = state.options.door { return "\(door) join \(match)" }
        let friend = state.options.name == "friend" ? "guest" : "friend"
        return "\(state.options.command) join \(state.options.serverAddress) --match \(match) --name \(friend)"
    }
}

extension String {
    /// The string cut or padded with spaces to exactly `length` cells of display width.
    func padding(toLength length: Int) -> String {
        let cut = displayWidth > length ? DisplayWidth.prefix(self, cells: length) : self
        return cut + String(repeating: " ", count: length - cut.displayWidth)
    }
}
