import SetBot
import SetClient
import SetRules
import SetWire
import Testing

/// The arena bots' measures (issue 44's goals): waits from a duel's end to the next pairing, and
/// the standings shown to different bots compared by the games counted in them.
struct ArenaTallyTests {
    static func state(_ rows: [(String, Int, Int)]) -> ArenaView {
        ArenaView(header: ArenaHeader(arena: "a", variant: .classic, rated: true, state: .running, endsAt: 60_000), startsAt: 0,
                  standings: rows.enumerated().map { index, row in
                      ArenaEntry(rank: index + 1, name: row.0, score: row.1, games: row.2, wins: row.1 / 2, streak: 0, fire: false)
                  }, boards: [])
    }

    static let pairing = ArenaPairingNotice(arena: "a", match: "arena-a-2", token: "t", opponent: "bob")

    @Test func aWaitRunsFromADuelsEndToTheNextPairing() {
        var tally = ArenaTally()
        tally.heard(.paired(Self.pairing), by: "ann", at: Instant(milliseconds: 100))
        #expect(tally.pairingWaitsMs.isEmpty, "the first pairing follows no duel")
        tally.heard(.duelOver, by: "ann", at: Instant(milliseconds: 1_000))
        tally.heard(.duelOver, by: "bob", at: Instant(milliseconds: 1_100))
        tally.heard(.paired(Self.pairing), by: "bob", at: Instant(milliseconds: 1_150))
        tally.heard(.paired(Self.pairing), by: "ann", at: Instant(milliseconds: 3_000))
        #expect(tally.pairingWaitsMs == [50, 2_000])
        #expect(tally.pairingWaitMs(at: 0.5) == 50 && tally.pairingWaitMs(at: 0.99) == 2_000)
        #expect(tally.summary.hasPrefix("pairing after a game: 2 waits, p50 50 ms, p99 2000 ms, max 2000 ms"))
    }

    @Test func standingsWithAsManyGamesCountedMustBeTheSame() {
        var tally = ArenaTally()
        tally.heard(.state(Self.state([("ann", 2, 1), ("bob", 0, 1)])), by: "ann", at: Instant(milliseconds: 0))
        tally.heard(.state(Self.state([("ann", 2, 1), ("bob", 0, 1)])), by: "bob", at: Instant(milliseconds: 0))
        tally.heard(.state(Self.state([("ann", 4, 2), ("bob", 0, 2)])), by: "bob", at: Instant(milliseconds: 0))
        #expect(tally.disagreements == 0 && tally.statesSeen == 3)
        tally.heard(.state(Self.state([("bob", 2, 1), ("ann", 0, 1)])), by: "cat", at: Instant(milliseconds: 0))
        #expect(tally.disagreements == 1, "two tables after the same game counted")
        tally.heard(.state(Self.state([("ann", 0, 0), ("bob", 0, 0)])), by: "ann", at: Instant(milliseconds: 0))
        tally.heard(.state(Self.state([("ann", 0, 0), ("bob", 0, 0), ("cat", 0, 0)])), by: "bob", at: Instant(milliseconds: 0))
        #expect(tally.disagreements == 1, "a player joined in between: another state, not a disagreement")
    }
}
