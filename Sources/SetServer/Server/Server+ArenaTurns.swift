import SetArena
import SetRules
import SetWire

// The arena room's turns on the server that holds it: a step of the arena settled (its players
// saved, its pairings dealt), each pairing written with both reserved seats before its players
// are told, each duel's result counted once its record is committed, and the arena's start and
// end on the server's timers (`Server+ArenaRoom` answers the room's requests).
extension Server {
    /// After a step: deals its pairings, pushes the state if it changed (once the duels dealt
    /// are stored: a board is shown only once its players may be told), and sets the timer.
    func settle(_ step: ArenaStep, in room: ArenaRoom, answered: ConnectionID?) {
        if step.changed { room.changed() }
        for game in step.pairings { deal(game, in: room) }
        if room.dealing == 0 { pushArena(room) }
        timers.arenaDeadline = arenaRooms.rooms.values.compactMap(\.nextDeadline).min()
        if room.arena.isFinal && !room.finalKept { keepFinalPlaces(of: room) }
    }

    /// Writes every player's final place once the standings are final, for their profiles (a
    /// profile recounts an arena whose places are not kept, so a failed write costs only time).
    private func keepFinalPlaces(of room: ArenaRoom) {
        room.finalKept = true
        let places = ArenaPlace.standings(of: room.arena), name = room.name
        accounts.ask(on: .records, { store throws(StoreError) in try store.keepFinalPlaces(places, in: name) }) { [unowned self] result in
            if case .failure(let error) = result { log("arena \(name): the final places were not kept: \(error)") }
        }
    }

    /// Asks for one `arena` line (no `id`) to every connection following the room, when it
    /// changed since the last push; sent at the loop turn's end (`pushDueArenas`), so a turn's
    /// changes go as one state.
    func pushArena(_ room: ArenaRoom) {
        guard room.version != room.pushedVersion else { return }
        arenaRooms.due.insert(room.name)
    }

    /// Writes a dealt duel with both its seats to the store, then reserves its match here and
    /// tells each player their token; a duel the store did not take is undone, told to nobody,
    /// and its players are paired again in `storeRetryMs`.
    private func deal(_ game: ArenaGame, in room: ArenaRoom) {
        let tokens = [SeatToken.make(), SeatToken.make()]
        let arena = room.name, match = ArenaStore.match(arena: arena, game: game.number)
        room.dealing += 1
        room.unstored.insert(game.number)
        accounts.ask(on: .records, { store throws(StoreError) in try store.dealArenaGame(game, tokens: tokens, in: arena) }) { [unowned self] result in
            defer {
                room.dealing -= 1
                if room.dealing == 0 { pushArena(room) }
            }
            guard case .success(true) = result else {
                log("arena \(room.name): \(match) was not written (\(result)); its players are paired again in \(Self.storeRetryMs / 1_000) s")
                room.unstored.remove(game.number)
                return undeal(game, in: room)
            }
            tellPairing(game, match: match, tokens: tokens, in: room)
        }
    }

    /// How long an arena duel's seats wait for its players (`ServerConfig.arenaSeatWaitMs`).
    var arenaSeatWaitMs: Int64 { min(lobby.seatWaitMs, config.arenaSeatWaitMs) }

    /// Reserves a stored duel here (its home row written first on nodes, as an accepted
    /// challenge's) and tells each player their own token.
    private func tellPairing(_ game: ArenaGame, match: String, tokens: [String], in room: ArenaRoom) {
        room.dealing += 1
        writeHome(of: match, forMs: arenaSeatWaitMs) { [unowned self] error in
            room.dealing -= 1
            room.unstored.remove(game.number)
            defer { if room.dealing == 0 { pushArena(room) } }
            if let error {
                // Stored but told to nobody: its players are free here; the row is never counted.
                log("arena \(room.name): the store did not take \(match)'s home row: \(error)")
                return undeal(game, in: room)
            }
            let until = Instant(milliseconds: clock.now().milliseconds + arenaSeatWaitMs)
            lobby.reservedMatches[match] = ReservedMatch(tokens: Set(tokens), mode: .duel, variant: room.variant,
                                                         unclaimedUntil: until, rated: room.rated)
            room.seatWaits[game.number] = until
            room.seatTokens[game.number] = tokens
            timers.arenaDeadline = arenaRooms.rooms.values.compactMap(\.nextDeadline).min()
            for player in game.players {
                guard let line = pairingLine(game, tokens: tokens, for: player, in: room) else { continue }
                for id in room.connections(of: player) { if let connection = connections[id] { enqueue(line, to: connection) } }
            }
            log("arena \(room.name): \(game.players.joined(separator: " and ")) play \(match)")
        }
    }

    /// Undoes a duel the store did not take: its players are free, and paired again once
    /// `storeRetryMs` has passed on the server's clock (at once, a store that is down would be
    /// asked again in a loop; at the next change only, two players alone would wait for good).
    private func undeal(_ game: ArenaGame, in room: ArenaRoom) {
        room.arena.cancel(game: game.number)
        room.changed()
        if room.pairRetry == nil { room.pairRetry = Instant(milliseconds: clock.now().milliseconds + Self.storeRetryMs) }
        timers.arenaDeadline = arenaRooms.rooms.values.compactMap(\.nextDeadline).min()
    }

