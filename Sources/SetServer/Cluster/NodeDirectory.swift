import SetDatabase
import SetRules
import SetWire

/// The nodes sharing one store, and where each match lives, over the `nodes`, `match_homes` and
/// `waiting` tables (migration 2). Called only from its worker thread (a `SerialWorker`), one call at
/// a time; every time is wall-clock milliseconds handed in.
final class NodeDirectory {
    let database: Database
    let me: NodeIdentity
    private let faults: NodeFaults?
    /// This server's mark on its node's row (`nodes.started`): the wall time it registered at,
    /// moved on by one if the row already had it. Each renewal checks the row still has it.
    private(set) var startMark: Int64 = 0

    init(database: Database, me: NodeIdentity, faults: NodeFaults?) {
        self.database = database
        self.me = me
        self.faults = faults
    }

    /// Match names as a PostgreSQL text array literal. Names are 1–32 of A–Z a–z 0–9 - _ . (the
    /// wire allows no other), each quoted: safe in an array literal.
    static func textArray(_ names: [String]) -> String {
        "{" + names.map { "\"\($0)\"" }.joined(separator: ",") + "}"
    }

    /// Fails as an unreachable store would while the test's switch says so.
    func reach() throws(DatabaseError) {
        if faults?.unreachable == true { throw DatabaseError(.unavailable, "the store is unreachable from node \(me.name) (a test cut it off)") }
    }

    // MARK: Leases

    /// Writes this node's row (made or taken back after a restart) with a fresh lease, taking the
    /// name as the row is now: the matches whose rows name it are alive again with it.
    func register(at now: Int64, leaseMs: Int64) throws(DatabaseError) -> NodeLease {
        try register(at: now, leaseMs: leaseMs, claiming: try holder())
    }

    /// Takes this node's name over `found`, the row as this server last saw it (nil: none), in
    /// one statement: the row is written only if it is still as found, so of two servers starting
    /// under one name at the same instant exactly one takes it, and the other throws
    /// `uniqueViolation` (and serves nothing, writes no row, deletes none).
    func register(at now: Int64, leaseMs: Int64, claiming found: NameHolder?) throws(DatabaseError) -> NodeLease {
        try reach()
        var lease = NodeLease.renewed(at: now, for: leaseMs)
        let mark = found?.started == now ? now + 1 : now
        try database.transaction { () throws(DatabaseError) in
            guard let row = try database.row("""
                INSERT INTO nodes (name, address, lease_until, started) VALUES ($1, $2, $3, $4)
                ON CONFLICT (name) DO UPDATE SET address = excluded.address, lease_until = excluded.lease_until, started = excluded.started
                WHERE nodes.started = $5 AND nodes.lease_until = $6
                RETURNING draining
                """, .text(me.name), .text(me.address), .int(lease.until), .int(mark),
                found.map { .int($0.started) } ?? .null, found.map { .int($0.leaseUntil) } ?? .null) else {
                throw DatabaseError(.uniqueViolation, """
                    another server took the name node \(me.name) as this one started: two servers under one name would play its \
                    matches twice; this one stops (give it another --node)
                    """)
            }
            lease.draining = try row.int(0) as Int64 != 0
        }
        startMark = mark
        return lease
    }

    /// Renews this node's lease (its matches live by it: no match row is written for that),
    /// writes what changed of their listings, and forgets the matches it no longer holds and rows
    /// placed on it that no player came to make in time: one transaction. (Waiting duels are
    /// written as they are decided, `NodeDirectory+Waiting`.)
    func renew(_ sync: NodeSync) throws(DatabaseError) -> NodeLease {
        try reach()
        var lease = NodeLease.renewed(at: sync.now, for: sync.leaseMs)
        try database.transaction { () throws(DatabaseError) in
            // Made again if an operator forgot this node while it was cut off (`setgame nodes
            // forget`); renewed only while the row bears this server's mark (NodeDirectory+Name).
            guard let row = try database.row("""
                INSERT INTO nodes (name, address, lease_until, started) VALUES ($1, $2, $3, $4)
                ON CONFLICT (name) DO UPDATE SET lease_until = excluded.lease_until, address = excluded.address
                WHERE nodes.started = excluded.started
                RETURNING draining
                """, .text(me.name), .text(me.address), .int(lease.until), .int(startMark)) else {
                throw DatabaseError(.uniqueViolation, "another server registered as node \(me.name): this one no longer holds the name, and serves none of its matches")
            }
            lease.draining = try row.int(0) as Int64 != 0
            // Listings first: writing one makes its match (clears a placement) before the sweep below.
            for listing in sync.listings { try write(listing, lease: lease) }
            for name in sync.gone { try database.execute("DELETE FROM match_homes WHERE match = $1 AND node = $2", .text(name), .text(me.name)) }
            if let held = sync.held {
                try database.execute("DELETE FROM match_homes WHERE node = $1 AND placed_until IS NULL AND NOT (match = ANY($2::text[]))",
                                     .text(me.name), .text(Self.textArray(held)))
            }
            try database.execute("DELETE FROM match_homes WHERE node = $1 AND placed_until <= $2", .text(me.name), .int(sync.now))
        }
        return lease
    }

