import SetDatabase
import SetRules

// The `waiting` table: the unnamed duels waiting on a node for a second player of their variant.
// Only `pair` writes a row, in the same transaction that decides the player waits, so a row
// exists before its player is told they wait; only its own node deletes it (filled, left, stopped).
extension NodeDirectory {
    /// Decides, in one transaction, where an unnamed player of `variant` arriving here plays: in
    /// the oldest duel waiting on a live node (this node's first; a drained node's last, for it is
    /// to take no new players, but never hidden: two players would wait), or, when none waits, in a new
    /// duel here named `candidate`, whose row is written (a drained node sends them to pair on a
    /// node that is not, as `duel-NODE-0`). This node's rows of `variant` not in
    /// `keeping` (their duels filled or left) are deleted first. The store runs it SERIALIZABLE and
    /// runs it again when another node's decision crossed it, so two decisions never both write.
    func pair(_ variant: Variant, candidate: String, keeping: [String], at now: Int64) throws(DatabaseError) -> PairingDecision {
        try reach()
        return try database.transaction { () throws(DatabaseError) -> PairingDecision in
            try database.execute("DELETE FROM waiting WHERE node = $1 AND variant = $2 AND NOT (match = ANY($3::text[]))",
                                 .text(me.name), .text(variant.rawValue), .text(Self.textArray(keeping)))
            if let row = try database.row("""
                SELECT w.match, n.name, n.address FROM waiting w JOIN nodes n ON n.name = w.node
                WHERE w.variant = $1 AND n.lease_until > $2 ORDER BY w.node = $3 DESC, n.draining, w.since, w.match LIMIT 1
                """, .text(variant.rawValue), .int(now), .text(me.name)) {
                return .join(WaitingDuel(match: try row.text(0), node: try row.text(1), address: try row.text(2)))
            }
            // A drained node makes no new match: the player goes to pair on a live node that is
            // not drained, under a name of that node's unnamed duels that no duel has (its
            // number 0), which that node takes for "pair me" (Protocol.md); or, with none, nowhere.
            if try isDraining() {
                guard let row = try database.row("""
                    SELECT name, address FROM nodes WHERE lease_until > $1 AND draining = 0 AND name <> $2 ORDER BY name LIMIT 1
                    """, .int(now), .text(me.name)) else { return .drained }
                let node = try row.text(0)
                return .join(WaitingDuel(match: "\(Mode.duel.rawValue)-\(node)-0", node: node, address: try row.text(1)))
            }
            try database.execute("INSERT INTO waiting (match, node, variant, since) VALUES ($1, $2, $3, $4)",
                                 .text(candidate), .text(me.name), .text(variant.rawValue), .int(now))
            return .wait(match: candidate)
        }
    }

    /// Takes this node's rows for `matches` out of the store: their duels filled, or their
    /// player left, so nobody is sent there.
    func forgetWaiting(_ matches: [String]) throws(DatabaseError) {
        try reach()
        try database.execute("DELETE FROM waiting WHERE node = $1 AND match = ANY($2::text[])", .text(me.name), .text(Self.textArray(matches)))
    }

    /// Takes this node's waiting duels out of the store.
    func forgetWaiting() throws(DatabaseError) {
        try reach()
        try database.execute("DELETE FROM waiting WHERE node = $1", .text(me.name))
    }

}

/// A duel no one named, waiting for a second player on a node.
struct WaitingDuel: Equatable, Sendable {
    var match: String
    var node: String
    var address: String
}

/// Where the store sends an unnamed player (`NodeDirectory.pair`).
enum PairingDecision: Equatable, Sendable {
    /// Into the duel waiting there (on this node or another).
    case join(WaitingDuel)
    /// Nobody waits: the player waits in a new duel on this node, named `match`, whose row is written.
    case wait(match: String)
    /// Nobody waits, this node is drained, and no other live node is not: no new duel anywhere.
    case drained
}