    /// How long a write the store did not take (a duel's end, a deal) waits before it is tried again.
    package static let storeRetryMs: Int64 = 2_000

    /// Counts an arena duel's first game once its record is committed: the arena's node writes
    /// the end, then scores it and pairs whoever is free.
    func countArenaGame(_ finished: FinishedGame) {
        guard let (name, number) = ArenaStore.parse(match: finished.match) else { return }
        guard let room = arenaRooms[name] else {
            // Its arena is being held again after a restart: counted once it is (`hold`).
            if arenaRooms.resuming.contains(name) { arenaRooms.unheldEnds[name, default: []].append(finished) }
            return
        }
        guard let game = room.arena.games[number] else { return }
        room.seatWaits[number] = nil
        room.seatTokens[number] = nil
        count(game, ArenaStore.end(of: finished, game: game), in: room)
    }

    /// The timer: each held arena moved to the server's clock (a start pairs, an end stops
    /// pairing), and each told duel a player did not sit in within its seat wait a no-show of
    /// the absent (both, or one: the one who came wins it).
    func advanceArenas(at now: Instant) {
        timers.arenaDeadline = nil
        for room in arenaRooms.rooms.values {
            if !room.unwritten.isEmpty, room.unwrittenRetry <= now {
                let ends = room.unwritten
                room.unwritten = [:]
                for (number, end) in ends.sorted(by: { $0.key < $1.key }) {
                    if let game = room.arena.games[number] { count(game, end, in: room) }
                }
            }
            if let retry = room.pairRetry, retry <= now {
                room.pairRetry = nil
                settle(room.cpu.measure { room.arena.pairNow(at: room.time(at: now)) }, in: room, answered: nil)
            }
            for (number, until) in room.seatWaits where until <= now {
                room.seatWaits[number] = nil
                let tokens = room.seatTokens.removeValue(forKey: number)
                let match = ArenaStore.match(arena: room.name, game: number)
                guard let game = room.arena.games[number] else { continue }
                guard let duel = lobby.rooms[match] else {
                    lobby.reservedMatches[match] = nil
                    count(game, .noShow(absent: Swift.Set(game.players)), in: room)
                    continue
                }
                // Both sat: the game is theirs, and its record counts.
                guard duel.host.phase == .waiting else { continue }
                let absent = Self.absent(from: game, tokens: tokens, in: duel.host)
                // The absent seat is closed: its token takes it no more, and the waiting duel
                // stays private until the one who came leaves it (their next pairing's `join`).
                lobby.reservedMatches[match]?.tokens.subtract(absent.map(\.token))
                count(game, .noShow(absent: Swift.Set(absent.map(\.player))), in: room)
            }
            settle(room.cpu.measure { room.arena.advance(to: room.time(at: now)) }, in: room, answered: nil)
        }
        // Before this turn's sweep, which may close an idle follower the new phase is owed to.
        pushDueArenas()
    }

    /// The players of a told duel who did not sit in it, with their tokens: by the seat tokens
    /// dealt, or (a duel this server did not deal) by the names seated.
    static func absent(from game: ArenaGame, tokens: [String]?, in host: MatchHost) -> [(player: String, token: String)] {
        let seated = host.seats.compactMap { $0 }
        guard let tokens, tokens.count == game.players.count else {
            let names = Swift.Set(seated.map { PlayerName.skeleton($0.name) })
            return game.players.filter { !names.contains(PlayerName.skeleton($0)) }.map { ($0, "") }
        }
        let taken = Swift.Set(seated.map(\.token))
        return zip(game.players, tokens).filter { !taken.contains($0.1) }.map { ($0.0, $0.1) }
    }

    /// Writes a duel's end to the store (once), then scores it and pairs whoever is free. An end
    /// the store did not take is written again every `storeRetryMs` until it is.
    func count(_ game: ArenaGame, _ end: ArenaGameEnd, in room: ArenaRoom) {
        let name = room.name
        accounts.ask(on: .records, { store throws(StoreError) in try store.finishArenaGame(game, end, in: name) }) { [unowned self] result in
            if case .failure(let error) = result {
                log("arena \(name): game \(game.number)'s end was not written (\(error)); written again in \(Self.storeRetryMs / 1_000) s")
                room.unwritten[game.number] = end
                room.unwrittenRetry = Instant(milliseconds: clock.now().milliseconds + Self.storeRetryMs)
                timers.arenaDeadline = arenaRooms.rooms.values.compactMap(\.nextDeadline).min()
            }
            guard case .success(true) = result else { return }
            settle(room.cpu.measure { room.arena.end(game: game.number, end, at: room.time(at: clock.now())) }, in: room, answered: nil)
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
        pushDueArenas()
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
