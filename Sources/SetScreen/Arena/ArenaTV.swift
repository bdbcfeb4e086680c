import SetWire

/// What the TV's follower asks of its shell: a spectator's connection to a board, or none.
package enum ArenaTVChange: Hashable, Sendable {
    /// Watch this duel (a spectator's join, on a connection of its own).
    case follow(ArenaBoard)
    /// Watch no duel: the standings show.
    case unfollow
}

/// Which of an arena's duels the TV shows, and when it moves on (`setgame watch --arena`): the
/// top board (the duel whose players rank highest in the standings) is followed until its game is
/// over, shown a moment more, and then the top board of that moment is followed; with no board
/// under way the standings show, and the final standings once the arena is over. Pure: the
/// arena's states, the followed duel's end and the clock in, changes out.
package struct ArenaTV: Hashable, Sendable {
    /// What the TV shows.
    package enum Showing: Hashable, Sendable {
        /// No duel under way (or the arena not heard yet): the standings.
        case standings
        /// A duel under way, as its spectator.
        case board(ArenaBoard)
        /// A listed duel whose match is not made yet (made when its first player sits: until then
        /// a spectator is told `no_such_match`): the standings show, and it is watched again at `until`.
        case notMade(ArenaBoard, until: Int64)
        /// The followed duel is over: it stays on the screen until `until`, then the next one.
        case ended(ArenaBoard, until: Int64)
        /// The arena is over and its last duel too: the final standings, for good.
        case final
    }

    /// How long a finished duel stays on the screen before the next board: long enough to read
    /// its result, short enough that the next duel (dealt at once) has barely begun.
    package static let lingerMs: Int64 = 3_000
    /// How soon a listed duel not made yet is watched again: its players are told their seats as
    /// the arena lists it, so it is made within a round trip of theirs.
    package static let notMadeRetryMs: Int64 = 500

    package private(set) var showing = Showing.standings
    /// The arena as last heard.
    package private(set) var arena: ArenaView?

    package init() {}

    /// The duel the TV follows now, or lingers on; nil while the standings show.
    package var board: ArenaBoard? {
        switch showing {
        case .board(let board), .ended(let board, _), .notMade(let board, _): board
        case .standings, .final: nil
        }
    }

    /// The top board of `view`: the duel whose best-ranked player ranks highest, then whose other
    /// player does (a player missing from the standings ranks last); on a tie, the server's order
    /// of `boards` (its top board first).
    package static func topBoard(in view: ArenaView) -> ArenaBoard? {
        var ranks: [String: Int] = [:]
        for entry in view.standings { ranks[entry.name.lowercased()] = min(entry.rank, ranks[entry.name.lowercased()] ?? .max) }
        func key(_ board: ArenaBoard) -> [Int] { board.players.map { ranks[$0.lowercased()] ?? .max }.sorted() }
        var best: (board: ArenaBoard, key: [Int])?
        for board in view.boards {
            let mine = key(board)
            if let current = best, !mine.lexicographicallyPrecedes(current.key) { continue }
            best = (board, mine)
        }
        return best?.board
    }

    /// The arena's state, answered or pushed: a board that left `boards` has ended; with nothing
    /// followed, the top board is taken at once.
    package mutating func take(_ view: ArenaView, at now: Int64) -> ArenaTVChange? {
        arena = view
        switch showing {
        case .board(let board):
            guard let current = view.boards.first(where: { $0.match == board.match }) else {
                showing = .ended(board, until: now + Self.lingerMs)
                return nil
            }
            showing = .board(current)
            return nil
        case .notMade(let board, let until):
            // Gone before it could be watched: the next board, at once.
            guard let current = view.boards.first(where: { $0.match == board.match }) else { return next() }
            showing = .notMade(current, until: until)
            return nil
        case .standings: return next()
        case .ended, .final: return nil
        }
    }

    /// The followed duel's game is over (its `game_over` reached the spectator), or its spectator
    /// was refused for good: it lingers, then the next board.
    package mutating func boardOver(_ match: String, at now: Int64) -> ArenaTVChange? {
        guard case .board(let board) = showing, board.match == match else { return nil }
        showing = .ended(board, until: now + Self.lingerMs)
        return nil
    }

    /// The followed duel's spectator was told `no_such_match`: while the arena still lists it,
    /// it is not made yet (its players not seated): its spectator goes, the standings show, and
    /// it is watched again shortly. A duel the arena no longer lists is over.
    package mutating func boardNotMade(_ match: String, at now: Int64) -> ArenaTVChange? {
        guard case .board(let board) = showing, board.match == match else { return nil }
        guard arena?.boards.contains(where: { $0.match == match }) == true else { return boardOver(match, at: now) }
        showing = .notMade(board, until: now + Self.notMadeRetryMs)
        return .unfollow
    }

    /// Ends a linger that is due, or watches again a duel not made before.
    package mutating func tick(at now: Int64) -> ArenaTVChange? {
        switch showing {
        case .ended(_, let until) where now >= until: return next()
        case .notMade(let board, let until) where now >= until:
            showing = .board(board)
            return .follow(board)
        default: return nil
        }
    }

    /// When `tick` has something to do.
    package var nextWake: Int64? {
        switch showing {
        case .ended(_, let until), .notMade(_, let until): until
        case .standings, .board, .final: nil
        }
    }

    /// The top board of the arena as last heard (never the duel just over, which the arena's
    /// state may still list for a moment); else the standings, final once it is over.
    private mutating func next() -> ArenaTVChange? {
        let was = board
        if var arena {
            arena.boards.removeAll { $0.match == was?.match }
            if let top = Self.topBoard(in: arena) {
                showing = .board(top)
                return .follow(top)
            }
        }
        // Over once its last duel is: `finished` with duels under way still shows them.
        showing = arena?.state == .finished && arena?.boards.allSatisfy({ $0.match == was?.match }) == true ? .final : .standings
        return was == nil ? nil : .unfollow
    }
}
