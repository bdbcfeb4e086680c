import SetClient
import SetRules
import SetWire

// What the client does with each message from the server: the session takes it, the app shows
// what followed.
extension ClientApp {
    /// Takes one server message.
    package mutating func receive(_ message: ServerMessage, at now: Int64) -> [ClientEffect] {
        let wasHeld = holdsBotNow
        var effects: [ClientEffect] = []
        for effect in state.session.receive(message, at: now) { effects += perform(effect, at: now) }
        relayout(at: now)
        // The bot's window ended while a box was open: it steps out now.
        return effects + botHoldChange(from: wasHeld, effects: effects)
    }

    /// Carries out one of the session's effects on the screen; returns what the shell must do.
    mutating func perform(_ effect: SessionEffect, at now: Int64) -> [ClientEffect] {
        switch effect {
        case .send(let message): return [.send(message)]
        case .saveToken(let token): return [.saveToken(token)]
        case .log(let line): return [.log(line)]
        case .welcomed(let time, let limits):
            state.clock.welcome(serverTime: time, at: now)
            state.seatWaitMs = limits.seatWaitMs
        case .readyToChoose:
            state.connection = .live
            return [requestList(at: now)]
        case .joined(let match, let seat, let resumed, let first):
            state.connection = .live
            state.joinedAfresh = !resumed
            if resumed && first && state.isPlayer {
                state.note(state.options.resumeNote ?? "your seat is back", .good, at: now, for: 3 * Notice.lifetime)
            }
            return [.log("joined \(match)\(seat.map { " in seat \($0.rawValue)" } ?? " as a spectator")")]
        case .viewReplaced(let previous):
            if previous == nil, state.options.startsAfreshAfterAFinishedGame, state.isPlayer, !state.joinedAfresh,
               state.view?.phase == .over {
                return joinAfresh()
            }
            adopt(previous: previous, at: now)
        case .eventApplied(let event, let before):
            return react(to: event.body, before: before, at: now)
        case .lobbyListed, .challenge, .arena:
            break  // a table's client is not in the lobby
        case .setsOnTable, .roundTrips:
            break  // in the session's view, drawn with the next frame
        case .chatHeard(_, let shown):
            // Kept in the session's chat log; the strip draws it from there.
            if shown { state.chatHeardAt = now }
        case .listed(let listings, let next):
            takeListPage(listings, next: next, at: now)
        case .pong(let time, let sentAt):
            if let sentAt { state.clock.pong(serverTime: time, sentAt: sentAt, at: now) }
        case .seatInUse:
            // In the player's words: the server's message tells a client author which field to send.
            state.overlay = .confirmTakeOver("\(ServerText.printable(state.options.name)) is still connected in this seat.")
        case .refused(let error):
            return handle(error, at: now)
        case .goodbye(let reason):
            state.note(ServerText.printable(reason), .bad, at: now)
            return [.log("goodbye: \(ServerText.printable(reason))")]
        case .gaveUp(let end):
            switch end {
            case .unsupportedProtocol, .redirectLoop, .badRedirect, .unreachable: return [.disconnect, .quit(status: 1, message: "setgame: \(end.reason)")]
            case .silent: return [.disconnect] + connectionLost(end.reason, at: now)
            }
        case .redirected(let place):
            // Not a loss: the session follows its match to another node, unseen by the player
            // (`connect` closes this connection first and opens one to the session's new place).
            state.connection = .connecting(attempt: 0)
            return [.connect, .log("redirected to \(place.description)")]
        case .unreachable:
            break  // told by `connectionLost`, which the session's `lost` answers it to
        case .nodeAway(let wait):
            // The status row counts down to the retry (`StatusLines`).
            return [.log("node away: \(ServerText.printable(wait.error.message)); asking again in \(wait.secondsLeft(at: now)) s")]
        }
        return []
    }

    /// The seat the first join resumed is in a game that is over, and the player asked for a game:
    /// it is given up (its token forgotten) and a new seat joined, on a new connection.
    private mutating func joinAfresh() -> [ClientEffect] {
        var fresh = ClientSession(state.session.options)
        fresh.awayNodePatience = state.session.awayNodePatience
        state.session = fresh
        state.connection = .connecting(attempt: 0)
        return [.saveToken(nil), .connect, .log("the kept seat's game is over: joining a new one")]
    }

