import SetArena
import SetRules
import SetWire

// The arena's room on the server that holds it (Protocol.md, "Arenas"): `arena_join`,
// `arena_pause`, `arena_resume` and `arena_leave`, the `arena` line pushed on every change, the
// pairings (written to the store with both reserved seats before anyone is told), each duel's
// result counted once its record is committed, and the arena's start and end on the server's
// timers. The arena's rules are `SetArena.Arena`'s; here they are stored and told. Its writes go
// on the records lane, in order with the games' records whose results they count.
extension Server {
    /// Answers a request of the arena's room.
    func answerArenaRoom(_ request: ArenaRequest, id: JSONValue?, from connection: Connection, at now: Instant) {
        switch request {
        case .join(let join): routeArena(join, id: id, from: connection)
        case .pause, .resume, .leave:
            guard let room = arenaRooms.room(of: connection.id), let player = room.members[connection.id]?.player else {
                return fail(connection, WireError(.notInArena, "This connection has not joined an arena as a player."), id: id)
            }
            let time = room.time(at: clock.now())
            let step = switch request {
            case .pause: room.arena.pause(player, .asked, at: time)
            case .resume: room.arena.resume(player, at: time)
            default: room.arena.pause(player, .left, at: time)
            }
            if case .leave = request {
                for other in room.connections(of: player) { arenaRooms.follow(room, by: other, as: nil) }
            }
            saveArenaPlayer(player, of: room) { [unowned self] in
                if connections[connection.id] === connection { send(.arena(room.view(), id: id), to: connection) }
                settle(step, in: room, answered: connection.id)
            }
        case .list, .create, .results:
            answerArena(request, id: id, from: connection, at: now)
        }
    }

    /// On nodes, an `arena_join` reaches the arena's node first, as the lobby's requests do: a
    /// door's ticket is redeemed, another node's arena redirected to it, or `node_away`.
    private func routeArena(_ join: ArenaJoinRequest, id: JSONValue?, from connection: Connection) {
        let room = ArenaRoom.room(join.arena)
        var asked = JoinRequest(name: join.name, match: room)
        asked.account = join.account
        if nodes != nil, let ticket = join.ticket {
            return redeem(ticket, of: asked, id: id, from: connection) { [unowned self] player in
                var redeemed = join
                redeemed.ticket = nil
                redeemed.name = player.name
                routeArena(redeemed, id: id, from: connection)
            }
        }
        routePlaced(room, held: arenaRooms.held.contains(join.arena), joining: asked, id: id, from: connection,
                    hold: { [unowned self] in arenaRooms.held.insert(join.arena) }) { [unowned self] in
            joinArena(join, id: id, from: connection)
        }
    }

    /// `arena_join`: the room loaded from the store if it is not held yet, the name checked as
    /// the lobby's is, the player written, then the whole state answered.
    private func joinArena(_ join: ArenaJoinRequest, id: JSONValue?, from connection: Connection) {
        guard let room = arenaRooms[join.arena] else {
            return loadArena(join.arena, id: id, from: connection) { [unowned self] in joinArena(join, id: id, from: connection) }
        }
        let time = room.time(at: clock.now())
        settle(room.arena.advance(to: time), in: room, answered: nil)
        if join.watch {
            arenaRooms.follow(room, by: connection.id, as: nil)
            return send(.arena(room.view(), id: id), to: connection)
        }
        guard room.arena.phase != .finished else {
            return fail(connection, WireError(.arenaOver, "The arena \(room.name) is over; watch it or ask for its results."), id: id)
        }
        // Joined again as the same player on the same connection: nothing to look up.
        if room.members[connection.id]?.player == join.name { return enter(join, nil, into: room, id: id, from: connection) }
        guard case .greeted = connection.session else {
            return fail(connection, WireError(.alreadyJoined, "This connection is in a match; open another to join an arena."), id: id)
        }
        var request = JoinRequest(name: join.name, variant: room.variant)
        request.account = join.account
        request.bot = join.bot
        identify(connection, by: request)
        decideAdmission(of: request, sitting: { _ in nil }, id: id, from: connection) { [unowned self] admission, lookup in
            guard !admission.writes else {
                return claimName(admission, of: request, id: id, from: connection) { [unowned self] in joinArena(join, id: id, from: connection) }
            }
            let rating = lookup.account?.rating(room.variant)
            enter(join, rating.map { ($0.rounded, $0.isProvisional) }, into: room, id: id, from: connection)
        }
    }

