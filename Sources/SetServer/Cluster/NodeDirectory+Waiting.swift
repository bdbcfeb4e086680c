import SetDatabase
import SetRules

// The `waiting` table: the unnamed duels waiting on a node for a second player of their variant.
extension NodeDirectory {
    /// Takes this node's waiting duels out of the store.
    func forgetWaiting() throws(DatabaseError) {
        try reach()
        try database.execute("DELETE FROM waiting WHERE node = $1", .text(me.name))
    }

    /// The oldest duel of `variant` waiting for a player on another live node, if any.
    func waitingDuel(_ variant: Variant, at now: Int64) throws(DatabaseError) -> WaitingDuel? {
        try reach()
        guard let row = try database.row("""
            SELECT w.match, n.name, n.address FROM waiting w JOIN nodes n ON n.name = w.node
            WHERE w.variant = $1 AND w.node <> $2 AND n.lease_until > $3 ORDER BY w.since, w.match LIMIT 1
            """, .text(variant.rawValue), .text(me.name), .int(now)) else { return nil }
        return WaitingDuel(match: try row.text(0), node: try row.text(1), address: try row.text(2))
    }
}

/// A duel no one named, waiting for a second player on another node.
struct WaitingDuel: Equatable, Sendable {
    var match: String
    var node: String
    var address: String
}
