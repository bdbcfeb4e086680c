import SetArena
import SetRules
import Testing

/// Issue 44: an arena's life on values alone: phases, pairing on every change, no-shows,
/// pausing, leaving and coming back, and a restore that recounts the same standings.
@Suite struct ArenaTests {
    static func arena(_ names: [String], ratings: [Int?] = []) -> Arena {
        var arena = Arena(startsAt: 1_000, endsAt: 61_000, now: 0)
        for (index, name) in names.enumerated() {
            let step = arena.join(ArenaEntrant(name: name, rating: index < ratings.count ? ratings[index] : nil), at: 0)
            #expect(step.pairings.isEmpty, "nobody is paired while starting")
        }
        return arena
    }

    static func names(_ games: [ArenaGame]) -> [[String]] { games.map(\.players) }

    @Test func theStartPairsByRatingAndTheEndPairsNobody() {
        var arena = Self.arena(["a", "b", "c", "d"], ratings: [1400, 1800, 1500, 1900])
        #expect(arena.phase == .starting && arena.nextDeadline == 1_000)
        let start = arena.advance(to: 1_000)
        #expect(arena.phase == .running && arena.nextDeadline == 61_000)
        #expect(Self.names(start.pairings) == [["d", "b"], ["c", "a"]])
        #expect(start.pairings.map(\.number) == [1, 2])
        #expect(arena.advance(to: 61_000).changed)
        #expect(arena.phase == .finished && !arena.isFinal)
        // Games under way finish and count; nobody is paired again.
        let end = arena.end(game: 1, .played(winner: "d"), at: 62_000)
        #expect(end.changed && end.pairings.isEmpty)
        #expect(arena.players["d"]?.record.score == 2)
        _ = arena.end(game: 2, .played(winner: nil), at: 63_000)
        #expect(arena.isFinal && arena.boards.isEmpty)
        #expect(arena.join(ArenaEntrant(name: "late"), at: 64_000).refusal == .over)
    }

    @Test func aGameCountsOnce() {
        var arena = Self.arena(["a", "b"])
        let game = arena.advance(to: 1_000).pairings[0]
        #expect(arena.end(game: game.number, .played(winner: "a"), at: 2_000).refusal == nil)
        #expect(arena.end(game: game.number, .played(winner: "a"), at: 2_000).refusal == .unknownGame)
        #expect(arena.players["a"]?.record.games == 1)
    }

    @Test func theNextPairingComesWithTheGamesEndAndNeverTheSameOpponentAgainAtOnce() {
        var arena = Self.arena(["a", "b", "c"], ratings: [1900, 1800, 1700])
        #expect(Self.names(arena.advance(to: 1_000).pairings) == [["a", "b"]])
        // c waits alone; a and b come free: each is paired with c rather than again together.
        let next = arena.end(game: 1, .played(winner: "a"), at: 5_000)
        #expect(Self.names(next.pairings) == [["a", "c"]])
        #expect(arena.players["b"]?.playing == nil)
        // c (2 in 1) tops a (2 in 2); c and a just played, so c takes b and a waits.
        #expect(Self.names(arena.end(game: 2, .played(winner: "c"), at: 9_000).pairings) == [["c", "b"]])
    }

    @Test func twoWhoJustPlayedWaitWhileAThirdIsBusy() {
        var arena = Self.arena(["a", "b", "c", "d"], ratings: [1900, 1800, 1700, 1600])
        _ = arena.advance(to: 1_000)                                  // a–b, c–d
        let step = arena.end(game: 1, .played(winner: "a"), at: 5_000)
        #expect(step.pairings.isEmpty, "a and b just played; c and d will be free")
        #expect(Self.names(arena.end(game: 2, .played(winner: "c"), at: 6_000).pairings) == [["a", "c"], ["b", "d"]])
    }

    /// Their wait is bounded: if no other duel ends within `repeatAfterMs`, the two play again
    /// (the arena's timer comes then), so nobody sits out a whole duel for want of a new opponent.
    @Test func twoWhoJustPlayedPlayAgainIfNobodyComesFreeSoon() {
        var arena = Self.arena(["a", "b", "c", "d"], ratings: [1900, 1800, 1700, 1600])
        _ = arena.advance(to: 1_000)                                  // a–b, c–d
        #expect(arena.end(game: 1, .played(winner: "a"), at: 5_000).pairings.isEmpty)
        #expect(arena.strandedSince == 5_000 && arena.nextDeadline == 5_000 + Arena.repeatAfterMs)
        #expect(arena.advance(to: 5_000 + Arena.repeatAfterMs - 1).pairings.isEmpty, "still waiting")
        let again = arena.advance(to: 5_000 + Arena.repeatAfterMs)
        #expect(Self.names(again.pairings) == [["a", "b"]] && again.changed)
        #expect(arena.strandedSince == nil && arena.nextDeadline == 61_000)
        // The other duel ending meanwhile is no wait: c and d are the two left, and wait in turn.
        #expect(arena.end(game: 2, .played(winner: "c"), at: 7_000).pairings.isEmpty && arena.strandedSince == 7_000)
    }

