import SetRatings
import SetRules

// The facts `RatingPolicy` judges, read from the book's games.
extension AccountBook {
    /// An account's rated record in a variant: games, different opponents (up to `cap`), and
    /// the wall-clock span they cover.
    func standing(of id: Int, in variant: Variant, keeping cap: Int) -> Standing {
        var standing = Standing()
        guard let account = account(id) else { return standing }
        for index in account.games {
            let game = games.stored(Int(index))
            guard game.rated, game.variantValue == variant else { continue }
            let opponent = (0..<game.seatCount).lazy.compactMap { game.account(of: $0) }.first { $0 != id }
            standing.add(opponent: opponent, wall: Int64(game.wallSeconds), keeping: cap)
        }
        return standing
    }

    /// Rated games `first` and `second` played against each other at or after `since` (wall
    /// seconds). Read from `first`'s newest games back, so it costs the day's games, not a career.
    func ratedGamesOfPair(_ first: Int, _ second: Int, since: Int64) -> Int {
        guard let account = account(first) else { return 0 }
        var count = 0
        for index in account.games.reversed() {
            let game = games.stored(Int(index))
            guard Int64(game.wallSeconds) >= since else { break }
            if game.rated && (0..<game.seatCount).contains(where: { game.account(of: $0) == second }) { count += 1 }
        }
        return count
    }
}
