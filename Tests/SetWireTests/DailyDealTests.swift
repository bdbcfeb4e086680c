import Foundation
import Testing
import SetWire

/// The deal of the day is derived as documented, from a date given as a value.
@Suite struct DailyDealTests {
    /// Golden from `printf 'setgame-daily-%s' 2026-11-25 | sha256sum | cut -c1-16` (5f939b12f7220e9e)
    /// and `printf 'setgame:%s' 6887018760937541278 | sha256sum`.
    @Test func aFixedDateHasAFixedSeedAndCommitment() throws {
        let deal = try #require(DailyDeal(year: 2026, month: 11, day: 25))
        #expect(deal.date == "2026-11-25")
        #expect(deal.seed == 0x5f93_9b12_f722_0e9e)
        #expect(deal.seed == 6_887_018_760_937_541_278)
        #expect(deal.commitment == "a1a42dea0b952ab5a28d5b3dbae783acf69cc76a135df35c3b9d5dbdb5abf698")
    }

    @Test func theDayIsTheUTCDayOfTheInstant() throws {
        // 2026-11-25T00:00:00Z and one second before it.
        let midnight = Date(timeIntervalSince1970: 1_795_564_800)
        #expect(DailyDeal(utcDayOf: midnight) == DailyDeal(year: 2026, month: 11, day: 25))
        #expect(DailyDeal(utcDayOf: midnight.addingTimeInterval(86_399)) == DailyDeal(year: 2026, month: 11, day: 25))
        #expect(DailyDeal(utcDayOf: midnight.addingTimeInterval(-1)) == DailyDeal(year: 2026, month: 11, day: 24))
    }

    @Test func otherDaysDealOtherwise() throws {
        let today = try #require(DailyDeal(year: 2026, month: 11, day: 25))
        let tomorrow = try #require(DailyDeal(year: 2026, month: 11, day: 26))
        #expect(today.seed != tomorrow.seed)
    }

    @Test func daysThatDoNotExistAreRefused() {
        #expect(DailyDeal(year: 2026, month: 2, day: 29) == nil)
        #expect(DailyDeal(year: 2026, month: 13, day: 1) == nil)
        #expect(DailyDeal(year: 2028, month: 2, day: 29) != nil)
    }
}
