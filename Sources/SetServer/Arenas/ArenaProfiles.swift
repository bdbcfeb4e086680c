import SetArena
import SetDatabase
import SetRules
import SetWire

/// The arenas an account joined, as its `profile` lists them (Protocol.md, "profile"): the
/// most recent first, each with the player's place recounted from the stored games, as
/// `arena_results` recounts it.
enum ArenaProfiles {
    /// How many arenas a profile lists: a bound on what one question reads.
    static let listed = 10

    /// Migration 12: the account each arena player joined as (NULL for a guest), so the link
    /// outlives a rename and a guest's arena never lands in a later account of that name; and
    /// each player's final place, kept once the standings are final, so a profile reads a
    /// finished arena's line without recounting its games (NULL until then).
    static let migration = Migration(version: 12, summary: "arena_players: the account each player joined as, and their final place, for profiles") { _ in
        [
            "ALTER TABLE arena_players ADD COLUMN account_id BIGINT",
            "CREATE INDEX arena_players_account ON arena_players (account_id)",
            "ALTER TABLE arena_players ADD COLUMN final_rank BIGINT",
            "ALTER TABLE arena_players ADD COLUMN final_score BIGINT",
            "ALTER TABLE arena_players ADD COLUMN final_games BIGINT",
        ]
    }

    /// The newest arenas (by their end, then name) the account named `name` joined, each with
    /// the name it played under there; at most `limit`. A finished arena's line is read as kept;
    /// only one whose final places are not kept (yet) is loaded whole, to be recounted.
    static func played(byAccountNamed name: String, limit: Int, in database: Database) throws(DatabaseError) -> [ProfileArena] {
        let rows = try database.query(
            """
            SELECT p.arena, p.name, a.variant, a.rated, a.ends_at, p.final_rank, p.final_score, p.final_games,
                (SELECT COUNT(*) FROM arena_players o WHERE o.arena = p.arena)
            FROM accounts ac JOIN arena_players p ON p.account_id = ac.id JOIN arenas a ON a.name = p.arena
            WHERE ac.name_skeleton = $1 ORDER BY a.ends_at DESC, a.name LIMIT $2
            """, .text(PlayerName.skeleton(name)), .int(Int64(max(0, limit))))
        var played: [ProfileArena] = []
        for row in rows {
            let arena = try row.text(0), player = try row.text(1)
            if let rank = try row.optionalInt(5) {
                let place = ArenaPlace(name: player, rank: rank, score: try row.optionalInt(6) ?? 0, games: try row.optionalInt(7) ?? 0)
                played.append(ProfileArena(player: player, standing: .final(
                    arena: arena, variant: Variant(rawValue: try row.text(2)) ?? .classic, rated: try row.bool(3), endsAt: try row.int(4),
                    place: place, players: try row.int(8))))
            } else if let stored = try ArenaStore.load(arena, in: database) {
                played.append(ProfileArena(player: player, standing: .recounted(stored)))
            }
        }
        return played
    }

    /// Keeps each player's final place (the standings are final: `Arena.isFinal`).
    static func keepFinal(_ places: [ArenaPlace], in arena: String, database: Database) throws(DatabaseError) {
        try database.transaction { () throws(DatabaseError) in
            for place in places {
                try database.execute("UPDATE arena_players SET final_rank = $3, final_score = $4, final_games = $5 WHERE arena = $1 AND name = $2",
                                     .text(arena), .text(place.name), .int(Int64(place.rank)), .int(Int64(place.score)), .int(Int64(place.games)))
            }
        }
    }
}

/// A player's place in an arena's standings: rank (1 first), score and games.
package struct ArenaPlace: Hashable, Sendable {
    package var name: String
    package var rank: Int
    package var score: Int
    package var games: Int

    /// Every player's place in `arena`'s standings now.
    static func standings(of arena: Arena) -> [ArenaPlace] {
        arena.standings.enumerated().map { ArenaPlace(name: $1.name, rank: $0 + 1, score: $1.record.score, games: $1.record.games) }
    }
}

/// One arena of an account's profile, with the name the account played under there.
package struct ProfileArena: Sendable {
    /// Where its line comes from: the final place kept, or the arena as stored, to recount.
    enum Standing: Sendable {
        case final(arena: String, variant: Variant, rated: Bool, endsAt: Int64, place: ArenaPlace, players: Int)
        case recounted(StoredArena)
    }

    package var player: String
    var standing: Standing

    var name: String {
        switch standing {
        case .final(let arena, _, _, _, _, _): arena
        case .recounted(let stored): stored.name
        }
    }

    /// Its line in the profile's `arenas` at wall time `wall` (the arena's own time where it is
    /// held): name, variant, rated, state, the player's rank, score and games, how many players
    /// it has, and `wall`, when it ends or ended (Unix seconds, as a history's games say it).
    func line(at wall: Int64) -> JSONValue {
        switch standing {
        case .final(let arena, let variant, let rated, let endsAt, let place, let players):
            return Self.line(arena, variant, rated, .finished, place, players: players, endsAt: endsAt)
        case .recounted(let stored):
            let now = stored.arena(at: wall)
            let places = ArenaPlace.standings(of: now)
            let place = places.first { $0.name == player } ?? ArenaPlace(name: player, rank: places.count + 1, score: 0, games: 0)
            return Self.line(stored.name, stored.variant, stored.rated, ArenaState(now.phase), place, players: places.count, endsAt: stored.endsAt)
        }
    }

    private static func line(_ arena: String, _ variant: Variant, _ rated: Bool, _ state: ArenaState, _ place: ArenaPlace, players: Int,
                             endsAt: Int64) -> JSONValue {
        .object([
            "arena": .string(arena), "variant": .string(variant.rawValue), "rated": .bool(rated), "state": .string(state.rawValue),
            "rank": .int(Int64(place.rank)), "score": .int(Int64(place.score)), "games": .int(Int64(place.games)),
            "players": .int(Int64(players)), "wall": .int(endsAt / 1_000),
        ])
    }
}

extension SQLAccountStore {
    func profileArenas(ofAccountNamed name: String, limit: Int) throws(StoreError) -> [ProfileArena] {
        try Self.storing { () throws(DatabaseError) in try ArenaProfiles.played(byAccountNamed: name, limit: limit, in: database) }
    }

    func keepFinalPlaces(_ places: [ArenaPlace], in arena: String) throws(StoreError) {
        try Self.storing { () throws(DatabaseError) in try ArenaProfiles.keepFinal(places, in: arena, database: database) }
    }
}
