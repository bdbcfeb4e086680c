/// One duel an arena dealt: its number in the arena (1, 2, …) and its two players.
package struct ArenaGame: Hashable, Sendable {
    package var number: Int
    package var players: [String]

    package init(number: Int, players: [String]) {
        self.number = number
        self.players = players
    }

    /// Which of the two players holds `seat` of the duel's game, `seated` the name in it: seats
    /// are taken in the order the players sat, not the pairing's, so the name decides; a seat
    /// whose name is not one of theirs falls back to the pairing's order.
    package func player(inSeat seat: Int, seated: String?) -> String {
        if let seated, players.contains(seated) { return seated }
        return players[seat == 0 ? 0 : 1]
    }
}

/// How an arena duel ended.
package enum ArenaGameEnd: Hashable, Sendable {
    /// Played to the end (or resigned, or forfeited after sitting): `winner` won; nil is a draw.
    case played(winner: String?)
    /// Nobody in `absent` sat within the seat wait: a loss for each of them and a win for a
    /// player who came. Counts toward pausing the absent.
    case noShow(absent: Swift.Set<String>)

    /// What the game was for `name`.
    func outcome(for name: String) -> ArenaOutcome {
        switch self {
        case .played(let winner?): winner == name ? .win : .loss
        case .played(nil): .draw
        case .noShow(let absent): absent.contains(name) ? .loss : .win
        }
    }

    /// Whether `name` played it (a no-show is not played by anyone, for performance).
    func wasPlayed() -> Bool {
        if case .played = self { return true }
        return false
    }
}

/// The arena's phase, from its clock.
package enum ArenaPhase: String, Hashable, Sendable, CaseIterable {
    /// Before `startsAt`: players join; nobody is paired.
    case starting
    /// From `startsAt` to `endsAt`: free players are paired.
    case running
    /// From `endsAt`: no new pairing; games under way finish and count.
    case finished
}
