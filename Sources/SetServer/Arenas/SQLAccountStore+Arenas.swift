import SetArena
import SetDatabase
import SetRules
import SetWire

/// An `arena_create` as the store takes it: the request, where and when it came from.
struct ArenaCreateRequest: Sendable {
    var creation: ArenaCreation
    /// The creator's address, and their account key's digest (never the key itself).
    var address: String
    var accountDigest: String?
    /// Wall-clock milliseconds now, and the arena's start and end.
    var wall: Int64
    var startsAt: Int64
    var endsAt: Int64

    /// Arenas one address, and one account, may create within `allowanceMs`.
    static let allowance = 3
    static let allowanceMs: Int64 = 3_600_000
}

extension SQLAccountStore {
    func createArena(_ request: ArenaCreateRequest) throws(StoreError) -> Result<StoredArena, WireError> {
        try Self.storing { () throws(DatabaseError) -> Result<StoredArena, WireError> in
            try database.transaction { () throws(DatabaseError) -> Result<StoredArena, WireError> in
                let since = request.wall - ArenaCreateRequest.allowanceMs
                let made = try ArenaStore.created(since: since, address: request.address, account: request.accountDigest, in: database)
                if made.address >= ArenaCreateRequest.allowance || made.account >= ArenaCreateRequest.allowance {
                    return .failure(WireError(.rateLimited, "Three arenas an hour from one address, and from one account; try again later.",
                                              details: ["retryAfterMs": .int(ArenaCreateRequest.allowanceMs)]))
                }
                let creation = request.creation
                guard try ArenaStore.create(creation.arena, variant: creation.variant, rated: creation.rated, startsAt: request.startsAt,
                                            endsAt: request.endsAt, wall: request.wall, address: request.address,
                                            account: request.accountDigest, in: database) else {
                    return .failure(WireError(.arenaExists, "An arena named \(creation.arena) exists already; pick another name."))
                }
                return .success(StoredArena(name: creation.arena, variant: creation.variant, rated: creation.rated, startsAt: request.startsAt,
                                            endsAt: request.endsAt, players: [], ended: [], underWay: []))
            }
        }
    }

    func arena(named name: String) throws(StoreError) -> StoredArena? {
        try Self.storing { () throws(DatabaseError) in try ArenaStore.load(name, in: database) }
    }

    func arenas(endingAfter wall: Int64) throws(StoreError) -> [StoredArena] {
        try Self.storing { () throws(DatabaseError) -> [StoredArena] in
            var arenas: [StoredArena] = []
            for name in try ArenaStore.names(endingAfter: wall, in: database) {
                if let arena = try ArenaStore.load(name, in: database) { arenas.append(arena) }
            }
            return arenas
        }
    }

    func createScheduledArena(_ slot: ArenaSchedule.Slot, variant: Variant, wall: Int64) throws(StoreError) -> Bool {
        try Self.storing { () throws(DatabaseError) in
            try ArenaStore.create(slot.name, variant: variant, rated: true, startsAt: slot.startsAt, endsAt: slot.endsAt, wall: wall,
                                  address: ArenaSchedule.creator, account: nil, in: database)
        }
    }

    func arenasWithDuelsDealt() throws(StoreError) -> [String] {
        try Self.storing { () throws(DatabaseError) in try ArenaStore.namesWithDuelsDealt(in: database) }
    }

    func recordedArenaEnds(of arena: StoredArena) throws(StoreError) -> [Int: ArenaGameEnd] {
        try Self.storing { () throws(DatabaseError) -> [Int: ArenaGameEnd] in
            var ends: [Int: ArenaGameEnd] = [:]
            for (game, _) in arena.underWay {
                if let end = try ArenaStore.recordedEnd(of: game, in: arena.name, database: database) { ends[game.number] = end }
            }
            return ends
        }
    }

    func saveArenaPlayer(_ player: StoredArenaPlayer, in arena: String) throws(StoreError) {
        try Self.storing { () throws(DatabaseError) in try ArenaStore.put(player, in: arena, database: database) }
    }

    func dealArenaGame(_ game: ArenaGame, tokens: [String], in arena: String) throws(StoreError) -> Bool {
        try Self.storing { () throws(DatabaseError) in try ArenaStore.deal(game, tokens: tokens, in: arena, database: database) }
    }

    func finishArenaGame(_ game: ArenaGame, _ end: ArenaGameEnd, in arena: String) throws(StoreError) -> Bool {
        try Self.storing { () throws(DatabaseError) in try ArenaStore.finish(game.number, end, of: game, in: arena, database: database) }
    }
}