    /// Joins (or joins again) the player, written to the store before the answer.
    private func enter(_ join: ArenaJoinRequest, _ rating: (Int, Bool)?, into room: ArenaRoom, id: JSONValue?, from connection: Connection) {
        let known = room.arena.players[join.name]?.entrant
        let entrant = ArenaEntrant(name: join.name, rating: known?.rating ?? rating?.0, provisional: known?.provisional ?? rating?.1 ?? false,
                                   bot: join.bot)
        let step = room.arena.join(entrant, at: room.time(at: clock.now()))
        if let refusal = step.refusal { return fail(connection, refusal.wire(room.name), id: id) }
        connection.name = join.name
        arenaRooms.follow(room, by: connection.id, as: join.name)
        saveArenaPlayer(join.name, of: room) { [unowned self] in
            if connections[connection.id] === connection { send(.arena(room.view(), id: id), to: connection) }
            settle(step, in: room, answered: connection.id)
        }
    }

    /// Reads the arena from the store and holds it here, then `then` (on the loop).
    private func loadArena(_ name: String, id: JSONValue?, from connection: Connection, then: @escaping () -> Void) {
        let wall = nodes?.wallNow ?? accounts.wallSeconds() * 1_000, offset = wall - clock.now().milliseconds
        accounts.ask({ store throws(StoreError) in try store.arena(named: name) }) { [unowned self] result in
            guard connections[connection.id] === connection else { return }
            switch result {
            case .failure(let error): return fail(connection, storeRefusal(error), id: id)
            case .success(nil): return fail(connection, WireError(.noSuchArena, "No arena is named \(name)."), id: id)
            case .success(let stored?):
                if arenaRooms[name] == nil {
                    let room = ArenaRoom(stored, at: wall, offset: offset)
                    arenaRooms.hold(room)
                    log("arena \(name) is held here")
                    // Games dealt before a restart and not ended are left to their seats' end.
                    settle(room.arena.pairNow(at: room.time(at: clock.now())), in: room, answered: nil)
                }
                then()
            }
        }
    }

    /// Writes a player's row off the loop, then `then` (on the loop). A failed write is logged:
    /// the room goes on, and the next change writes the row again.
    private func saveArenaPlayer(_ name: String, of room: ArenaRoom, then: @escaping () -> Void) {
        guard let row = room.stored(name) else { return then() }
        let arena = room.name
        accounts.ask(on: .records, { store throws(StoreError) in try store.saveArenaPlayer(row, in: arena) }) { [unowned self] result in
            if case .failure(let error) = result { log("arena \(room.name): \(name)'s row was not written: \(error)") }
            then()
        }
    }

    /// After a step: deals its pairings, pushes the state if it changed (once the duels dealt
    /// are stored: a board is shown only once its players may be told), and sets the timer.
    func settle(_ step: ArenaStep, in room: ArenaRoom, answered: ConnectionID?) {
        if step.changed { room.changed() }
        for game in step.pairings { deal(game, in: room) }
        if room.dealing == 0 { pushArena(room) }
        timers.arenaDeadline = arenaRooms.rooms.values.compactMap(\.nextDeadline).min()
    }

    /// One `arena` line (no `id`) to every connection following the room, when it changed since
    /// the last push.
    func pushArena(_ room: ArenaRoom) {
        guard room.version != room.pushedVersion else { return }
        room.pushedVersion = room.version
        let line = ServerMessageCoding.line(.arena(room.view(), id: nil))
        for id in room.members.keys {
            if let connection = connections[id], !connection.closeWhenFlushed { enqueue(line, to: connection) }
        }
    }

    /// Writes a dealt duel with both its seats to the store, then reserves its match here and
    /// tells each player their token; a duel the store did not take is undone, told to nobody.
    private func deal(_ game: ArenaGame, in room: ArenaRoom) {
        let tokens = [SeatToken.make(), SeatToken.make()]
        let arena = room.name, match = ArenaStore.match(arena: arena, game: game.number)
        room.dealing += 1
        accounts.ask(on: .records, { store throws(StoreError) in try store.dealArenaGame(game, tokens: tokens, in: arena) }) { [unowned self] result in
            defer {
                room.dealing -= 1
                if room.dealing == 0 { pushArena(room) }
            }
            guard case .success(true) = result else {
                log("arena \(room.name): \(match) was not written (\(result)); its players are free again")
                room.arena.cancel(game: game.number)
                return room.changed()
            }
            tellPairing(game, match: match, tokens: tokens, in: room)
        }
    }

