import Glibc
import SetDatabase
import SetRatings
import SetRules
import SetWire

extension MatchReplay {
    /// How each rated game of the match moved its players' ratings, by game number, as the
    /// accounts of the data folder the journal lies in recorded them (`DIR/accounts/` beside
    /// `DIR/NAME.jsonl` or above `DIR/finished/`): a journal holds no ratings. The database is
    /// read only, beside a server that may be running; a folder an earlier version wrote, not
    /// yet imported, is read from its accounts log. Empty without either.
    package func recordedRatings() -> [Int: [RatingChange]] {
        guard let recorded = Self.recordedGames(beside: path) else { return [:] }
        var changes: [Int: [RatingChange]] = [:]
        for game in games {
            guard let record = recorded(game.commitment), record.rated else { continue }
            changes[game.number] = record.players.enumerated().compactMap { index, player -> RatingChange? in
                guard let before = player.before, let after = player.after, let seat = Seat(rawValue: index) else { return nil }
                return RatingChange(seat: seat, before: before.rounded, after: after.rounded, provisional: after.isProvisional)
            }
        }
        return changes
    }

    /// The games the accounts of the data folder holding the journal at `journal` recorded, by
    /// commitment; nil when that folder keeps no accounts.
    static func recordedGames(beside journal: String) -> ((String) -> GameRecord?)? {
        let folder = journal.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let parent = folder.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        for candidate in [folder, parent] {
            let accounts = (candidate.isEmpty ? "." : candidate) + "/accounts"
            let file = "\(accounts)/\(StoreLocation.sqliteFileName)"
            if access(file, R_OK) == 0, let database = try? SQLiteDatabase(path: file, readOnly: true) {
                let store = SQLAccountStore(reading: database)
                return { commitment in try? store.game(commitment: commitment) }
            }
            if let games = AccountLogFile.games(in: accounts) { return { games[$0] } }
        }
        return nil
    }
}
