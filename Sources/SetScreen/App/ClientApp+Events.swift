import SetRules
import SetWire

// How the client shows what each event means: notices, flashes, hints and card motion. The view
// itself is already updated by `MatchView.apply`; this is only what a person should notice.
extension ClientApp {
    /// How long a judged trio stays marked.
    static let flashDuration: Int64 = 700

    /// Shows what an event means; returns what the shell must do (keep a solo game's records).
    mutating func react(to body: EventBody, before: MatchView, at now: Int64) -> [ClientEffect] {
        switch body {
        case .rules(let event):
            if state.isPlayer && before.mode == .solo { state.soloRecords?.note(event, before: before, at: now) }
            react(to: event, before: before, at: now)
        case .gameOver(let result, _, _):
            state.overlay = state.overlay == .help ? .help : nil
            state.resultHidden = false
            state.claimPending = false
            state.mySelection = []
            state.hint = []
            state.note(resultLine(result), .info, at: now)
            if let leaving = state.leavingAfterResign {
                state.leavingAfterResign = nil
                return [.quit(status: 0, message: leaving.message)]
            }
            if state.isPlayer && before.mode == .solo, let records = state.soloRecords?.finish(result) { return [.saveRecords(records)] }
        case .gameStarted(let start):
            state.gameStartedAt = state.view?.time
            state.soloRecords?.begin(at: now)
            state.pendingEntry = .scatter
            state.mySelection = []
            state.hint = []
            state.flash = nil
            state.resultHidden = false
            // A new game is new: its cards are labelled 1, 2, 3 … in table order, not by the
            // slots the last game's cards held, and the last game's news ("your seat is back") goes.
            state.labels = LabelBook()
            state.notices.removeAll()
            state.note(start.game > 1 ? "game \(start.game): new cards" : "the game is on", .good, at: now)
        case .playerJoined(let seat, let name, _, _):
            if seat != state.seat || !state.isPlayer { state.note("\(name) joined", .good, at: now) }
        case .presence(let seat, let present, _):
            guard seat != state.seat || !state.isPlayer else { break }
            // A bot beside us leaves only to pause the game for the help: that is no news.
            if state.options.holdsBot && !present { break }
            state.note(present ? "\(state.name(of: seat)) is back" : "\(state.name(of: seat)) left",
                       present ? .good : .bad, at: now, about: "presence \(seat.rawValue)")
        case .resumed:
            state.note("play resumes", .good, at: now)
        case .spectators:
            break
        }
        return []
    }

    private mutating func react(to event: MatchEvent, before: MatchView, at now: Int64) {
        let me = state.isPlayer ? state.seat : nil
        switch event {
        case .selectionChanged(let seat, let cards):
            if seat == me { state.mySelection = cards }
        case .windowOpened(let window):
            state.claimPending = false
            if window.holder != me { state.mySelection = [] }
            switch (window.kind, window.holder == me) {
            case (.secondChance, true): state.note("your second chance: find \(before.variant.aPick)", .good, at: now, during: window)
            case (.dealGrace, true): state.note("free look: a wrong trio costs nothing now", .good, at: now, during: window)
            default: break
            }
        case .windowClosed:
            state.claimPending = false
        case .setTaken(let seat, let cards, let points, _):
            state.flash = Flash(cards: cards, isSet: true, until: now + Self.flashDuration, by: seat)
            state.hint = []
            state.note("\(state.who(seat)) took \(state.view?.variant.aPick ?? "a set"): +\(points)", seat == me || me == nil ? .good : .bad, at: now)
        case .notASet(let seat, let cards, let penalty, _):
            state.flash = Flash(cards: cards, isSet: false, until: now + Self.flashDuration)
            let cost = penalty == 0 ? " (free)" : ": −\(penalty)"
            // Which feature broke it: a penalty that teaches, for the picker and for everyone watching.
            let fault = before.variant.whyNot(cards, chain: before.chain)
            let verdict = StatusLines.verdict(fault, variant: before.variant)
            // The chain's refusal already says why.
            let why = if case .chainCards = fault { "" } else { fault.map { " · \($0.text)" } ?? "" }
            state.note((seat == me ? verdict : "\(state.who(seat)): \(verdict)") + cost + why, seat == me ? .bad : .info, at: now)
        case .penalised(let seat, let reason, let points, _):
            let who = state.who(seat)
            let text = switch reason {
            case .claimRanOut: seat == me ? "time ran out: −\(points)" : "\(who) ran out of time: −\(points)"
            case .claimPassed: seat == me ? "you passed: −\(points)" : "\(who) passed: −\(points)"
            case .dealtWithSetOnTable: seat == me ? "there was a set: −\(points)" : "\(who) dealt over a set: −\(points)"
            }
            state.note(text, seat == me ? .bad : .info, at: now)
        case .tableChanged(let removed, let added, _, let deck):
            state.hint = []
            if removed.isEmpty && !added.isEmpty {
                // Solo's deal says "no set here": when that was right, say so (the rules charged nothing).
                let right = before.mode == .solo && !before.variant.hasCombination(table: before.table, chain: before.chain)
                state.note(right ? "right, no set here: three more cards" : "three more cards", right ? .good : .info, at: now)
            }
            if deck == 0 && before.deck > 0 { state.note("deck empty", .info, at: now) }
        case .hintShown(let seat, let cards, let cost, _):
            if seat == me || me == nil { state.hint = cards }
            state.note(seat == me ? "hint: −\(cost)" : "\(state.who(seat)) used a hint: −\(cost)", .info, at: now)
        case .matchEnded:
            break
        case .rematchRequested(let seat):
            if seat != me { state.note("\(state.who(seat)) wants a rematch\(me != nil ? ": press r" : "")", .good, at: now) }
        case .rematchAgreed:
            break
        }
    }

    /// One line about how a game ended.
    func resultLine(_ result: MatchResult) -> String {
        guard let view = state.view else { return "game over" }
        if view.mode == .solo { return "game over: \((result.scores.first ?? 0).scoreText) points" }
        switch result.reason {
        case .resigned, .forfeited:
            let loser = result.by.map(state.who) ?? "someone"
            let how = result.reason == .resigned ? "resigned" : "forfeited"
            return "\(loser) \(how)"
        case .noSetsLeft:
            guard let winner = result.winner else { return "a tie" }
            return winner == state.seat && state.isPlayer ? "you win!" : "\(state.name(of: winner)) wins"
        }
    }
}
