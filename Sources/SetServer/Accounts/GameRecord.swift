import SetRatings
import SetRules

/// One finished game as the accounts store keeps it: who played under what names, the result,
/// the points and sets of each seat, how long it took, how ratings moved, and which journal
/// holds its every move.
struct GameRecord: Equatable {
    /// One seat's part in the game.
    struct Player: Equatable {
        /// Nil for a guest.
        var account: Int?
        var name: String
        var points: Int
        var sets: Int
        /// Milliseconds each set took to find: from the previous set (or the deal) to this one.
        var setTimes: [Int]
        /// Rated games only: the rating before and after.
        var before: Rating?
        var after: Rating?
    }

    /// How the game ended for the record: who won, or a draw, or nothing counted.
    enum Outcome: String, Equatable, CaseIterable {
        /// Solo games, and duels with no set taken: recorded, never rated.
        case solo, aborted
        case win, draw
    }

    var match: String
    var game: Int
    /// The game's seed commitment: unique per game, so a record is never written twice (a
    /// restart recovers a game the journal holds but the store does not by it).
    var commitment: String
    var mode: Mode
    var variant: Variant
    var rated: Bool
    var outcome: Outcome
    var reason: MatchResult.Reason
    /// The seat that resigned or forfeited, for those reasons (the match's `by`; `RecordedGiveUp`).
    var by: Seat? = nil
    /// The winning seat, for `win`.
    var winner: Seat?
    var players: [Player]
    /// Server-clock milliseconds at the end, and the game's length.
    var endedAt: Int64
    var durationMs: Int64
    /// Wall-clock seconds at the end: history shows dates, which the server's clock does not know.
    var wallSeconds: Int64
    /// The journal file that holds the game's moves, under the data folder (or `finished/`).
    var journal: String

    /// The same game with no rating moved.
    var unrated: GameRecord {
        var game = self
        game.rated = false
        for seat in game.players.indices { (game.players[seat].before, game.players[seat].after) = (nil, nil) }
        return game
    }

    /// Whether any seat was an account's: a game of guests alone moved no rating, and nobody
    /// can ask about it, so it is not kept.
    var concernsAccounts: Bool { players.contains { $0.account != nil } }

    /// Whether the store keeps it: a game with an account in it, and an arena's duel even
    /// between guests, whose arena recounts it from its record when its node stopped before
    /// counting it (a game of guests alone otherwise moved nothing anyone can ask about).
    var isKept: Bool { concernsAccounts || ArenaStore.parse(match: match) != nil }

    /// 1, ½ or 0 for a seat of a counted duel; nil when nothing counts.
    func score(of seat: Int) -> Score? {
        switch outcome {
        case .solo, .aborted: nil
        case .draw: .draw
        case .win: winner?.rawValue == seat ? .win : .loss
        }
    }
}

/// What a host tells of a game that just ended; the accounts turn it into a `GameRecord`.
struct FinishedGame: Equatable {
    struct Seated: Equatable {
        var account: Int?
        var name: String
        var casual: Bool
        var sets: Int
        var setTimes: [Int]
    }

    var match: String
    var game: Int
    var commitment: String
    var mode: Mode
    var variant: Variant
    var result: MatchResult
    var seats: [Seated]
    var endedAt: Int64
    var durationMs: Int64
}
