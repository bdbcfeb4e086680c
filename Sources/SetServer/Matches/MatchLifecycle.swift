import SetRules
import SetWire

/// Where a match is in its life, and what each stage holds: no game yet, a game being played,
/// or the last game over together with what the accounts are to record of it. The phase that
/// lists and snapshots show follows from the stage; nothing reads a stage back from optionals.
enum MatchLifecycle {
    /// Not every seat is taken yet: no game is dealt.
    case waiting
    /// A game is being played.
    case playing(Match)
    /// The last game ended: its final state (a rematch is asked of it) and the record it leaves.
    case over(Match, FinishedGame)

    var phase: MatchPhase {
        switch self {
        case .waiting: .waiting
        case .playing: .playing
        case .over: .over
        }
    }

    /// The game dealt last, being played or over; nil before the first deal.
    var match: Match? {
        switch self {
        case .waiting: nil
        case .playing(let match), .over(let match, _): match
        }
    }

    /// The game that ended last, while it is the match's latest.
    var finished: FinishedGame? {
        guard case .over(_, let finished) = self else { return nil }
        return finished
    }

    /// The same stage with its game's state as an action, a timer or a pause left it. A game's
    /// end is no update: it moves the match on (`MatchHost.finish`), with its record.
    mutating func update(_ match: Match) {
        switch self {
        case .waiting: assertionFailure("no game to update before the first deal")
        case .playing: self = .playing(match)
        case .over(_, let finished): self = .over(match, finished)
        }
    }
}
