import Foundation

/// One player's Glicko-2 rating on the familiar scale: rating, deviation (RD) and volatility.
package struct Rating: Hashable, Sendable {
    package var rating: Double
    package var deviation: Double
    package var volatility: Double

    package init(rating: Double, deviation: Double, volatility: Double) {
        self.rating = rating
        self.deviation = deviation
        self.volatility = volatility
    }

    /// A newcomer: Glickman's recommended start (1500, RD 350, volatility 0.06).
    package static let initial = Rating(rating: 1500, deviation: 350, volatility: 0.06)

    /// Lichess marks a rating with RD above 110 provisional (`?`): too few games to trust it.
    package static let provisionalDeviation = 110.0

    /// Whether too few games stand behind it to trust it (shown with `?`, kept off leaderboards).
    package var isProvisional: Bool { deviation > Self.provisionalDeviation }

    /// The rating as players read it: rounded, with `?` while provisional ("1523", "1500?").
    package var shown: String { "\(rounded)\(isProvisional ? "?" : "")" }

    /// The rating rounded to a whole number, as it is shown and compared.
    package var rounded: Int { Int(rating.rounded()) }
}

/// How a game ended for one player: 1 a win, ½ a draw, 0 a loss.
package enum Score: Double, Sendable, CaseIterable {
    case loss = 0
    case draw = 0.5
    case win = 1
}

/// Glicko-2 as Glickman's "Example of the Glicko-2 system" describes it, steps 1–8, pure.
package struct Glicko2: Sendable {
    /// τ constrains how fast volatility moves. 0.75, as lichess uses: with one game per rating
    /// period a player's volatility must be able to react within a few games, and lichess has
    /// shown 0.75 behaves on millions of such periods (Glickman suggests 0.3–1.2).
    package static let standardTau = 0.75
    /// The scale between the Glicko and Glicko-2 scales (Glickman's step 2).
    static let scale = 173.7178
    /// The convergence tolerance of the volatility iteration (step 5).
    static let epsilon = 0.000001
    /// RD never falls below this (so a veteran's rating still moves) nor rises above a newcomer's.
    package static let deviationBounds = 45.0...350.0

    package var tau: Double

    package init(tau: Double = Glicko2.standardTau) { self.tau = tau }

    /// One opponent in a rating period: their rating before it, and the player's score against them.
    package struct Game: Sendable {
        package var opponent: Rating
        package var score: Score

        package init(opponent: Rating, score: Score) {
            self.opponent = opponent
            self.score = score
        }
    }

    /// The player's rating after one rating period with `games` (none: only its deviation grows).
    /// Not clamped: exactly the paper's arithmetic (`rated` clamps for play).
    package func update(_ player: Rating, games: [Game]) -> Rating {
        let mu = (player.rating - 1500) / Self.scale
        let phi = player.deviation / Self.scale
        guard !games.isEmpty else {
            let grown = (phi * phi + player.volatility * player.volatility).squareRoot()
            return Rating(rating: player.rating, deviation: grown * Self.scale, volatility: player.volatility)
        }
        var inverseV = 0.0
        var improvement = 0.0
        for game in games {
            let muJ = (game.opponent.rating - 1500) / Self.scale
            let gJ = Self.g(game.opponent.deviation / Self.scale)
            let expected = 1 / (1 + exp(-gJ * (mu - muJ)))
            inverseV += gJ * gJ * expected * (1 - expected)
            improvement += gJ * (game.score.rawValue - expected)
        }
        let v = 1 / inverseV
        let delta = v * improvement
        let sigma = volatility(phi: phi, sigma: player.volatility, v: v, delta: delta)
        let phiStar = (phi * phi + sigma * sigma).squareRoot()
        let newPhi = 1 / (1 / (phiStar * phiStar) + 1 / v).squareRoot()
        let newMu = mu + newPhi * newPhi * improvement
        return Rating(rating: newMu * Self.scale + 1500, deviation: newPhi * Self.scale, volatility: sigma)
    }

    /// One game as its own rating period (as lichess rates), the result kept within
    /// `RatingBounds` whatever the inputs: what is rated here is written, and must read back.
    package func rated(_ player: Rating, against opponent: Rating, score: Score) -> Rating {
        let next = update(player, games: [Game(opponent: opponent, score: score)])
        return RatingBounds.clamped(next, fallback: player)
    }

    private static func g(_ phi: Double) -> Double { 1 / (1 + 3 * phi * phi / (Double.pi * Double.pi)).squareRoot() }

    /// Step 5: the new volatility, by the Illinois algorithm.
    private func volatility(phi: Double, sigma: Double, v: Double, delta: Double) -> Double {
        let a = log(sigma * sigma)
        let f = { (x: Double) -> Double in
            let ex = exp(x)
            let denominator = phi * phi + v + ex
            return ex * (delta * delta - phi * phi - v - ex) / (2 * denominator * denominator) - (x - a) / (tau * tau)
        }
        var sideA = a
        var sideB: Double
        if delta * delta > phi * phi + v {
            sideB = log(delta * delta - phi * phi - v)
        } else {
            var k = 1.0
            while f(a - k * tau) < 0 { k += 1 }
            sideB = a - k * tau
        }
        var fA = f(sideA)
        var fB = f(sideB)
        // Bounded, so no input can spin the loop: it converges in a handful of rounds.
        var rounds = 0
        while abs(sideB - sideA) > Self.epsilon && rounds < 100 {
            rounds += 1
            let c = sideA + (sideA - sideB) * fA / (fB - fA)
            let fC = f(c)
            if fC * fB <= 0 {
                sideA = sideB
                fA = fB
            } else {
                fA /= 2
            }
            sideB = c
            fB = fC
        }
        return exp(sideA / 2)
    }
}