    /// Whether an operator drains this node (`setgame nodes drain`), as its row says.
    func isDraining() throws(DatabaseError) -> Bool {
        try database.row("SELECT draining FROM nodes WHERE name = $1", .text(me.name)).map { row throws(DatabaseError) in try row.int(0) as Int64 } ?? 0 != 0
    }

    /// A listing row of this node's: made if the match has none, updated if the row is this
    /// node's (which makes a match placed on it), left alone if another node holds the name.
    private func write(_ listing: MatchListing, lease: NodeLease) throws(DatabaseError) {
        let players = JSONWriter.string(ServerMessageCoding.encode(listing)["players"] ?? .array([]))
        try database.execute("""
            INSERT INTO match_homes (match, node, lease_until, placed_until, mode, variant, state, seats, players, spectators)
            VALUES ($1, $2, $3, NULL, $4, $5, $6, $7, $8, $9)
            ON CONFLICT (match) DO UPDATE SET placed_until = NULL, mode = excluded.mode, variant = excluded.variant,
                state = excluded.state, seats = excluded.seats, players = excluded.players, spectators = excluded.spectators
            WHERE match_homes.node = excluded.node
            """, .text(listing.name), .text(me.name), .int(lease.until), .text(listing.mode.rawValue), .text(listing.variant.rawValue),
            .text(listing.phase.rawValue), .int(listing.players.count), .text(players), .int(listing.spectators))
    }

    // MARK: Where matches live

    /// Where `match` lives, as its row says, with its node's lease; nil when no row names it.
    func home(of match: String) throws(DatabaseError) -> MatchHome? {
        try reach()
        guard let row = try database.row("""
            SELECT h.node, n.address, n.lease_until FROM match_homes h LEFT JOIN nodes n ON n.name = h.node WHERE h.match = $1
            """, .text(match)) else { return nil }
        return MatchHome(node: try row.text(0), address: try row.optionalText(1) ?? "",
                         lease: NodeLease(until: try row.optionalInt(2).map(Int64.init) ?? 0))
    }

    /// The nodes alive at `now`, by name.
    func liveNodes(at now: Int64) throws(DatabaseError) -> [String] {
        try reach()
        return try database.query("SELECT name FROM nodes WHERE lease_until > $1 ORDER BY name", .int(now)).map { row throws(DatabaseError) in try row.text(0) }
    }

    /// The nodes a new match may be placed on at `now`, by name: those not drained that are alive,
    /// and this one unless it is drained (it serves, or it would not be asked). Empty: every node
    /// is drained.
    func placeableNodes(at now: Int64) throws(DatabaseError) -> [String] {
        try reach()
        return try database.query("SELECT name FROM nodes WHERE (lease_until > $1 OR name = $2) AND draining = 0 ORDER BY name",
                                  .int(now), .text(me.name))
            .map { row throws(DatabaseError) in try row.text(0) }
    }

    /// Where a new match named `match` lives: the node its row names if it has one; else the node
    /// rendezvous hashing picks among the placeable ones (alive, not drained), claimed by inserting
    /// the row, placed until a lease from now (a row another node inserted first wins, and is what
    /// is answered). Nil: the match is new and every node is drained, so none makes it.
    func placeMatch(_ match: String, at now: Int64, leaseMs: Int64) throws(DatabaseError) -> Placement? {
        if let home = try home(of: match) { return .found(home) }
        let nodes = try placeableNodes(at: now)
        guard !nodes.isEmpty else { return nil }
        return try claim(match, on: Rendezvous.home(of: match, among: nodes) ?? me.name, at: now, leaseMs: leaseMs)
    }

