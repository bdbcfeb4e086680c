import SetRatings
import SetRules
import SetWire

/// The answers to account questions, built from the book as Protocol.md shows them.
enum AccountReplies {
    static func profile(_ name: String, in book: AccountBook) -> Result<AccountInfo, WireError> {
        guard let account = book.account(named: name) else { return .failure(noSuchPlayer(name)) }
        var perVariant: [String: JSONValue] = [:]
        var counts: [Variant: Int] = [:]
        var selfGames = 0
        for index in account.games {
            let game = book.games.stored(Int(index))
            if game.rated { counts[game.variantValue, default: 0] += 1 }
            if game.seatCount == 2 && game.account(of: 0) == game.account(of: 1) { selfGames += 1 }
        }
        for variant in Variant.allCases {
            guard let rating = account.ratings[variant] else { continue }
            perVariant[variant.rawValue] = ["rating": .int(Int64(rating.rounded)), "deviation": .int(Int64(rating.deviation.rounded())),
                                            "provisional": .bool(rating.isProvisional), "games": .int(Int64(counts[variant] ?? 0))]
        }
        var fields: [String: JSONValue] = [
            "name": .string(account.name), "bot": .bool(account.bot), "ratings": .object(perVariant),
            "games": .int(Int64(account.games.count)), "wins": .int(Int64(account.wins)), "losses": .int(Int64(account.losses)),
            "draws": .int(Int64(account.draws))]
        // Games against itself (one account in both seats) are neither wins, losses nor draws.
        if selfGames > 0 { fields["selfGames"] = .int(Int64(selfGames)) }
        if let best = account.setTimes.best, let median = account.setTimes.median {
            fields["bestSetMs"] = .int(Int64(best))
            fields["medianSetMs"] = .int(Int64(median))
        }
        return .success(AccountInfo(.profile, fields))
    }

    /// A player's games, newest first, as the reply's whole line; `after` is the `next` of an
    /// earlier page. Written straight into bytes (`HistoryPage`): it is the account question
    /// asked most, and its twenty games would otherwise be some sixty dictionaries built and
    /// sorted for each answer.
    static func history(_ name: String?, after: String?, limit: Int, id: JSONValue?, in book: AccountBook) -> Result<[UInt8], WireError> {
        guard let name else {
            return .failure(WireError(.missingField, "\"name\" is required: this connection has no account to show the history of.",
                                      details: ["field": "name"]))
        }
        guard let account = book.account(named: name) else { return .failure(noSuchPlayer(name)) }
        // The cursor is how many of the player's games lie after the page: stable while new games come.
        var end = account.games.count
        if let after {
            guard let skip = Int(after), (0...account.games.count).contains(skip) else { return .failure(badCursor) }
            end = skip
        }
        let start = max(0, end - limit)
        return .success(HistoryPage.line(of: account, games: account.games[start..<end].reversed(), next: start > 0 ? start : nil, id: id, in: book))
    }

    /// Two players' record against each other, from the first one's side.
    static func crosstable(_ name: String, _ other: String, in book: AccountBook) -> Result<AccountInfo, WireError> {
        guard let first = book.account(named: name) else { return .failure(noSuchPlayer(name)) }
        guard let second = book.account(named: other) else { return .failure(noSuchPlayer(other)) }
        var wins = 0, losses = 0, draws = 0, games = 0
        for index in first.games {
            let game = book.games.stored(Int(index))
            guard let seat = (0..<2).first(where: { game.account(of: $0) == first.id }),
                  (0..<2).contains(where: { game.account(of: $0) == second.id }), first.id != second.id else { continue }
            games += 1
            switch game.score(of: seat) {
            case .win: wins += 1
            case .loss: losses += 1
            case .draw: draws += 1
            case nil: break
            }
        }
        return .success(AccountInfo(.crosstable, [
            "name": .string(first.name), "other": .string(second.name), "games": .int(Int64(games)),
            "wins": .int(Int64(wins)), "losses": .int(Int64(losses)), "draws": .int(Int64(draws))]))
    }

    /// The players a variant's leaderboard lists (`RatingPolicy.isListed`), best first.
    static func ranking(_ variant: Variant, in book: AccountBook, policy: RatingPolicy = .standard) -> [Rankings.Entry] {
        var rankings = Rankings(policy: policy)
        return rankings.ranked(variant, in: book)
    }

    /// One page of a ranking (`Rankings`, kept in order by `Accounts`); `after` is a rank offset.
    static func leaderboard(_ variant: Variant, ranked: [Rankings.Entry], after: String?, limit: Int,
                            in book: AccountBook) -> Result<AccountInfo, WireError> {
        var offset = 0
        if let after {
            guard let skip = Int(after), skip >= 0 else { return .failure(badCursor) }
            offset = skip
        }
        let page = ranked.dropFirst(offset).prefix(limit)
        let players: [JSONValue] = page.enumerated().compactMap { index, entry in
            guard let account = book.account(Int(entry.id)), let rating = account.ratings[variant] else { return nil }
            return ["rank": .int(Int64(offset + index + 1)), "name": .string(account.name), "bot": .bool(account.bot),
                    "rating": .int(Int64(rating.rounded)), "deviation": .int(Int64(rating.deviation.rounded()))]
        }
        var fields: [String: JSONValue] = ["variant": .string(variant.rawValue), "players": .array(players)]
        if offset + page.count < ranked.count { fields["next"] = .string(String(offset + page.count)) }
        return .success(AccountInfo(.leaderboard, fields))
    }

    static func noSuchPlayer(_ name: String) -> WireError {
        WireError(.noSuchPlayer, "No player here is named \"\(ServerText.printable(name, limit: 40))\".")
    }

    static var badCursor: WireError {
        WireError(.badField, "\"after\" must be the \"next\" of an earlier page.", details: ["field": "after"])
    }
}
