import SetRatings
import SetRules

// What a finished game makes for the record, decided from facts read in (pure): the store that
// keeps the accounts reads them, and every store decides alike.
extension GameRecord {
    /// The record a finished game makes: rated when it is a duel of two accounts in which
    /// neither asked for a casual game and a set was taken, and the pair has not had its rated
    /// games for the day (`policy`), each rating moved by Glicko-2 with the game as its own
    /// rating period. `ratings` holds each seat's account that exists with its rating in the
    /// game's variant (an account not there, from an edited journal, is a guest);
    /// `pairGamesInWindow` is how many rated games the two seats' accounts played against each
    /// other since `wallSeconds - policy.pairWindowSeconds`.
    init(of finished: FinishedGame, ratings: [Int: Rating], pairGamesInWindow: Int, wallSeconds: Int64, journal: String,
         policy: RatingPolicy) {
        let result = finished.result
        let anySet = finished.seats.contains { $0.sets > 0 }
        let outcome: Outcome
        if finished.mode == .solo {
            outcome = .solo
        } else if !anySet {
            // As lichess aborts a game left before its first moves: leaving at once, by
            // resigning or never coming back, costs nobody a rating.
            outcome = .aborted
        } else {
            // Resigning and a seat-wait forfeit lose (the rules name the other seat winner);
            // equal points are a draw (no winner).
            outcome = result.winner == nil ? .draw : .win
        }
        var players = finished.seats.enumerated().map { seat, seated in
            Player(account: seated.account.flatMap { ratings[$0] == nil ? nil : $0 }, name: seated.name,
                   points: result.scores.indices.contains(seat) ? result.scores[seat] : 0, sets: seated.sets, setTimes: seated.setTimes)
        }
        let accountsOnly = players.count == 2 && players.allSatisfy { $0.account != nil } && players[0].account != players[1].account
        let rated = finished.mode == .duel && accountsOnly && !finished.seats.contains(where: \.casual)
            && (outcome == .win || outcome == .draw) && policy.ratesAnother(pairGamesInWindow: pairGamesInWindow)
        self.init(match: finished.match, game: finished.game, commitment: finished.commitment, mode: finished.mode,
                  variant: finished.variant, rated: rated, outcome: outcome, reason: result.reason, by: result.by,
                  winner: outcome == .win ? result.winner : nil, players: players, endedAt: finished.endedAt,
                  durationMs: finished.durationMs, wallSeconds: wallSeconds, journal: journal)
        guard rated, let first = players[0].account.flatMap({ ratings[$0] }), let second = players[1].account.flatMap({ ratings[$0] }) else { return }
        let before = [first, second]
        let glicko = Glicko2()
        for seat in 0..<2 {
            guard let score = score(of: seat) else { continue }
            players[seat].before = before[seat]
            players[seat].after = glicko.rated(before[seat], against: before[1 - seat], score: score)
        }
        self.players = players
    }

    /// The two accounts whose rated games against each other the decision counts, when the
    /// game has two seats of two different accounts.
    static func pair(of finished: FinishedGame) -> (Int, Int)? {
        guard finished.seats.count == 2, let first = finished.seats[0].account, let second = finished.seats[1].account, first != second else {
            return nil
        }
        return (first, second)
    }
}
