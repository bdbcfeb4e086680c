import SetArena
import SetRules
import SetWire

// Arenas (Protocol.md, "Arenas", issue 44). What any node answers from the store is here:
// `arenas`, `arena_create` and `arena_results`; the room that holds an arena on its node
// (`arena_join`, `arena_pause`, `arena_resume`, `arena_leave`) is `Server+ArenaRoom`.
extension Server {
    /// How long a finished arena stays in `arenas`.
    static let finishedArenasListedMs: Int64 = 3_600_000

    func answerArena(_ request: ArenaRequest, id: JSONValue?, from connection: Connection, at now: Instant) {
        // The store's times are wall-clock milliseconds (a node's own, from its lease's base);
        // the wire's are this server's clock.
        let wall = wallNow
        let offset = wall - now.milliseconds
        switch request {
        case .list:
            answerFromStore(id: id, from: connection, { store throws(StoreError) in
                let listed = try store.arenas(endingAfter: wall - Self.finishedArenasListedMs)
                return .success(ServerMessageCoding.line(.arenas(listed.map { $0.summary(at: wall, offset: offset) }, id: id)))
            })
        case .create(let creation):
            let startsAt = wall + Int64(creation.startsInS) * 1_000
            let asked = ArenaCreateRequest(creation: creation, address: connection.address, accountDigest: creation.account.map(SHA256.hex),
                                           wall: wall, startsAt: startsAt, endsAt: startsAt + Int64(creation.minutes) * 60_000)
            // A write: on the records lane, as the arena's other writes (the questions lane only reads).
            answerFromStore(id: id, from: connection, on: .records, { store throws(StoreError) in
                try store.createArena(asked).map { ServerMessageCoding.line(.arena($0.view(at: wall, offset: offset), id: id)) }
            })
        case .results(let name):
            // An arena held here runs on this server's clock (its timers): its phase is the room's.
            let (wall, offset) = arenaRooms[name].map { ($0.time(at: now), $0.offset) } ?? (wall, offset)
            answerFromStore(id: id, from: connection, { store throws(StoreError) in
                guard let stored = try store.arena(named: name) else {
                    return .failure(WireError(.noSuchArena, "No arena is named \(name)."))
                }
                return .success(ServerMessageCoding.line(.arenaResults(stored.results(at: wall, offset: offset), id: id)))
            })
        case .join, .pause, .resume, .leave:
            answerArenaRoom(request, id: id, from: connection, at: now)
        }
    }
}

extension StoredArena {
    /// The arena's phase on the wire at wall time `wall`.
    func state(at wall: Int64) -> ArenaState { ArenaState(arena(at: wall).phase) }

    /// Its header on the wire in `state`, its end moved to this server's clock by `offset`.
    func header(_ state: ArenaState, offset: Int64) -> ArenaHeader {
        ArenaHeader(arena: name, variant: variant, rated: rated, state: state, endsAt: max(0, endsAt - offset))
    }

    func summary(at wall: Int64, offset: Int64) -> ArenaSummary {
        let standings = ArenaStandings.ordered(arena(at: wall).players.values)
        let joined = players.filter { $0.pause != .left }.count
        return ArenaSummary(header: header(state(at: wall), offset: offset), startsAt: max(0, startsAt - offset), players: joined,
                            leader: standings.first.flatMap { $0.record.score > 0 ? $0.name : nil })
    }

    func view(at wall: Int64, offset: Int64) -> ArenaView {
        ArenaView.of(name: name, variant: variant, rated: rated, arena: arena(at: wall), offset: offset)
    }

    func results(at wall: Int64, offset: Int64) -> ArenaResults {
        let now = arena(at: wall)
        return ArenaResults(header: header(ArenaState(now.phase), offset: offset),
                            standings: ArenaEntry.standings(of: now, arena: name, withPerformance: true),
                            winners: ArenaStandings.winners(now.standings))
    }
}
