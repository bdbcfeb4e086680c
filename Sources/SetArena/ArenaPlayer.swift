/// Why a player is not being paired.
package enum ArenaPause: String, Hashable, Sendable {
    /// They asked (`arena_pause`), or their arena connection closed.
    case asked
    /// Their dealt duel was forfeited by their absence twice in a row.
    case noShows
    /// They left the arena (`arena_leave`); their points stay.
    case left
}

/// Whether a player takes part in pairing now.
package enum ArenaPresence: Hashable, Sendable {
    /// Paired whenever free.
    case active
    /// Not paired until they resume (or join again).
    case paused(ArenaPause)
    /// Playing the arena game numbered so.
    case playing(game: Int)
}

/// Who asks to join: their name, their rating at the start (nil: a guest or none yet), and
/// whether they are a bot.
package struct ArenaEntrant: Hashable, Sendable {
    package var name: String
    package var rating: Int?
    package var provisional: Bool
    package var bot: Bool

    package init(name: String, rating: Int? = nil, provisional: Bool = false, bot: Bool = false) {
        self.name = name
        self.rating = rating
        self.provisional = provisional
        self.bot = bot
    }
}

/// One player of an arena: who they are, their points, and whether they may be paired.
package struct ArenaPlayer: Hashable, Sendable {
    /// The rating a player with none counts as, in the standings order and in performance.
    package static let unratedRating = 1500
    /// Forfeits by absence in a row after which a player is paused.
    package static let noShowLimit = 2

    package var entrant: ArenaEntrant
    package var record = ArenaRecord()
    package var presence: ArenaPresence = .active
    /// Whom they played last (nil before their first game).
    package var lastOpponent: String?
    /// Their dealt duels forfeited by their absence since their last played game.
    package var noShowsInARow = 0
    /// Sum and count of (opponent rating ± 500) over their played games, for performance.
    var performanceSum = 0
    var performanceGames = 0

    package init(_ entrant: ArenaEntrant) {
        self.entrant = entrant
    }

    package var name: String { entrant.name }

    /// The rating they rank by: their own, or 1500 with none.
    package var rankingRating: Int { entrant.rating ?? Self.unratedRating }

    /// Their performance: the mean over played games of the opponent's rating, +500 for a win and
    /// −500 for a loss; nil before any played game.
    package var performance: Int? {
        guard performanceGames > 0 else { return nil }
        let sum = Double(performanceSum) / Double(performanceGames)
        return Int(sum.rounded())
    }

    /// The duel under way, if any.
    package var playing: Int? {
        if case .playing(let game) = presence { return game }
        return nil
    }

    /// Whether pairing may take them now.
    package var isFree: Bool { presence == .active }
}
