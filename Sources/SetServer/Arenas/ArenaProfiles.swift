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
    /// outlives a rename and a guest's arena never lands in a later account of that name.
    static let migration = Migration(version: 12, summary: "arena_players.account_id: the account each arena player joined as, for its profile") { _ in
        [
            "ALTER TABLE arena_players ADD COLUMN account_id BIGINT",
            "CREATE INDEX arena_players_account ON arena_players (account_id)",
        ]
    }

    /// The newest arenas (by their end, then name) the account named `name` joined, each with
    /// the name it played under there; at most `limit`.
    static func played(byAccountNamed name: String, limit: Int, in database: Database) throws(DatabaseError) -> [ProfileArena] {
        let rows = try database.query(
            """
            SELECT p.arena, p.name FROM accounts ac JOIN arena_players p ON p.account_id = ac.id JOIN arenas a ON a.name = p.arena
            WHERE ac.name_skeleton = $1 ORDER BY a.ends_at DESC, a.name LIMIT $2
            """, .text(PlayerName.skeleton(name)), .int(Int64(max(0, limit))))
        var played: [ProfileArena] = []
        for row in rows {
            guard let arena = try ArenaStore.load(try row.text(0), in: database) else { continue }
            played.append(ProfileArena(player: try row.text(1), arena: arena))
        }
        return played
    }
}

/// One arena of an account's profile: the arena as stored, and the name the account played under.
package struct ProfileArena: Sendable {
    package var player: String
    package var arena: StoredArena

    /// Its line in the profile's `arenas` at wall time `wall` (the arena's own time where it is
    /// held): name, variant, rated, state, the player's rank, score and games, how many players
    /// it has, and `wall`, when it ends or ended (Unix seconds, as a history's games say it).
    func line(at wall: Int64) -> JSONValue {
        let now = arena.arena(at: wall)
        let standings = now.standings
        let rank = standings.firstIndex { $0.name == player }
        let record = rank.map { standings[$0].record }
        return .object([
            "arena": .string(arena.name), "variant": .string(arena.variant.rawValue), "rated": .bool(arena.rated),
            "state": .string(ArenaState(now.phase).rawValue), "rank": .int(Int64((rank ?? standings.count) + 1)),
            "score": .int(Int64(record?.score ?? 0)), "games": .int(Int64(record?.games ?? 0)), "players": .int(Int64(standings.count)),
            "wall": .int(arena.endsAt / 1_000),
        ])
    }
}

extension SQLAccountStore {
    func profileArenas(ofAccountNamed name: String, limit: Int) throws(StoreError) -> [ProfileArena] {
        try Self.storing { () throws(DatabaseError) in try ArenaProfiles.played(byAccountNamed: name, limit: limit, in: database) }
    }
}
