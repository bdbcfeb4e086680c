import SetRules
import SetWire

/// One page of a player's history as the line that answers `history`, written from the stored
/// games straight into bytes with keys in order (`JSONObjectWriter`), so it is byte for byte the
/// line `JSONWriter` would make of the same reply, as Protocol.md shows it.
enum HistoryPage {
    static func line(of account: AccountBook.Account, games: some Sequence<Int32>, next: Int?, id: JSONValue?, in book: AccountBook) -> [UInt8] {
        var reply = JSONObjectWriter(capacity: 8_192)
        reply.objects("games", games) { entry, index in
            write(book.games.stored(Int(index)), for: account.id, into: &entry, in: book)
        }
        if let id { reply.raw("id", JSONWriter.bytes(id)) }
        reply.string("name", account.name)
        if let next { reply.string("next", String(next)) }
        reply.plain("type", AccountInfoType.history)
        return reply.line()
    }

    private static func write(_ game: GameStore.Game, for id: Int, into entry: inout JSONObjectWriter, in book: AccountBook) {
        let store = book.games
        let seat = (0..<game.seatCount).first { game.account(of: $0) == id } ?? 0
        let match = store.matchName(of: game)
        entry.raw("commitment", store.commitmentJSON(of: game))
        entry.int("durationMs", Int64(game.durationMs))
        entry.int("game", Int64(game.game))
        if game.journal < 0 {
            entry.string("journal", match + ".jsonl")
        } else {
            entry.string("journal", store.texts[Int(game.journal)])
        }
        entry.string("match", match)
        entry.plain("mode", Mode.allCases[Int(game.mode)])
        entry.objects("players", 0..<game.seatCount) { player, number in
            let stored = game.seat(number)
            if stored.account >= 0, let account = book.account(Int(stored.account)) {
                player.bool("bot", account.bot)
            } else {
                player.bool("guest", true)
            }
            player.string("name", stored.name < 0 ? "" : store.names[Int(stored.name)])
            player.int("points", Int64(stored.points))
            if game.isRated(seat: number) {
                player.bool("provisional", game.isProvisional(seat: number))
                player.int("ratingAfter", Int64(stored.ratingAfter))
                player.int("ratingBefore", Int64(stored.ratingBefore))
            }
            player.int("sets", Int64(game.sets(of: number)))
        }
        entry.bool("rated", game.rated)
        entry.plain("reason", MatchResult.Reason.allCases[Int(game.reason)])
        // One account in both seats played itself: neither seat's side is its result.
        let playedItself = game.seatCount == 2 && game.account(of: 0) == game.account(of: 1)
        switch playedItself ? nil : game.score(of: seat) {
        case _ where playedItself: entry.plain("result", "self")
        case .win: entry.plain("result", "win")
        case .loss: entry.plain("result", "loss")
        case .draw: entry.plain("result", "draw")
        case nil: entry.plain("result", GameRecord.Outcome.allCases[Int(game.outcome)])
        }
        entry.int("seat", Int64(seat))
        entry.plain("variant", game.variantValue)
        entry.int("wall", Int64(game.wallSeconds))
    }
}
