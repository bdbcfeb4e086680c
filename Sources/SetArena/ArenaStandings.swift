/// The order of an arena's standings: score (highest first), then fewer games, then rating at
/// the start (none counts 1500), then name in code-point order. Before anyone scored this is the
/// rating order, which is what pairing starts from.
package enum ArenaStandings {
    /// Whether `a` ranks above `b`.
    package static func ranksAbove(_ a: ArenaPlayer, _ b: ArenaPlayer) -> Bool {
        if a.record.score != b.record.score { return a.record.score > b.record.score }
        if a.record.games != b.record.games { return a.record.games < b.record.games }
        if a.rankingRating != b.rankingRating { return a.rankingRating > b.rankingRating }
        return a.name.unicodeScalars.lexicographicallyPrecedes(b.name.unicodeScalars)
    }

    /// `players` in standings order (rank 1 first).
    package static func ordered(_ players: some Sequence<ArenaPlayer>) -> [ArenaPlayer] {
        players.sorted(by: ranksAbove)
    }

    /// The players with the top score, when it is above 0 (several on a tie of points).
    package static func winners(_ ordered: [ArenaPlayer]) -> [String] {
        guard let top = ordered.first?.record.score, top > 0 else { return [] }
        return ordered.prefix { $0.record.score == top }.map(\.name)
    }
}