    /// A whole new view: at the start, after a reconnection, or after a gap in the events.
    private mutating func adopt(previous: MatchView?, at now: Int64) {
        guard let view = state.view else { return }
        if previous == nil || previous?.match != view.match || previous?.game != view.game {
            if view.phase != .over { state.soloRecords?.begin(at: now) }
            state.pendingEntry = .scatter
            state.hint = []
            state.flash = nil
            // Another game's cards take labels afresh, in table order.
            state.labels = LabelBook()
        }
        // A solo game is dealt as it is joined, with no `game_started`: with no start box to wait
        // for, its time (the daily deal's "played in") runs from the deal the first view shows.
        if previous == nil, state.joinedAfresh, view.mode == .solo, view.phase == .playing, !state.awaitingStart, state.gameStartedAt == nil {
            state.gameStartedAt = view.time
        }
        state.claimPending = false
        state.mySelection = view.selectionSeat == state.seat && state.isPlayer ? view.selection : []
        if view.phase != .over { state.resultHidden = false }
    }

    /// Turns an error the session passed on into something the player sees.
    mutating func handle(_ error: WireError, at now: Int64) -> [ClientEffect] {
        // Turned away before ever joining (a full server, an address over its share): the close
        // that follows would say only that the server closed, so the reason goes out with the quit.
        if error.fatal && !state.everJoined {
            return [.quit(status: 1, message: "setgame: \(ServerText.printable(error.message))")]
        }
        switch error.code {
        case .noSuchMatch where state.options.role == .spectator:
            // Over the list the watcher falls back to, long enough to be read there.
            state.note(ServerText.printable(error.message), .bad, at: now, for: 3 * Notice.lifetime)
            // Refused before it ever joined, the connection is still `joining`; the picker lists
            // only over a live one, as after a welcome that found it picking.
            state.connection = .live
            state.listSweep = nil
            state.nextListAt = now
            return []
        case .nameTaken:
            // The session took no suggestion (or no more): the join is not sent again, so the
            // player reads why, and the name to ask for instead, rather than "joining" forever.
            let suggestion = error.details["suggestion"]?.stringValue.map { ServerText.printable($0) }
            let hint = suggestion.map { " Join with --name \($0), or another --name." } ?? ""
            return [.quit(status: 1, message: "setgame: \(ServerText.printable(error.message))\(state.options.takesSuggestedName ? "" : hint)")]
        case .nodeAway where state.session.stage == .joined:
            // A move refused while the node holding the match cannot act (its lease lapsed): the
            // seat is still here, and the player presses again once it can.
            state.claimPending = false
            state.mySelection = state.view?.selectionSeat == state.seat ? state.view?.selection ?? [] : []
            state.note(ServerText.printable(error.message), .bad, at: now, for: 2 * Notice.lifetime)
        case .nodeAway:
            // The session asked again a few times; a seat of ours waits there, so keep trying as
            // after any loss, and a join that never was gives up with the server's words.
            guard state.everJoined else { return [.quit(status: 1, message: "setgame: \(ServerText.printable(error.message))")] }
            return [.disconnect] + connectionLost(ServerText.printable(error.message), at: now)
        case .matchFull, .modeMismatch, .variantMismatch, .unsupportedVersion, .replaced, .missingField, .badField, .badToken,
             // A join refused for good or for a while (a new account made too soon, a seat another
             // holds) is not sent again: the player reads why, in full, rather than "Joining…" forever.
             .accountLimit where !state.everJoined, .seatTaken where !state.everJoined:
            // `bad_token` reaches here only for a reserved seat (a challenge's): it is gone for good.
            // Printed on the real terminal after the screen is restored: nothing in it may steer it.
            return [.quit(status: 1, message: "setgame: \(ServerText.printable(error.message))")]
        case .claimTaken:
            state.claimPending = false
            state.mySelection = []
            if case .claimTaken(let holder, let lead) = error.refusal {
                state.note("\(state.name(of: holder)) called Set! first, by \(lead) ms", .bad, at: now)
            } else {
                state.note("the other player called Set! first", .bad, at: now)
            }
        case .deckEmpty:
            state.overlay = .deckEmpty
        case .notYourWindow, .claimFirst,
             // A claim sent while the match is paused (the opponent away) is refused: nothing is
             // pending, or "Calling Set!…" would stay up and no claim could be sent again.
             .waitingForOpponent,
             // A claim typed before the new table came: nothing pending, the table is there now.
             .tableNotSeen:
            state.claimPending = false
            state.mySelection = state.view?.selectionSeat == state.seat ? state.view?.selection ?? [] : []
            state.note(ServerText.printable(error.message), .bad, at: now)
        case .alreadyYourWindow:
            break
        default:
            state.note(ServerText.printable(error.message), .bad, at: now)
        }
        return error.fatal ? [.log("server error \(error.code.rawValue): \(ServerText.printable(error.message))")] : []
    }
}