    /// Reserves a stored duel here (its home row written first on nodes, as an accepted
    /// challenge's) and tells each player their own token.
    private func tellPairing(_ game: ArenaGame, match: String, tokens: [String], in room: ArenaRoom) {
        room.dealing += 1
        writeHome(of: match, forMs: lobby.seatWaitMs) { [unowned self] error in
            room.dealing -= 1
            defer { if room.dealing == 0 { pushArena(room) } }
            if let error {
                // Stored but told to nobody: its players are free here; the row is never counted.
                log("arena \(room.name): the store did not take \(match)'s home row: \(error)")
                room.arena.cancel(game: game.number)
                return room.changed()
            }
            let until = Instant(milliseconds: clock.now().milliseconds + lobby.seatWaitMs)
            lobby.reservedMatches[match] = ReservedMatch(tokens: Set(tokens), mode: .duel, variant: room.variant, unclaimedUntil: until)
            room.seatWaits[game.number] = until
            timers.arenaDeadline = arenaRooms.rooms.values.compactMap(\.nextDeadline).min()
            for (index, player) in game.players.enumerated() {
                let notice = ArenaPairingNotice(arena: room.name, match: match, token: tokens[index], opponent: game.players[1 - index])
                let line = ServerMessageCoding.line(.arenaPairing(notice))
                for id in room.connections(of: player) { if let connection = connections[id] { enqueue(line, to: connection) } }
            }
            log("arena \(room.name): \(game.players.joined(separator: " and ")) play \(match)")
        }
    }

    /// Counts an arena duel's first game once its record is committed: the arena's node writes
    /// the end, then scores it and pairs whoever is free.
    func countArenaGame(_ finished: FinishedGame) {
        guard let (name, number) = ArenaStore.parse(match: finished.match), let room = arenaRooms[name],
              let game = room.arena.games[number] else { return }
        let end: ArenaGameEnd = .played(winner: finished.result.winner.map { seat in
            let seated = finished.seats.indices.contains(seat.rawValue) ? finished.seats[seat.rawValue].name : ""
            return game.players.contains(seated) ? seated : game.players[min(seat.rawValue, 1)]
        })
        room.seatWaits[number] = nil
        count(game, end, in: room)
    }

    /// The timer: each held arena moved to the server's clock (a start pairs, an end stops
    /// pairing), and each told duel nobody sat in within its seat wait forfeited by both.
    func advanceArenas(at now: Instant) {
        timers.arenaDeadline = nil
        for room in arenaRooms.rooms.values {
            for (number, until) in room.seatWaits where until <= now {
                room.seatWaits[number] = nil
                let match = ArenaStore.match(arena: room.name, game: number)
                // Someone sat: the match itself forfeits an absent seat, and its record counts.
                guard lobby.rooms[match] == nil, let game = room.arena.games[number] else { continue }
                lobby.reservedMatches[match] = nil
                count(game, .noShow(absent: Swift.Set(game.players)), in: room)
            }
            settle(room.arena.advance(to: room.time(at: now)), in: room, answered: nil)
        }
    }

    /// Writes a duel's end to the store (once), then scores it and pairs whoever is free.
    private func count(_ game: ArenaGame, _ end: ArenaGameEnd, in room: ArenaRoom) {
        let name = room.name
        accounts.ask(on: .records, { store throws(StoreError) in try store.finishArenaGame(game, end, in: name) }) { [unowned self] result in
            if case .failure(let error) = result { log("arena \(name): game \(game.number)'s end was not written: \(error)") }
            guard case .success(true) = result else { return }
            settle(room.arena.end(game: game.number, end, at: room.time(at: clock.now())), in: room, answered: nil)
        }
    }

    /// Once per loop turn: a closed connection stops following its arena, and its player is paused
    /// (they come back with `arena_join`), written to the store.
    func settleArenasTurn() {
        for id in arenaRooms.followers {
            if let connection = connections[id], !connection.closeWhenFlushed { continue }
            guard let (room, player) = arenaRooms.unfollow(id) else { continue }
            guard let player, room.connections(of: player).isEmpty else { continue }
            let step = room.arena.pause(player, .asked, at: room.time(at: clock.now()))
            saveArenaPlayer(player, of: room) { [unowned self] in settle(step, in: room, answered: nil) }
        }
    }
}

extension ArenaRefusal {
    /// The refusal on the wire.
    func wire(_ arena: String) -> WireError {
        switch self {
        case .over: WireError(.arenaOver, "The arena \(arena) is over; watch it or ask for its results.")
        case .notInArena: WireError(.notInArena, "This connection has not joined the arena \(arena) as a player.")
        case .unknownGame: WireError(.noSuchMatch, "The arena \(arena) waits for no such game.")
        }
    }
}

extension ArenaStore {
    /// The arena and game number of an arena duel's match name (`arena-NAME-N`), or nil.
    static func parse(match: String) -> (String, Int)? {
        guard match.hasPrefix("arena-"), let dash = match.lastIndex(of: "-"), let number = Int(match[match.index(after: dash)...]) else { return nil }
        let name = match[match.index(match.startIndex, offsetBy: 6)..<dash]
        return name.isEmpty ? nil : (String(name), number)
    }
}
