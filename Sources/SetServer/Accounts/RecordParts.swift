import SetRatings

/// What a game's record reads before it decides and writes (`SQLAccountStore.recordFacts`), in
/// one round trip: the accounts that exist with their rating and standing in the variant.
struct RecordFacts {
    /// An account's standing in the variant as the store keeps it.
    struct Kept {
        var games: Int
        var firstWall: Int64
        var lastWall: Int64
        /// Different accounts it played rated in the variant.
        var opponents: Int
    }

    /// A seat's account that exists.
    struct Account {
        /// Nil: it never played the variant rated.
        var rating: Rating?
        var standing: Kept?
        /// Whether it played the game's other account rated in the variant before.
        var playedOpponent = false
    }

    var accounts: [Int: Account] = [:]
    /// Whether a game with the commitment is recorded already.
    var keptGame = false
    /// The pair's rated games against each other in the policy's window.
    var pairGames = 0
}

/// One account's part in a recorded game: what its list of games, its counts and its set times
/// gain. An account in both seats (two terminals, one key) played itself: the game is its once.
struct RecordedPart {
    var account: Int
    /// Its first seat.
    var seat: Int
    var opponent: Int?
    /// `win`, `loss`, `draw`, `self`, or the game's outcome when nothing counted.
    var result: String
    var score: Score?
    var playedItself: Bool
    /// Its set times over every seat it held, counted by bucket (`SetTimes`' rounding: tenths of
    /// a second, kept as milliseconds, exact past 25.4 s), in bucket order.
    var setTimeBuckets: [(ms: Int, count: Int)]
    /// Its fastest set in the game, nil with none.
    var bestSetMs: Int?

    /// Each account's part in `game`, in seat order; guests have none.
    static func parts(of game: GameRecord) -> [RecordedPart] {
        var parts: [RecordedPart] = []
        for (seat, player) in game.players.enumerated() {
            guard let id = player.account, !parts.contains(where: { $0.account == id }) else { continue }
            let seats = game.players.indices.filter { game.players[$0].account == id }
            let playedItself = seats.count == 2
            let score = playedItself ? nil : game.score(of: seat)
            let times = seats.flatMap { game.players[$0].setTimes }.map { max(0, $0) }
            var buckets: [Int: Int] = [:]
            for ms in times {
                let tenths = (ms + 50) / 100
                buckets[tenths < 255 ? tenths * 100 : ms, default: 0] += 1
            }
            parts.append(RecordedPart(account: id, seat: seat, opponent: game.players.count == 2 ? game.players[1 - seat].account : nil,
                                      result: playedItself ? "self" : score.map(SQLAccountStore.resultText) ?? game.outcome.rawValue,
                                      score: score, playedItself: playedItself,
                                      setTimeBuckets: buckets.sorted { $0.key < $1.key }.map { (ms: $0.key, count: $0.value) },
                                      bestSetMs: times.min()))
        }
        return parts
    }
}

extension GameRecord {
    /// The two accounts of a rated game (a rated game is a duel of two different accounts).
    var ratedPair: (Int, Int)? {
        guard rated, players.count == 2, let first = players[0].account, let second = players[1].account else { return nil }
        return (first, second)
    }
}
