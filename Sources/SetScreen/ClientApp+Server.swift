import SetRules
import SetWire

// What the client does with each message from the server.
extension ClientApp {
    /// Takes one server message.
    package mutating func receive(_ message: ServerMessage, at now: Int64) -> [ClientEffect] {
        var effects: [ClientEffect] = []
        switch message {
        case .welcome(_, let versions, let time, let limits):
            state.clock.welcome(serverTime: time, at: now)
            state.seatWaitMs = limits.seatWaitMs
            guard versions.contains(ProtocolVersion.current) else {
                return [.quit(status: 1, message: "setgame: the server speaks protocol \(versions.map(String.init).joined(separator: ", ")), this client \(ProtocolVersion.current)")]
            }
            state.nextPingAt = now + ClientApp.pingInterval
            state.awaitingAnswerSince = nil
            effects.append(ping(at: now))
            if state.isPicking {
                state.connection = .live
                state.nextListAt = now + ClientApp.listInterval
                effects.append(.send(.list()))
            } else {
                effects.append(.send(joinMessage()))
            }
        case .joined(_, let match, _, let seat, let token, let resumed, _):
            state.connection = .live
            if resumed && !state.everJoined && state.isPlayer {
                state.note(state.options.resumeNote ?? "your seat is back", .good, at: now, for: 3 * Notice.lifetime)
            }
            state.everJoined = true
            state.matchName = match
            state.seat = seat
            if let token, token != state.token {
                state.token = token
                effects.append(.saveToken(token))
            }
            effects.append(.log("joined \(match)\(seat.map { " in seat \($0.rawValue)" } ?? " as a spectator")"))
        case .snapshot(let view):
            adopt(view, at: now)
        case .event(let event):
            effects += take(event, at: now)
        case .insight(let match, _, let sets):
            if match == state.matchName { state.setsOnTable = sets }
        case .matches(let listings, _, _):
            state.everJoined = true
            state.listings = listings
            state.pickerIndex = min(state.pickerIndex, max(0, listings.count - 1))
        case .ack:
            break
        case .pong(let time, let clientTime, _):
            state.awaitingAnswerSince = nil
            if let clientTime { state.clock.pong(serverTime: time, sentAt: clientTime, at: now) }
        case .error(let error, _):
            effects += handle(error, at: now)
        case .ping:
            // Any line answers it; a ping of ours still on its way does, so a server that pings
            // without reading gets one line, not one per ping.
            if state.awaitingAnswerSince == nil { effects.append(ping(at: now)) }
        case .goodbye(let reason):
            state.note(ServerText.printable(reason), .bad, at: now)
            effects.append(.log("goodbye: \(ServerText.printable(reason))"))
        }
        relayout(at: now)
        return effects
    }

    /// A whole new view: at the start, after a reconnection, or after a gap in the events.
    mutating func adopt(_ view: MatchView, at now: Int64) {
        let previous = state.view
        if previous == nil || previous?.match != view.match || previous?.game != view.game {
            state.pendingEntry = .scatter
            state.hint = []
            state.flash = nil
        }
        state.view = view
        state.awaitingSnapshot = false
        state.claimPending = false
        state.mySelection = view.selectionSeat == state.seat && state.isPlayer ? view.selection : []
        if let sets = view.setsOnTable { state.setsOnTable = sets }
        if view.phase != .over { state.resultHidden = false }
    }

    /// Applies an event in order; a gap asks for a snapshot instead.
    mutating func take(_ event: WireEvent, at now: Int64) -> [ClientEffect] {
        guard var view = state.view, event.match == view.match, !state.awaitingSnapshot else { return [] }
        guard event.seq > view.seq else { return [] }
        guard view.follows(event) else {
            state.awaitingSnapshot = true
            return [.send(.snapshot), .log("missed events \(view.seq + 1)..<\(event.seq); asking for a snapshot")]
        }
        let before = view
        view.apply(event)
        state.view = view
        react(to: event.body, before: before, at: now)
        return []
    }

    /// Turns a refusal into something the player sees.
    mutating func handle(_ error: WireError, at now: Int64) -> [ClientEffect] {
        switch error.code {
        case .badToken:
            // The server forgot the seat (it restarted, or the match ended): take a fresh one.
            state.token = nil
            return [.saveToken(nil), .send(joinMessage()), .log("seat token refused; joining afresh")]
        case .noSuchMatch where state.options.role == .spectator:
            state.matchName = nil
            state.isPicking = true
            state.view = nil
            state.note(ServerText.printable(error.message), .bad, at: now)
            // Refused before it ever joined, the connection is still `joining`; the picker lists
            // only over a live one, as after a welcome that found it picking.
            state.connection = .live
            state.nextListAt = now
            return []
        case .seatInUse:
            // After losing our own connection the server may not have noticed yet: the seat is ours.
            if state.everJoined || state.takeOver {
                state.takeOver = true
                return [.send(joinMessage()), .log("seat still held by our old connection; taking it over")]
            }
            state.overlay = .confirmTakeOver(ServerText.printable(error.message))
            return []
        case .matchFull, .modeMismatch, .unsupportedVersion, .replaced, .missingField, .badField:
            // Printed on the real terminal after the screen is restored: nothing in it may steer it.
            return [.quit(status: 1, message: "setgame: \(ServerText.printable(error.message))")]
        case .claimTaken:
            state.claimPending = false
            state.mySelection = []
            let holder = error.details["holder"]?.intValue.flatMap { Seat(rawValue: Int($0)) }
            let lead = error.details["leadMs"]?.intValue
            state.note("\(holder.map(state.name(of:)) ?? "the other player") called Set! first\(lead.map { ", by \($0) ms" } ?? "")", .bad, at: now)
        case .deckEmpty:
            state.overlay = .deckEmpty
        case .notYourWindow, .claimFirst:
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
