import SetDatabase

/// The store's clock, which every node's leases are times on: each node reads it once at its
/// start and counts on from there with its own monotonic clock, so no node's wall clock (which
/// may be minutes off on a machine without NTP) ever enters a lease. Nodes then agree with the
/// database, and with one another, to within the round trip of that one reading plus the drift of
/// their monotonic clocks (parts per million: milliseconds a day against a 10 s lease).
enum DatabaseClock {
    /// The statement that reads the database's clock now, in milliseconds since 1970:
    /// `clock_timestamp()` is the statement's own instant (`now()` would be the transaction's).
    static let nowSQL = "SELECT CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS BIGINT)"

    /// Wall-clock milliseconds at the server clock's zero, from a reading of the database's clock
    /// (`databaseMs`) taken between the server clock's `sentMs` and `answeredMs`: the reading is
    /// placed at the middle of the round trip, so the error is at most half of it.
    static func base(databaseMs: Int64, sentMs: Int64, answeredMs: Int64) -> Int64 {
        databaseMs - (sentMs + (answeredMs - sentMs) / 2)
    }

    /// The database's clock now, in milliseconds since 1970.
    static func read(_ database: Database) throws(DatabaseError) -> Int64 {
        guard let row = try database.row(nowSQL) else { throw DatabaseError(.invalidStatement, "the database gave no time") }
        return try row.int(0)
    }
}
