import SetDatabase

// One server per node name. Two servers started under one `--node` name would each serve that
// node's matches: a match would run twice. So a server marks the node's row with its own start
// (`nodes.started`), every renewal checks the mark is still its own, and a server starting under
// a name whose lease is still running watches the row before taking it: a holder that renews
// meanwhile is alive, and the newcomer refuses to start. The name is then taken atomically
// (`register(at:leaseMs:claiming:)`): only if the row is still as the newcomer last saw it, so of
// two servers starting at the same instant exactly one takes it. Nothing here compares clocks
// across machines: a holder is seen alive by its renewals, not by its lease's end.
extension NodeDirectory {
    /// The server holding this node's name now: its start mark and lease; nil when no row.
    func holder() throws(DatabaseError) -> NameHolder? {
        try database.row("SELECT started, lease_until FROM nodes WHERE name = $1", .text(me.name)).map { row throws(DatabaseError) in
            NameHolder(started: try row.int(0), leaseUntil: try row.int(1))
        }
    }

    /// Returns once this node's name may be taken at wall time `now`: when no row holds it, its
    /// lease has ended or was given back, or its holder did not renew it in `watchMs` (waited out
    /// in steps through `pause`, which sleeps in production). Throws when the holder renews it
    /// meanwhile, or another server takes it first. Returns the row as last seen (nil: none),
    /// which `register` takes the name over.
    @discardableResult
    func awaitName(at now: Int64, watchMs: Int64, stepMs: Int64 = 250, pause: (Int64) -> Void) throws(DatabaseError) -> NameHolder? {
        try reach()
        guard let first = try holder(), first.leaseUntil > now else { return try holder() }
        var watched: Int64 = 0
        while watched < watchMs {
            pause(stepMs)
            watched += stepMs
            guard let current = try holder() else { return nil }
            if current.started != first.started || current.leaseUntil > first.leaseUntil {
                throw DatabaseError(.uniqueViolation, """
                    another server is node \(me.name): it renewed the node's lease while this one waited \(watched) ms to take its name. \
                    Two servers under one name would play its matches twice; stop that one, or give this one another --node
                    """)
            }
            if current.leaseUntil < first.leaseUntil { return current }  // given back by a server stopping
        }
        return first
    }

    /// Gives this node's lease back as it stops at wall time `now`, if the row is still this
    /// server's: its matches are away at once rather than a lease later, and a restart need not
    /// wait to take the name.
    func release(at now: Int64) throws(DatabaseError) {
        try reach()
        try database.execute("UPDATE nodes SET lease_until = $1 WHERE name = $2 AND started = $3 AND lease_until > $1",
                             .int(now), .text(me.name), .int(startMark))
    }
}

/// Whose a node's name is in the store: the start mark of the server that holds it, and its lease.
struct NameHolder: Equatable, Sendable {
    var started: Int64
    var leaseUntil: Int64
}
