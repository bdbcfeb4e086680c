import Glibc
import SetRatings
import SetRules
import SetWire

extension MatchReplay {
    /// How each rated game of the match moved its players' ratings, by game number, as the
    /// accounts log of the data folder the journal lies in recorded them (`DIR/accounts/` beside
    /// `DIR/NAME.jsonl` or above `DIR/finished/`): a journal holds no ratings. Empty without one.
    package func recordedRatings() -> [Int: [RatingChange]] {
        guard let log = Self.accountsLog(beside: path) else { return [:] }
        let book = AccountLog.read(log).book
        var changes: [Int: [RatingChange]] = [:]
        for game in games {
            guard let record = book.game(game.commitment), record.rated else { continue }
            changes[game.number] = record.players.enumerated().compactMap { index, player -> RatingChange? in
                guard let before = player.before, let after = player.after, let seat = Seat(rawValue: index) else { return nil }
                return RatingChange(seat: seat, before: before.rounded, after: after.rounded, provisional: after.isProvisional)
            }
        }
        return changes
    }

    /// The accounts log of the data folder holding the journal at `journal`, if there is one.
    static func accountsLog(beside journal: String) -> String? {
        let folder = journal.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let parent = folder.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        for candidate in [folder, parent] {
            let log = (candidate.isEmpty ? "." : candidate) + "/accounts/accounts.jsonl"
            if access(log, F_OK) == 0 { return log }
        }
        return nil
    }
}