    /// Where a room that must live somewhere (the lobby) is: as `placeMatch`, but on this node when
    /// every node is drained, since a drain stops new matches, not the service.
    func place(_ match: String, at now: Int64, leaseMs: Int64) throws(DatabaseError) -> Placement {
        if let home = try home(of: match) { return .found(home) }
        let chosen = Rendezvous.home(of: match, among: try placeableNodes(at: now)) ?? me.name
        return try claim(match, on: chosen, at: now, leaseMs: leaseMs)
    }

    /// Claims `match` for `node` by inserting its row, placed until a lease from `now`; a row
    /// another node inserted first wins, and is what is answered.
    private func claim(_ match: String, on chosen: String, at now: Int64, leaseMs: Int64) throws(DatabaseError) -> Placement {
        let deadline = now + leaseMs
        let inserted = try database.row("""
            INSERT INTO match_homes (match, node, lease_until, placed_until, mode, variant, state, seats, players, spectators)
            VALUES ($1, $2, $3, $3, 'duel', 'classic', 'waiting', 0, '[]', 0) ON CONFLICT (match) DO NOTHING RETURNING match
            """, .text(match), .text(chosen), .int(deadline)) != nil
        guard let home = try home(of: match) else { throw DatabaseError(.unavailable, "the row of \(match) vanished as it was placed") }
        return inserted ? .placed(home, until: deadline) : .found(home)
    }

    /// Which of `matches` are still placed, not yet made into a match by a player on their node
    /// (a match made, or a row forgotten, is not among them).
    func stillPlaced(_ matches: [String]) throws(DatabaseError) -> Set<String> {
        try reach()
        guard !matches.isEmpty else { return [] }
        let rows = try database.query("SELECT match FROM match_homes WHERE match = ANY($1::text[]) AND placed_until IS NOT NULL", .text(Self.textArray(matches)))
        return Set(try rows.map { row throws(DatabaseError) in try row.text(0) })
    }

    /// The listings of every match on other live nodes, each with its node's address.
    func otherListings(at now: Int64) throws(DatabaseError) -> [MatchListing] {
        try reach()
        let rows = try database.query("""
            SELECT h.match, h.mode, h.variant, h.state, h.players, h.spectators, n.address FROM match_homes h JOIN nodes n ON n.name = h.node
            WHERE h.node <> $1 AND n.lease_until > $2 AND h.seats > 0 ORDER BY h.match
            """, .text(me.name), .int(now))
        return rows.compactMap { row in try? Self.listing(row) }
    }

    private static func listing(_ row: Row) throws -> MatchListing {
        let players = try JSONParser.parse(try row.text(4))
        var members: [String: JSONValue] = [
            "name": .string(try row.text(0)), "mode": .string(try row.text(1)), "variant": .string(try row.text(2)),
            "state": .string(try row.text(3)), "players": players, "spectators": .int(try row.int(5) as Int64)]
        members["address"] = .string(try row.text(6))
        return try ServerMessageCoding.listing(members)
    }
}

/// Where a match lives: its node, the address clients reach it at, and the node's lease.
struct MatchHome: Equatable, Sendable {
    var node: String
    var address: String
    var lease: NodeLease
}

extension MatchListing {
    /// What a node keeps of its match in the store for other nodes' lists: who sits where (names,
    /// ratings, presence), spectators and state, without the running scores, so a renewal writes
    /// a match again only when someone comes or goes, not at every set.
    var storedSummary: MatchListing {
        var summary = self
        summary.players = players.map { player in
            var kept = player
            kept.score = 0
            return kept
        }
        return summary
    }
}

/// What a node writes at each renewal.
struct NodeSync: Sendable {
    /// Wall-clock milliseconds of the renewal, and how long its lease is for.
    var now: Int64
    var leaseMs: Int64
    /// The listings of this node's matches that changed since the last renewal written.
    var listings: [MatchListing]
    /// Matches this node no longer holds.
    var gone: [String]
    /// Every match this node holds, sent once after the node starts: the rows of matches it had
    /// made and holds no more (ended while it was away) are forgotten. Nil: as they were.
    var held: [String]?
}
