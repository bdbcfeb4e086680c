import SetDatabase

extension NodeDirectory {
    /// Writes the row of a new match this node makes for itself, not placed by rendezvous (an
    /// accepted challenge's duel, made on the lobby's node): placed here until `until` (wall
    /// milliseconds), when it is forgotten unless a player made it (as any placement is). False
    /// when a row already names the match.
    func claim(_ match: String, until: Int64) throws(DatabaseError) -> Bool {
        try reach()
        return try database.row("""
            INSERT INTO match_homes (match, node, lease_until, placed_until, mode, variant, state, seats, players, spectators)
            VALUES ($1, $2, $3, $3, 'duel', 'classic', 'waiting', 0, '[]', 0) ON CONFLICT (match) DO NOTHING RETURNING match
            """, .text(match), .text(me.name), .int(until)) != nil
    }
}
