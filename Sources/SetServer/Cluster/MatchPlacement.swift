import SetDatabase

/// How a match's row in `match_homes` stays alive: by its node's lease alone (the `nodes` row a
/// renewal writes), not by a lease of its own, so a renewal writes one row however many matches
/// the node holds. What a match row still needs a time for is a *placement*: a row another node
/// (or this one) wrote for a new named match before any player came to make it. Its
/// `placed_until` is the deadline for that; the owning node clears it (NULL) when it writes the
/// match's listing, and deletes its rows still placed past their deadline.
enum MatchPlacement {
    /// Migration 5 of the accounts database (`SQLAccountSchema`). `lease_until` stays and is
    /// still filled in when a row is made, though no node reads it any more: nodes of the last
    /// version, still running during a rolling upgrade, renew and expire their own rows by it.
    /// An existing row counts as placed until its old lease: its node clears that when it writes
    /// its listings at its first renewal after starting on this version (every listing is new to
    /// a node that just started), and a row placed for a player still on their way waits for them.
    static let migration = Migration(version: 5, summary: "match_homes.placed_until: a match row lives by its node's lease; only a placement no player made expires") { _ in
        ["ALTER TABLE match_homes ADD COLUMN placed_until BIGINT",
         "UPDATE match_homes SET placed_until = lease_until",
         "CREATE INDEX match_homes_placed ON match_homes (node, placed_until) WHERE placed_until IS NOT NULL"]
    }
}

/// What `NodeDirectory.place` did for a new named match.
enum Placement: Equatable, Sendable {
    /// A row named the match already: it lives where that row says.
    case found(MatchHome)
    /// This call wrote the row: the match lives there once a player makes it before `until`
    /// (wall-clock milliseconds), and its row is forgotten otherwise.
    case placed(MatchHome, until: Int64)

    /// Where the match lives.
    var home: MatchHome {
        switch self {
        case .found(let home), .placed(let home, _): home
        }
    }
}
