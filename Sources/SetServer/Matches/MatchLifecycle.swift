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

    /// The game's next deadline, read where the game lies: `match?.nextDeadline` would copy
    /// the game out first, retaining and releasing each of its arrays, on every action.
    var nextDeadline: Instant? {
        switch self {
        case .waiting: nil
        case .playing(let match), .over(let match, _): match.nextDeadline
        }
    }

    /// The game that ended last, while it is the match's latest.
    var finished: FinishedGame? {
        guard case .over(_, let finished) = self else { return nil }
        return finished
    }

    /// Changes the game in place, if one was dealt, and returns what `change` gave. The game is
    /// moved out while it changes and back after: a copy taken out (`var game = match`) and put
    /// back with `update` would be retained and released whole on every action.
    mutating func changeGame<Result>(_ change: (inout Match) -> Result) -> Result? {
        switch consume self {
        case .waiting:
            self = .waiting
            return nil
        case .playing(var game):
            defer { self = .playing(game) }
            return change(&game)
        case .over(var game, let finished):
            defer { self = .over(game, finished) }
            return change(&game)
        }
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
