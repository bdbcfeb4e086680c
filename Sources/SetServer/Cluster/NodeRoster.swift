import SetDatabase

/// What an operator does to the nodes sharing a store (`setgame nodes`), straight on the store,
/// with no node running: list them, drain one before it is taken away for good (it keeps its
/// matches and takes no new ones), and forget one that will never come back (its unfinished
/// matches are gone with its data folder; their names are free again). Every time is handed in,
/// on the database's clock (`now()`).
package struct NodeRoster {
    let database: Database

    package init(database: Database) {
        self.database = database
    }

    /// Opens the store at `url` and brings its schema up to date, as a node starting would.
    package static func open(url: String, wallSeconds: Int64) throws(NodeRosterError) -> NodeRoster {
        do {
            let database = try PostgresDatabase(url: url)
            try Migrations.run(SQLAccountSchema.migrations, on: database, wallSeconds: wallSeconds)
            return NodeRoster(database: database)
        } catch {
            throw NodeRosterError(.store, "cannot open the store: \(error)")
        }
    }

    /// Every node the store knows, by name, as it stands at `now`.
    package func nodes(at now: Int64) throws(NodeRosterError) -> [NodeStanding] {
        try store { () throws(DatabaseError) in
            try database.query("""
                SELECT n.name, n.address, n.lease_until, n.draining, COUNT(h.match) FROM nodes n LEFT JOIN match_homes h ON h.node = n.name AND h.seats > 0
                GROUP BY n.name, n.address, n.lease_until, n.draining ORDER BY n.name
                """).map { row throws(DatabaseError) in
                let until: Int64 = try row.int(2), draining: Int64 = try row.int(3)
                return NodeStanding(name: try row.text(0), address: try row.text(1),
                                    state: until <= now ? .away(sinceMs: until) : draining != 0 ? .draining(sinceMs: draining) : .serving,
                                    matches: try row.int(4))
            }
        }
    }

    /// Asks `name` to take no new matches from `now` on (`draining`), or to take them again. The
    /// node reads it back at its next renewal, and its `health` then says it is not ready.
    package func drain(_ name: String, _ draining: Bool, at now: Int64) throws(NodeRosterError) {
        _ = try standing(of: name, at: now)
        try store { () throws(DatabaseError) in try database.execute("UPDATE nodes SET draining = $1 WHERE name = $2", .int(draining ? max(now, 1) : 0), .text(name)) }
    }

    /// Forgets a node that is away for good: its row, the rows of the matches it held, and its
    /// waiting duels. Refused while its lease runs: a node that serves is stopped first. Returns
    /// the names of the unfinished matches forgotten with it.
    package func forget(_ name: String, at now: Int64) throws(NodeRosterError) -> [String] {
        let standing = try standing(of: name, at: now)
        guard case .away = standing.state else {
            throw NodeRosterError(.nodeAlive, "node \(name) is alive (it renewed its lease less than a lease ago); stop it before forgetting it")
        }
        return try store { () throws(DatabaseError) in
            var forgotten: [String] = []
            try database.transaction { () throws(DatabaseError) in
                // Taken again under the transaction: a node that renewed meanwhile is not forgotten.
                guard let row = try database.row("SELECT lease_until FROM nodes WHERE name = $1 FOR UPDATE", .text(name)),
                      (try row.int(0) as Int64) <= now else { return }
                forgotten = try database.query("SELECT match FROM match_homes WHERE node = $1 AND seats > 0 ORDER BY match", .text(name))
                    .map { row throws(DatabaseError) in try row.text(0) }
                try database.execute("DELETE FROM waiting WHERE node = $1", .text(name))
                try database.execute("DELETE FROM match_homes WHERE node = $1", .text(name))
                try database.execute("DELETE FROM nodes WHERE name = $1", .text(name))
            }
            return forgotten
        }
    }

    private func standing(of name: String, at now: Int64) throws(NodeRosterError) -> NodeStanding {
        guard let standing = try nodes(at: now).first(where: { $0.name == name }) else {
            throw NodeRosterError(.unknownNode, "the store knows no node named \(name)")
        }
        return standing
    }

    /// The database's clock now: the one the nodes' leases are times on (`DatabaseClock`), so a
    /// lease is judged the same here as by the nodes, whatever this machine's clock says.
    package func now() throws(NodeRosterError) -> Int64 {
        try store { () throws(DatabaseError) in try DatabaseClock.read(database) }
    }

    func store<T>(_ body: () throws(DatabaseError) -> T) throws(NodeRosterError) -> T {
        do { return try body() } catch { throw NodeRosterError(.store, "the store failed: \(error)") }
    }
}

/// One node as the store has it.
package struct NodeStanding: Equatable, Sendable {
    package enum State: Equatable, Sendable {
        /// Its lease runs, and it takes new matches.
        case serving
        /// Its lease runs; an operator drains it since this wall-clock millisecond.
        case draining(sinceMs: Int64)
        /// Its lease ended at this wall-clock millisecond: stopped, dead or cut off.
        case away(sinceMs: Int64)
    }

    package var name: String
    package var address: String
    package var state: State
    /// Matches it holds that a player made (placed rows no player came to are not counted).
    package var matches: Int

    package init(name: String, address: String, state: State, matches: Int) {
        self.name = name
        self.address = address
        self.state = state
        self.matches = matches
    }
}

/// Why `setgame nodes` could not do what it was asked.
package struct NodeRosterError: Error, Equatable, CustomStringConvertible {
    package enum Code: String, Sendable {
        case store = "store_failed"
        case unknownNode = "unknown_node"
        case nodeAlive = "node_alive"
        case badEntry = "bad_entry"
    }

    package let code: Code
    package let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
