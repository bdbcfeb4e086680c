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
            // Its duels are dealt once the row is written: the answer before that shows none.
            room.unstored.formUnion(step.pairings.map(\.number))
            if case .leave = request {
                for other in room.connections(of: player) {
                    arenaRooms.follow(room, by: other, as: nil, from: room.members[other]?.address ?? "")
                }
            }
            saveArenaPlayer(player, of: room) { [unowned self] in
                if connections[connection.id] === connection { answerState(of: room, id: id, to: connection) }
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
            arenaRooms.follow(room, by: connection.id, as: nil, from: connection.address)
            return answerState(of: room, id: id, to: connection)
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
            // An account is one player in an arena: under a second name it would be paired with
            // itself and score its own wins. It is answered with the name it plays under.
            if let account = lookup.account, let playing = room.name(of: account.id), playing != join.name {
                return fail(connection, WireError(.nameTaken, "Your account plays in the arena \(room.name) as \(playing); join it under that name.",
                                                  details: ["suggestion": .string(playing)]), id: id)
            }
            let joiner: ArenaRoom.ArenaJoiner = connection.identity == .guest ? .guest : .account(lookup.account?.id)
            if let why = room.lineRefusal(of: join.name, by: joiner, on: connection.id) {
                return fail(connection, WireError(.nameTaken, "The name \(join.name) \(why); join under another name."), id: id)
            }
            if let refusal = arenaAddressRefusal(in: room, for: join.name, from: connection) { return fail(connection, refusal, id: id) }
            guard !admission.writes else {
                return claimName(admission, of: request, id: id, from: connection) { [unowned self] in joinArena(join, id: id, from: connection) }
            }
            if let account = lookup.account { room.accounts[join.name] = account.id }
            let rating = lookup.account?.rating(room.variant)
            enter(join, rating.map { ($0.rounded, $0.isProvisional) }, into: room, id: id, from: connection)
        }
    }

    /// Refuses a player past the arena's share for one address (`--arena-players-per-address`):
    /// without it one address could join a crowd of names that never sit, and each would cost the
    /// real player paired with it a seat wait.
    private func arenaAddressRefusal(in room: ArenaRoom, for name: String, from connection: Connection) -> WireError? {
        let cap = config.addressLimits.arenaPlayers
        let here = room.players(from: connection.address, besides: name)
        guard here >= cap else { return nil }
        return WireError(.addressLimit, "Your address has \(here) players in the arena \(room.name), the most one address may have there at once.")
    }

    /// Joins (or joins again) the player, written to the store before the answer.
    private func enter(_ join: ArenaJoinRequest, _ rating: (Int, Bool)?, into room: ArenaRoom, id: JSONValue?, from connection: Connection) {
        let known = room.arena.players[join.name]?.entrant
        let entrant = ArenaEntrant(name: join.name, rating: known?.rating ?? rating?.0, provisional: known?.provisional ?? rating?.1 ?? false,
                                   bot: join.bot)
        let step = room.arena.join(entrant, at: room.time(at: clock.now()))
        if let refusal = step.refusal { return fail(connection, refusal.wire(room.name), id: id) }
        room.unstored.formUnion(step.pairings.map(\.number))
        connection.name = join.name
        arenaRooms.follow(room, by: connection.id, as: join.name, from: connection.address)
        saveArenaPlayer(join.name, of: room) { [unowned self] in
            if connections[connection.id] === connection {
                answerState(of: room, id: id, to: connection)
                retellPairings(of: join.name, to: connection, in: room)
            }
            settle(step, in: room, answered: connection.id)
        }
    }

    /// Reads the arena from the store and holds it here (its dealt duels with it), then `then` (on the loop).
    private func loadArena(_ name: String, id: JSONValue?, from connection: Connection, then: @escaping () -> Void) {
        loadHeldArena(name) { [unowned self] result in
            guard connections[connection.id] === connection else { return }
            switch result {
            case .failure(.store(let error)): fail(connection, storeRefusal(error), id: id)
            case .failure(.none): fail(connection, WireError(.noSuchArena, "No arena is named \(name)."), id: id)
            case .success: then()
            }
        }
    }

    /// Writes a player's row off the loop, then `then` (on the loop). A failed write is logged:
    /// the room goes on, and the next change writes the row again.
    func saveArenaPlayer(_ name: String, of room: ArenaRoom, then: @escaping () -> Void) {
        guard let row = room.stored(name) else { return then() }
        let arena = room.name
        accounts.ask(on: .records, { store throws(StoreError) in try store.saveArenaPlayer(row, in: arena) }) { [unowned self] result in
            if case .failure(let error) = result { log("arena \(room.name): \(name)'s row was not written: \(error)") }
            then()
        }
    }
}