    @Test func twoNoShowsInARowPauseAndAPlayedGameResetsTheCount() throws {
        var arena = Self.arena(["a", "b"])
        var game = try #require(arena.advance(to: 1_000).pairings.first)
        game = try #require(arena.end(game: game.number, .noShow(absent: ["b"]), at: 2_000).pairings.first)
        #expect(arena.players["a"]?.record.score == 2 && arena.players["b"]?.record.games == 1)
        game = try #require(arena.end(game: game.number, .played(winner: "b"), at: 3_000).pairings.first)
        game = try #require(arena.end(game: game.number, .noShow(absent: ["b"]), at: 4_000).pairings.first)
        #expect(arena.players["b"]?.playing == game.number, "played in between: one no-show in a row, paired again")
        let paused = arena.end(game: game.number, .noShow(absent: ["b"]), at: 5_000)
        #expect(paused.pairings.isEmpty)
        #expect(arena.players["b"]?.presence == .paused(.noShows))
        #expect(Self.names(arena.resume("b", at: 6_000).pairings) == [["a", "b"]])
    }

    @Test func aPauseDuringAGameTakesHoldWhenItEndsAndAResumePairs() {
        var arena = Self.arena(["a", "b"])
        let game = arena.advance(to: 1_000).pairings[0]
        #expect(!arena.pause("a", at: 2_000).changed)
        #expect(arena.end(game: game.number, .played(winner: "a"), at: 3_000).pairings.isEmpty)
        #expect(arena.players["a"]?.presence == .paused(.asked))
        #expect(arena.resume("a", at: 4_000).pairings.count == 1)
        #expect(arena.pause("zed", at: 5_000).refusal == .notInArena)
    }

    @Test func leavingAndComingBackKeepsThePointsAndTheLastOpponent() {
        var arena = Self.arena(["a", "b", "c", "d"], ratings: [1900, 1800, 1700, 1600])
        #expect(Self.names(arena.advance(to: 1_000).pairings) == [["a", "b"], ["c", "d"]])
        _ = arena.pause("a", .left, at: 1_500)
        #expect(arena.end(game: 1, .played(winner: "a"), at: 2_000).pairings.isEmpty)
        #expect(arena.players["a"]?.presence == .paused(.left))
        // Back at once: a keeps the points, and b (free, a's last opponent) is not offered again.
        let back = arena.join(ArenaEntrant(name: "a"), at: 2_500)
        #expect(back.pairings.isEmpty)
        #expect(arena.players["a"]?.record.score == 2 && arena.players["a"]?.presence == .active)
        #expect(Self.names(arena.end(game: 2, .played(winner: "c"), at: 3_000).pairings) == [["a", "c"], ["b", "d"]])
    }

    /// A random arena played to its end: restoring it from what the store holds (players, ended
    /// games in the order counted, games under way) gives the same standings at every step.
    @Test(arguments: [1, 2, 3, 4, 5]) func aRestoreRecountsTheSameStandings(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let entrants = (0..<9).map { ArenaEntrant(name: "p\($0)", rating: random.uniform(below: 2) == 0 ? nil : 1200 + random.uniform(below: 800)) }
        var arena = Arena(startsAt: 0, endsAt: 100_000, now: 0)
        var ended: [(ArenaGame, ArenaGameEnd)] = []
        var pauses: [String: ArenaPause] = [:]
        var dealt: [Int: ArenaGame] = [:]
        for entrant in entrants { for game in arena.join(entrant, at: 0).pairings { dealt[game.number] = game } }
        var time: Int64 = 0
        while !arena.isFinal {
            time += Int64(500 + random.uniform(below: 3_000))
            if random.uniform(below: 10) == 0 {
                let name = entrants[random.uniform(below: entrants.count)].name
                if random.uniform(below: 2) == 0 { _ = arena.pause(name, at: time) } else {
                    for game in arena.resume(name, at: time).pairings { dealt[game.number] = game }
                }
            } else if let game = arena.boards.randomElement(using: &random) {
                let end: ArenaGameEnd = switch random.uniform(below: 5) {
                case 0: .played(winner: nil)
                case 1: .noShow(absent: [game.players[random.uniform(below: 2)]])
                default: .played(winner: game.players[random.uniform(below: 2)])
                }
                ended.append((game, end))
                for next in arena.end(game: game.number, end, at: time).pairings { dealt[next.number] = next }
            } else {
                _ = arena.advance(to: time)
            }
            for (name, player) in arena.players {
                if case .paused(let pause) = player.presence { pauses[name] = pause } else { pauses[name] = nil }
            }
            let restored = Arena.restored(startsAt: 0, endsAt: 100_000, now: time,
                                          players: entrants.map { ($0, pauses[$0.name]) }, ended: ended, underWay: arena.boards)
            #expect(restored.standings.map(\.record) == arena.standings.map(\.record))
            #expect(restored.standings.map(\.name) == arena.standings.map(\.name))
            #expect(restored.boards == arena.boards && restored.nextGame == arena.nextGame)
            #expect(restored.standings.map(\.lastOpponent) == arena.standings.map(\.lastOpponent))
        }
        #expect(ended.count == dealt.count, "every dealt game ended and counted once")
    }
}
