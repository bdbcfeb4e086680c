import SetRatings
import Testing

/// Issue 32 item 8: the rules against rating farms, on values alone.
@Suite struct RatingPolicyTests {
    let policy = RatingPolicy.standard

    func standing(games: Int, opponents: Int, days: Double) -> Standing {
        var standing = Standing()
        for game in 0..<games {
            standing.add(opponent: game % max(1, opponents), wall: Int64(Double(game) / Double(max(1, games - 1)) * days * 86_400), keeping: 5)
        }
        return standing
    }

    @Test func aPairIsRatedSixTimesADay() {
        #expect((0..<6).allSatisfy { policy.ratesAnother(pairGamesInWindow: $0) })
        #expect(!policy.ratesAnother(pairGamesInWindow: 6))
        #expect(policy.pairWindowSeconds == 86_400)
    }

    @Test func theLeaderboardAsksForGamesOpponentsAndTime() {
        #expect(policy.qualifies(standing(games: 10, opponents: 5, days: 1)))
        #expect(!policy.qualifies(standing(games: 9, opponents: 5, days: 1)), "too few games")
        #expect(!policy.qualifies(standing(games: 40, opponents: 4, days: 3)), "too few opponents")
        #expect(!policy.qualifies(standing(games: 40, opponents: 39, days: 0.99)), "all within a day")
        let established = Rating(rating: 2100, deviation: 60, volatility: 0.06)
        #expect(policy.isListed(established, standing(games: 12, opponents: 6, days: 2)))
        #expect(!policy.isListed(Rating(rating: 2100, deviation: 111, volatility: 0.06), standing(games: 12, opponents: 6, days: 2)))
    }

    @Test func opponentsAreCountedOnceAndOnlyAsFarAsAsked() {
        var standing = Standing()
        for opponent in [1, 1, 2, nil, 3, 4, 5, 6, 7] { standing.add(opponent: opponent, wall: 10, keeping: 5) }
        #expect(standing.games == 9 && standing.opponents == [1, 2, 3, 4, 5])
        #expect(standing.firstWall == 10 && standing.lastWall == 10)
    }

    @Test func theOpenPolicyAsksOnlyForAnEstablishedRating() {
        #expect(RatingPolicy.open.isListed(Rating(rating: 1500, deviation: 110, volatility: 0.06), Standing()))
        #expect(RatingPolicy.open.ratesAnother(pairGamesInWindow: 1_000_000))
    }
}
