import SetDatabase
import SetRules

/// Who gave a recorded game up (the match's `by`): the seat that resigned or forfeited. A duel
/// resigned or forfeited before any set is stored aborted with no winner, as it must be for
/// history and ratings; an arena that recounts such a duel from its record (its node killed
/// between the record's commit and the arena's end) still scores it as the match ended it.
enum RecordedGiveUp {
    /// Migration 13: `games.by_seat`, the seat that resigned or forfeited; NULL for a game that
    /// ended otherwise, and for the games recorded before it (their giver-up is not known).
    static let migration = Migration(version: 13, summary: "games.by_seat: the seat that resigned or forfeited, so a recount scores it") { _ in
        ["ALTER TABLE games ADD COLUMN by_seat INTEGER"]
    }
}

extension GameRecord {
    /// The seat the match's rules named winner (`MatchResult.winner`), from what the record keeps:
    /// the recorded winner of a won game; for a game resigned or forfeited with no set taken (an
    /// aborted one), the other seat than the one that gave it up, as the rules name it; else
    /// none (a draw, a solo game, an aborted game whose giver-up was not recorded).
    static func matchWinner(mode: Mode, outcome: Outcome, reason: MatchResult.Reason, winner: Seat?, by: Seat?) -> Seat? {
        switch outcome {
        case .win: return winner
        case .draw, .solo: return nil
        case .aborted:
            switch reason {
            case .resigned, .forfeited: return mode == .duel ? by?.other : nil
            case .noSetsLeft: return nil
            }
        }
    }

    /// `matchWinner` of this record.
    var matchWinner: Seat? { Self.matchWinner(mode: mode, outcome: outcome, reason: reason, winner: winner, by: by) }
}
