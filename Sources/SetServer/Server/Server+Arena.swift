import SetArena
import SetRules
import SetWire

// Arenas (Protocol.md, "Arenas", issue 44). What any node answers from the store is here:
// `arenas`, `arena_create` and `arena_results`. The room that holds an arena on its node, and
// so `arena_join`, `arena_pause`, `arena_resume` and `arena_leave`, is not built yet: those are
// refused as a type this server does not serve, and nothing is written.
extension Server {
    /// How long a finished arena stays in `arenas`.
    static let finishedArenasListedMs: Int64 = 3_600_000

    func answerArena(_ request: ArenaRequest, id: JSONValue?, from connection: Connection, at now: Instant) {
        // The store's times are wall-clock milliseconds (a node's own, from its lease's base);
        // the wire's are this server's clock.
        let wall = nodes?.wallNow ?? accounts.wallSeconds() * 1_000
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
            answerFromStore(id: id, from: connection, { store throws(StoreError) in
                try store.createArena(asked).map { ServerMessageCoding.line(.arena($0.view(at: wall, offset: offset), id: id)) }
            })
        case .results(let name):
            answerFromStore(id: id, from: connection, { store throws(StoreError) in
                guard let stored = try store.arena(named: name) else {
                    return .failure(WireError(.noSuchArena, "No arena is named \(name)."))
                }
                return .success(ServerMessageCoding.line(.arenaResults(stored.results(at: wall, offset: offset), id: id)))
            })
        case .join, .pause, .resume, .leave:
            fail(connection, WireError(.unknownType, "This server does not seat arena players yet (\"\(request.type.rawValue)\")."), id: id)
        }
    }
}

extension StoredArena {
    /// The arena's phase on the wire at wall time `wall`.
    func state(at wall: Int64) -> ArenaState {
        switch arena(at: wall).phase {
        case .starting: .starting
        case .running: .running
        case .finished: .finished
        }
    }

    /// Its standings as the wire shows them (`performance` in results only).
    func entries(at wall: Int64, withPerformance: Bool) -> [ArenaEntry] {
        ArenaStandings.ordered(arena(at: wall).players.values).enumerated().map { index, player in
            var paused = false
            if case .paused = player.presence { paused = true }
            return ArenaEntry(rank: index + 1, name: player.name, score: player.record.score, games: player.record.games,
                              wins: player.record.wins, streak: player.record.streak, fire: player.record.fire,
                              rating: player.entrant.rating, provisional: player.entrant.provisional, bot: player.entrant.bot,
                              paused: paused, playing: player.playing.map { ArenaStore.match(arena: name, game: $0) },
                              performance: withPerformance ? player.performance : nil)
        }
    }

    func summary(at wall: Int64, offset: Int64) -> ArenaSummary {
        let standings = ArenaStandings.ordered(arena(at: wall).players.values)
        let joined = players.filter { $0.pause != .left }.count
        return ArenaSummary(arena: name, variant: variant, rated: rated, state: state(at: wall), startsAt: max(0, startsAt - offset),
                            endsAt: max(0, endsAt - offset), players: joined,
                            leader: standings.first.flatMap { $0.record.score > 0 ? $0.name : nil })
    }

    func view(at wall: Int64, offset: Int64) -> ArenaView {
        let now = arena(at: wall)
        return ArenaView(arena: name, variant: variant, rated: rated, state: state(at: wall), startsAt: max(0, startsAt - offset),
                         endsAt: max(0, endsAt - offset), standings: entries(at: wall, withPerformance: false),
                         boards: now.boards.map { game in
                             ArenaBoard(match: ArenaStore.match(arena: name, game: game.number), players: game.players,
                                        scores: game.players.map { now.players[$0]?.record.score ?? 0 })
                         })
    }

    func results(at wall: Int64, offset: Int64) -> ArenaResults {
        let standings = ArenaStandings.ordered(arena(at: wall).players.values)
        return ArenaResults(arena: name, variant: variant, rated: rated, state: state(at: wall), endsAt: max(0, endsAt - offset),
                            standings: entries(at: wall, withPerformance: true), winners: ArenaStandings.winners(standings))
    }
}
