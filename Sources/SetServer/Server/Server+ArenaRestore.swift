import SetArena
import SetDatabase
import SetRules

// An arena's dealt duels through its node's restart (Protocol.md, "Arenas", issue 44). Each
// dealt duel is in the store with both its seat tokens before anyone is told, so a restarted
// node holds again every arena with a duel not counted yet, and each such duel comes back: one
// whose game record is stored counts (once, as any); one its match journal restored goes on
// and counts when its record commits; one nobody sat in is reserved again for both tokens, for
// a whole seat wait from when the arena is held again (the players lost their connections in
// the restart), then forfeited by whoever is absent, as before. Its players stay `playing`.
extension Server {
    /// At start: every arena with a duel dealt and not counted is held again here (on nodes,
    /// those placed here: another node holds the others, and restores them when it loads them).
    func resumeArenas() {
        accounts.ask(on: .records, { store throws(StoreError) in try store.arenasWithDuelsDealt() }) { [unowned self] result in
            switch result {
            case .failure(let error): log("the arenas with duels dealt were not read: \(error); each comes back when it is joined")
            case .success(let names):
                arenaRooms.resuming.formUnion(names)
                names.forEach(resumeArena)
            }
        }
    }

    private func resumeArena(_ name: String) {
        guard let nodes else { return loadHeldArena(name) { _ in } }
        let wall = nodes.wallNow, leaseMs = nodes.settings.leaseMs
        nodes.ask({ directory throws(DatabaseError) in try directory.place(ArenaRoom.room(name), at: wall, leaseMs: leaseMs) }) { [unowned self] result in
            guard case .success(let placement) = result, placement.home.node == nodes.me.name else {
                arenaRooms.resuming.remove(name)
                arenaRooms.unheldEnds[name] = nil
                return
            }
            arenaRooms.held.insert(name)
            loadHeldArena(name) { _ in }
        }
    }

    /// Reads the arena from the store (on the records lane, in order with the games' records,
    /// so a record committed before the read is found, and one after it is counted by the room)
    /// and holds it here with its dealt duels, then `then` on the loop: nil, or why not.
    func loadHeldArena(_ name: String, then: @escaping (Result<Void, ArenaLoadFailure>) -> Void) {
        let wall = wallNow, offset = wall - clock.now().milliseconds
        accounts.ask(on: .records, { store throws(StoreError) -> (StoredArena, [Int: ArenaGameEnd])? in
            guard let stored = try store.arena(named: name) else { return nil }
            return (stored, try store.recordedArenaEnds(of: stored))
        }) { [unowned self] result in
            switch result {
            case .failure(let error): return then(.failure(.store(error)))
            case .success(nil): return then(.failure(.none))
            case .success(let (stored, recorded)?):
                if arenaRooms[name] == nil { hold(stored, recorded: recorded, at: wall, offset: offset) }
                then(.success(()))
            }
        }
    }

    private func hold(_ stored: StoredArena, recorded: [Int: ArenaGameEnd], at wall: Int64, offset: Int64) {
        let room = ArenaRoom(stored, at: wall, offset: offset)
        arenaRooms.hold(room)
        log("arena \(room.name) is held here" + (stored.underWay.isEmpty ? "" : " with \(stored.underWay.count) duels dealt"))
        let until = Instant(milliseconds: clock.now().milliseconds + arenaSeatWaitMs)
        // The duels that ended while it was being held again, as their matches told it: counted
        // below, before any end read from the store for them. A record committed before the
        // arena was read is among `recorded` too, and may say less (a resignation before any set
        // is an aborted game, with no winner, in the store; the match names its winner).
        let endedMeanwhile = arenaRooms.unheldEnds.removeValue(forKey: room.name) ?? []
        let toldByTheirMatch = Swift.Set(endedMeanwhile.compactMap { ArenaStore.parse(match: $0.match)?.1 })
        for (game, tokens) in stored.underWay where !toldByTheirMatch.contains(game.number) {
            let match = ArenaStore.match(arena: room.name, game: game.number)
            if let end = recorded[game.number] {
                count(game, end, in: room)
            } else if lobby.rooms[match] == nil {
                lobby.reservedMatches[match] = ReservedMatch(tokens: Swift.Set(tokens), mode: .duel, variant: room.variant, unclaimedUntil: until,
                                                             rated: room.rated)
                room.seatWaits[game.number] = until
                room.seatTokens[game.number] = tokens
                writeHome(of: match, forMs: arenaSeatWaitMs) { [unowned self] error in
                    if let error { log("arena \(room.name): \(match)'s home row was not written again: \(error)") }
                }
            } else if lobby.rooms[match]?.host.phase == .waiting {
                // One player sat since the restart (the data folder's reserved-duels file kept
                // their seat) before the arena was held again: the other has a seat wait from
                // now, then it is their no-show.
                room.seatWaits[game.number] = until
                room.seatTokens[game.number] = tokens
            }
        }
        arenaRooms.resuming.remove(room.name)
        endedMeanwhile.forEach(countArenaGame)
        pauseTheAbsent(of: room)
        settle(room.arena.pairNow(at: room.time(at: clock.now())), in: room, answered: nil)
    }

    /// Every player's arena connection went with the node that held the arena: each is paused,
    /// as a closed connection pauses them (a duel under way first finishes), until they join
    /// again, so nobody who is not back is paired into a no-show.
    private func pauseTheAbsent(of room: ArenaRoom) {
        let time = room.time(at: clock.now())
        for (name, player) in room.arena.players.sorted(by: { $0.key < $1.key }) where room.connections(of: name).isEmpty {
            if case .paused = player.presence { continue }
            guard room.arena.pause(name, .asked, at: time).changed else { continue }
            room.changed()
            saveArenaPlayer(name, of: room) {}
        }
    }
}

/// Why an arena could not be held: the store failed, or has no arena of that name.
enum ArenaLoadFailure: Error {
    case store(StoreError)
    case none
}
