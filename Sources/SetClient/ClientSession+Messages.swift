import SetRules
import SetWire

// What the session does with each message from the server.
extension ClientSession {
    /// Takes one server message; returns what follows from it, in order.
    package mutating func receive(_ message: ServerMessage, at now: Int64) -> [SessionEffect] {
        switch message {
        case .welcome(_, let versions, let time, let limits):
            var effects: [SessionEffect] = [.welcomed(serverTime: time, limits: limits)]
            guard versions.contains(ProtocolVersion.current) else {
                stage = .offline
                return effects + [.gaveUp(.unsupportedProtocol(serverVersions: versions))]
            }
            nextPingAt = now.saturatingAdding(options.pingInterval)
            awaitingAnswerSince = nil
            if options.pings == .measuring { effects.append(ping(at: now)) }
            greetedHere = true
            if inLobby {
                effects += lobbyEntered(at: now)
            } else if arena != nil && !inArenaDuel {
                effects += arenaEntered()
            } else if isChoosing {
                stage = .choosing
                effects.append(.readyToChoose)
            } else if stage == .joining {
                // Sent at once on connecting: one join is enough.
            } else {
                stage = .joining
                effects.append(.send(joinMessage))
            }
            return effects
        case .joined(_, let match, _, let seat, let token, let resumed, _):
            let first = !everJoined
            arrived()
            stage = .joined
            everJoined = true
            matchName = match
            self.seat = seat
            // The server sends the match's kept lines after every join.
            chat.forgetLines()
            var effects: [SessionEffect] = []
            if let token, token != self.token {
                self.token = token
                effects.append(.saveToken(token))
            }
            return effects + [.joined(match: match, seat: seat, resumed: resumed, first: first)]
        case .snapshot(let snapshot):
            let previous = view
            view = snapshot
            snapshotAskedAt = nil
            if let sets = snapshot.setsOnTable { setsOnTable = sets }
            return [.viewReplaced(previous: previous)]
        case .event(let event):
            return take(event, at: now)
        case .insight(let match, _, let sets):
            guard match == matchName else { return [] }
            setsOnTable = sets
            return [.setsOnTable(sets)]
        case .matches(let listings, let next, _):
            everJoined = true
            return [.listed(listings, next: next)]
        case .lobby(let entries, _):
            if inLobby { arrived() }
            return [.lobbyListed(entries)]
        case .challenge(let notice, _):
            return heard(notice)
        case .arenas(let summaries, _): return [.arena(.listed(summaries))]
        case .arena(let view, _): return heard(view)
        case .arenaPairing(let notice): return heard(notice)
        case .arenaResults(let results, _): return [.arena(.results(results))]
        case .ack, .accountInfo, .health:
            // A session asks no account questions: the CLI's profile and history ask on their own (and
            // its health probe too).
            return []
        case .pong(let time, let clientTime, _):
            awaitingAnswerSince = nil
            return [.pong(serverTime: time, sentAt: clientTime)]
        case .error(let error, _):
            return handle(error, at: now)
        case .roundTrips(let match, let ms):
            guard var current = view, current.match == match else { return [] }
            current.roundTripMs = ms
            view = current
            return [.roundTrips(ms)]
        case .ping(let time, true):
            // The server measures our round trip on its own clock: answered at once, but at most
            // one a `pongSpacing`, so a server that floods pings without reading gets few lines.
            if let last = lastPongAt, now.saturatingSubtracting(last) < Self.pongSpacing { return [] }
            lastPongAt = now
            return [.send(.pong(time: time))]
        case .ping:
            // Any line answers it; a ping of ours still on its way does, so a server that pings
            // without reading gets one line, not one per ping.
            return awaitingAnswerSince == nil ? [ping(at: now)] : []
        case .goodbye(let reason):
            return [.goodbye(reason)]
        case .redirect(let redirect, _):
            return follow(redirect)

        case .chat(let line):
            guard line.match == matchName else { return [] }
            chat.hear(line)
            return [.chatHeard(line, shown: chat.shows(line))]
        }
    }

    /// Applies an event in order; a gap asks for one snapshot and ignores events until it comes.
    private mutating func take(_ event: WireEvent, at now: Int64) -> [SessionEffect] {
        guard var current = view, event.match == current.match, !awaitingSnapshot, event.seq > current.seq else { return [] }
        guard current.follows(event) else {
            snapshotAskedAt = now
            return [.send(.snapshot), .log("missed events \(current.seq + 1)..<\(event.seq); asking for a snapshot")]
        }
        let before = current
        current.apply(event)
        view = current
        guard inArenaDuel, case .gameOver = event.body else { return [.eventApplied(event, before: before)] }
        return [.eventApplied(event, before: before)] + backToArena()
    }

    /// The errors that are the session's own business; the rest go to the driver.
    private mutating func handle(_ error: WireError, at now: Int64) -> [SessionEffect] {
        switch error.code {
        case .badToken:
            let refused = tokenRefused(error)
            return inArenaDuel ? refused + backToArena() : refused
        // The arena's duel is gone before its seat was taken. Not `match_over`, which no join is
        // refused: one that comes while joining the next duel answers an action sent in the last
        // (an instant bot's picks as it ended); taken for the join's refusal, it dropped the
        // pairing, and the duel was then sat in and never played.
        case .noSuchMatch where inArenaDuel && stage == .joining:
            return [.refused(error)] + backToArena()
        case .noSuchMatch where options.role == .spectator:
            matchName = nil
            view = nil
            isChoosing = true
            if stage == .joining { stage = .choosing }
            return [.refused(error)]
        case .nameTaken where !inLobby && arena == nil && !everJoined && options.takesSuggestedName && suggestionsTaken < Self.maxSuggestionsTaken:
            guard let suggestion = error.details["suggestion"]?.stringValue, suggestion != options.name else { return [.refused(error)] }
            options.name = suggestion
            suggestionsTaken += 1
            return [.send(joinMessage), .log("name taken; joining as \(suggestion), as the server suggested")]
        case .rateLimited:
            // The server read a line of ours and dropped it: it is there and reading. The dropped
            // line may be our ping, whose pong will never come; the next ping goes at its time.
            awaitingAnswerSince = nil
            return [.refused(error)]
        case .nodeAway where stage == .joined:
            // A move refused because the node holding the match cannot act for it now (its
            // lease lapsed): there is no join to ask again, so the refusal is passed on as any
            // other; a countdown to nothing stayed on screen.
            return [.refused(error)]
        case .nodeAway:
            return wait(for: error, at: now)
        case .seatInUse:
            // After losing our own connection the server may not have noticed yet: the seat is ours.
            guard everJoined || takeOver else { return [.seatInUse(error)] }
            takeOver = true
            return [.send(joinMessage), .log("seat still held by our old connection; taking it over")]
        default:
            return [.refused(error)]
        }
    }
}
