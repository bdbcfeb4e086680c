import Testing
import SetRatings

@Suite struct Glicko2Tests {
    /// Glickman's worked example: τ 0.5, 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300.
    static let paperGames = [
        Glicko2.Game(opponent: Rating(rating: 1400, deviation: 30, volatility: 0.06), score: .win),
        Glicko2.Game(opponent: Rating(rating: 1550, deviation: 100, volatility: 0.06), score: .loss),
        Glicko2.Game(opponent: Rating(rating: 1700, deviation: 300, volatility: 0.06), score: .loss),
    ]

    @Test func paperExample() {
        let after = Glicko2(tau: 0.5).update(Rating(rating: 1500, deviation: 200, volatility: 0.06), games: Self.paperGames)
        // The paper rounds its intermediate steps and prints 1464.06 / 151.52 / 0.05999.
        #expect(abs(after.rating - 1464.06) < 0.02)
        #expect(abs(after.deviation - 151.52) < 0.01)
        #expect(abs(after.volatility - 0.05999) < 0.00001)
    }

    /// Full precision against an independent port (Tests/Oracles/glicko2_oracle.py).
    @Test(arguments: [
        (1500.0, 200.0, 0.06, [(1400.0, 30.0, Score.win), (1550, 100, .loss), (1700, 300, .loss)], 0.5,
         1464.0506705393013, 151.51652412385727, 0.059995984286488495),
        (1500, 350, 0.06, [(1500, 350, .win)], 0.75, 1662.3108925690603, 290.31896252204893, 0.05999926959652241),
        (1620, 80, 0.059, [(1480, 240, .draw)], 0.75, 1615.520687960167, 79.43871536968729, 0.05899640697896499),
        (1850, 60, 0.05, [(1200, 45, .loss)], 0.75, 1829.6150784315978, 60.54116428668424, 0.05001592707427583),
    ])
    func fullPrecisionVectors(rating: Double, deviation: Double, volatility: Double, games: [(Double, Double, Score)],
                              tau: Double, expectedRating: Double, expectedDeviation: Double, expectedVolatility: Double) {
        let player = Rating(rating: rating, deviation: deviation, volatility: volatility)
        let after = Glicko2(tau: tau).update(player, games: games.map {
            Glicko2.Game(opponent: Rating(rating: $0.0, deviation: $0.1, volatility: 0.06), score: $0.2)
        })
        #expect(abs(after.rating - expectedRating) < 1e-9)
        #expect(abs(after.deviation - expectedDeviation) < 1e-9)
        #expect(abs(after.volatility - expectedVolatility) < 1e-12)
    }

    @Test func noGamesOnlyGrowsTheDeviation() {
        let after = Glicko2().update(Rating(rating: 1700, deviation: 50, volatility: 0.06), games: [])
        #expect(after.rating == 1700)
        #expect(abs(after.deviation - (50.0 * 50 + 0.06 * 0.06 * 173.7178 * 173.7178).squareRoot()) < 1e-9)
    }

    @Test func ratedKeepsTheDeviationWithinBounds() {
        var veteran = Rating(rating: 1800, deviation: 46, volatility: 0.03)
        for _ in 0..<50 { veteran = Glicko2().rated(veteran, against: Rating(rating: 1800, deviation: 45, volatility: 0.03), score: .draw) }
        #expect(veteran.deviation >= 45)
        let newcomer = Glicko2().rated(.initial, against: .initial, score: .loss)
        #expect(newcomer.deviation <= 350)
        #expect(newcomer.rating < 1500)
    }

    @Test func provisionalIsMarked() {
        #expect(Rating.initial.isProvisional)
        #expect(Rating.initial.shown == "1500?")
        #expect(Rating(rating: 1523.4, deviation: 110, volatility: 0.06).shown == "1523")
    }
}

/// Issue 32 item 9: whatever ratings go in, the rater gives back one `RatingBounds` holds (the
/// rule the import of an old accounts log checks), so no game it rates is ever kept unrated for it.
@Suite struct RatingBoundsTests {
    static let corners: [Rating] = {
        var corners: [Rating] = []
        for r in [RatingBounds.rating.lowerBound, 1500, RatingBounds.rating.upperBound] {
            for rd in [RatingBounds.deviation.lowerBound, RatingBounds.deviation.upperBound] {
                for vol in [RatingBounds.volatility.lowerBound, 0.06, RatingBounds.volatility.upperBound] {
                    corners.append(Rating(rating: r, deviation: rd, volatility: vol))
                }
            }
        }
        return corners
    }()

    /// The issue's case: the old reader's extreme (r 10000, RD 1000, σ 9.99) loses to an RD-45
    /// player; the expected score was exactly 1 and the update gave −12861.
    @Test func theIssuesRatingIsBrought() {
        let extreme = Rating(rating: 10_000, deviation: 1_000, volatility: 9.99)
        let veteran = Rating(rating: 1500, deviation: 45, volatility: 0.06)
        for score in Score.allCases {
            let after = Glicko2().rated(extreme, against: veteran, score: score)
            #expect(RatingBounds.contains(after), "\(after)")
            #expect(RatingBounds.contains(Glicko2().rated(veteran, against: extreme, score: score)))
        }
    }

    @Test func everyCornerRatesWithinTheBounds() {
        for player in Self.corners {
            for opponent in Self.corners {
                for score in Score.allCases {
                    let after = Glicko2().rated(player, against: opponent, score: score)
                    #expect(RatingBounds.contains(after), "\(player) against \(opponent), \(score): \(after)")
                }
            }
        }
    }

    @Test func anUpdateThatIsNotANumberKeepsTheRatingBefore() {
        let before = Rating(rating: 1700, deviation: 80, volatility: 0.06)
        let clamped = RatingBounds.clamped(Rating(rating: .nan, deviation: .infinity, volatility: -1), fallback: before)
        #expect(clamped == Rating(rating: 1700, deviation: 80, volatility: RatingBounds.volatility.lowerBound))
        #expect(RatingBounds.clamped(Rating(rating: -12_861, deviation: 20, volatility: 0.5), fallback: before)
            == Rating(rating: 400, deviation: 45, volatility: 0.1))
    }
}
