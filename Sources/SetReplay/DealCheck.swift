import SetServer
import SetWire

/// The verdict on a match's deals, one for both replays (text and `--cast`): each revealed seed
/// keeps its commitment and deals the table its game started with, or the exit status is 2.
struct DealCheck {
    let games: [MatchReplay.Game]
    /// The games whose first table is not the one their seed deals.
    private(set) var misdealt: Swift.Set<Int> = []

    init(games: [MatchReplay.Game]) { self.games = games }

    /// Looks at an event as the replay hands it on: a game's start shows its table.
    mutating func observe(_ event: WireEvent) {
        guard case .gameStarted(let game) = event.body,
              let record = games.first(where: { $0.number == game.game }), !record.deals(game.table) else { return }
        misdealt.insert(game.game)
    }

    /// One line a game, saying whether its deal was fixed before play.
    var lines: [String] {
        games.map { game in
            "game \(game.number): seed \(game.seed) " + (game.seedMatchesCommitment
                ? "matches its commitment \(game.commitment.prefix(16))…: the deal was fixed before play"
                : "does NOT match its commitment \(game.commitment)")
                + (misdealt.contains(game.number) ? "; the table dealt is NOT the one this seed deals" : "")
        }
    }

    /// 0 when every deal holds, 2 otherwise.
    var status: Int32 { games.allSatisfy(\.seedMatchesCommitment) && misdealt.isEmpty ? 0 : 2 }
}
