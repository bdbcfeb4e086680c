@testable import SetServer
import SetNet
import SetRules
import Testing

/// The pure parts behind the public-server limits.
struct PublicServerPartsTests {
    @Test func limitsThatFitAreKeptAndOthersShrinkToTheDescriptorsThereAre() {
        #expect(DescriptorBudget.fit(maxConnections: 8_192, maxMatches: 4_096, journals: true, descriptors: 1 << 20)
            == DescriptorBudget(maxConnections: 8_192, maxMatches: 4_096))
        // A 1,024 soft limit that could not be raised: connections and journals share what is left.
        let tight = DescriptorBudget.fit(maxConnections: 8_192, maxMatches: 4_096, journals: true, descriptors: 1_024)
        #expect(tight.maxConnections + tight.maxMatches + DescriptorBudget.reserve <= 1_024)
        #expect(tight == DescriptorBudget(maxConnections: 640, maxMatches: 320))
        #expect(DescriptorBudget.fit(maxConnections: 8_192, maxMatches: 4_096, journals: false, descriptors: 1_024)
            == DescriptorBudget(maxConnections: 960, maxMatches: 4_096))
        #expect(DescriptorBudget.fit(maxConnections: 10, maxMatches: 10, journals: true, descriptors: 10).maxConnections >= 1)
    }

    /// A known seed where strangers can connect is said at start; on loopback, or at random, nothing is.
    @Test func aKnownSeedOnAnAddressOthersReachIsWarnedOf() {
        var config = ServerConfig()
        config.seeds = .counting(from: 42)
        #expect(Server.warnings(for: config).isEmpty, "loopback: a demo")
        config.host = "0.0.0.0"
        #expect(Server.warnings(for: config).count == 1)
        #expect(Server.warnings(for: config).first?.hasPrefix("warning: --seed 42 deals every game from a known seed on 0.0.0.0") == true)
        config.seeds = .random
        #expect(Server.warnings(for: config).isEmpty)
    }

    @Test func aRepeatedConditionIsLoggedAtMostOnceASecondWithHowOftenItWasQuiet() {
        var throttle = LogThrottle()
        func admit(_ key: String, _ ms: Int64) -> String? { throttle.admit(key, "\(key) at \(ms)", at: Instant(milliseconds: ms)) }
        #expect(admit("emfile", 0) == "emfile at 0")
        var quiet = 0
        for ms in stride(from: Int64(1), to: 1_000, by: 1) where admit("emfile", ms) == nil { quiet += 1 }
        #expect(quiet == 999)
        #expect(admit("other", 500) == "other at 500", "each condition has its own second")
        #expect(admit("emfile", 1_000) == "emfile at 1000 (and 999 more like it)")
        #expect(admit("emfile", 2_000) == "emfile at 2000")
    }

    /// What was kept quiet is said once its second is over, even if nothing like it comes again:
    /// the latest line, with how many more like it.
    @Test func whatWasKeptQuietIsSaidOnceItsSecondIsOver() {
        var throttle = LogThrottle()
        #expect(throttle.admit("joined from 10.0.0.1", "ann joined", at: Instant(milliseconds: 0)) == "ann joined")
        #expect(throttle.admit("joined from 10.0.0.1", "bob joined", at: Instant(milliseconds: 10)) == nil)
        #expect(throttle.admit("joined from 10.0.0.1", "cat joined", at: Instant(milliseconds: 20)) == nil)
        #expect(throttle.overdue(at: Instant(milliseconds: 999)).isEmpty, "its second is not over")
        #expect(throttle.overdue(at: Instant(milliseconds: 1_000)) == ["cat joined (and 1 more like it)"])
        #expect(throttle.overdue(at: Instant(milliseconds: 5_000)).isEmpty, "said once")
        #expect(throttle.admit("joined from 10.0.0.1", "dan joined", at: Instant(milliseconds: 1_500)) == nil, "saying it counts")
    }

    @Test func aDearRequestSpendsSeveralTokens() {
        var limiter = RateLimiter(perSecond: 10, burst: 10, at: .zero)
        let outcomes = [limiter.allow(at: .zero, cost: 5), limiter.allow(at: .zero, cost: 5), limiter.allow(at: .zero, cost: 5),
                        limiter.allow(at: .zero), limiter.allow(at: Instant(milliseconds: 500), cost: 5)]
        #expect(outcomes == [true, true, false, false, true], "half a second refills five")
    }

    @Test func theListPutsLiveDuelsWithTheMostSpectatorsFirstAndItsCursorRoundTrips() {
        let keys = [MatchList.Key(rank: 1, spectators: 9, name: "a"), MatchList.Key(rank: 0, spectators: 1, name: "b"),
                    MatchList.Key(rank: 0, spectators: 5, name: "c"), MatchList.Key(rank: 0, spectators: 5, name: "b.x")]
        #expect(keys.sorted().map(\.name) == ["b.x", "c", "b", "a"])
        for key in keys { #expect(MatchList.Key(cursor: key.cursor) == key) }
        #expect(MatchList.Key(cursor: "zero.1.a") == nil)
    }
}

struct ServerLogFormatTests {
    @Test func aJSONLogLineIsOneObjectWithTimeAndMessage() {
        let line = ServerLog.line("ann \"quoted\" left", at: "2026-11-23T09:15:02.123Z", format: .json)
        #expect(line == #"{"message":"ann \"quoted\" left","time":"2026-11-23T09:15:02.123Z"}"#)
        #expect(ServerLog.line("x", at: "T", format: .text) == "T x")
    }
}

struct OutputQueuesTests {
    let none: (String) -> [ConnectionID] = { _ in [] }

    @Test func playersGoFirstSpectatorsASliceAtATimeAndCrowdsInRounds() {
        var queues = OutputQueues(crowdRoundMs: 100)
        let at = { Instant(milliseconds: $0) }
        for id in 1_000..<1_300 { queues.add(id, .spectator) }
        for id in 5_000..<5_300 { queues.add(id, .crowd) }
        queues.add(1, .player)
        let first = queues.takeDue(at: at(0), watchers: none)
        #expect(first.first == 1, "players first")
        #expect(first.count == 1 + OutputQueues.writesPerTurn * 2)
        #expect(queues.waitMilliseconds(at: at(0)) == 0, "slices remain: no sleep")
        var written = first.count, turns = 1
        while queues.waitMilliseconds(at: at(2)) == 0 {
            let slice = queues.takeDue(at: at(2), watchers: none)
            #expect(slice.count <= 2 * OutputQueues.writesPerTurn)
            written += slice.count
            turns += 1
        }
        #expect(written == 601 && turns == (300 + OutputQueues.writesPerTurn - 1) / OutputQueues.writesPerTurn)
        // The crowd wrote its round; those who have more wait for the next round, 100 ms after it began.
        queues.add(5_000, .crowd)
        #expect(queues.waitMilliseconds(at: at(2)) == 98)
        #expect(queues.takeDue(at: at(50), watchers: none).isEmpty)
        #expect(queues.takeDue(at: at(100), watchers: none) == [5_000])
        #expect(queues.waitMilliseconds(at: at(100)) == nil)
    }

    /// A feed that grew many times queues its match's watchers once; a small match's at once, a
    /// crowded match's at its next round.
    @Test func aMatchWithNewsQueuesItsWatchersOncePerRound() {
        var queues = OutputQueues(crowdRoundMs: 100)
        let at = { Instant(milliseconds: $0) }
        var asked: [String] = []
        let watchers: (String) -> [ConnectionID] = { match in
            asked.append(match)
            return match == "small" ? [10, 11] : [20, 21, 22]
        }
        for _ in 0..<50 { queues.feedGrew("small", crowded: false) }
        for _ in 0..<50 { queues.feedGrew("crowd", crowded: true) }
        queues.add(1, .player)
        #expect(queues.takeDue(at: at(0), watchers: watchers) == [1, 10, 11, 20, 21, 22])
        #expect(asked.sorted() == ["crowd", "small"], "each match asked once, however many events")
        queues.feedGrew("small", crowded: false)
        queues.feedGrew("crowd", crowded: true)
        #expect(queues.waitMilliseconds(at: at(10)) == 0, "a small match's news goes out at once")
        #expect(queues.takeDue(at: at(10), watchers: watchers) == [10, 11])
        #expect(queues.waitMilliseconds(at: at(10)) == 90, "the crowd waits for its next round")
        #expect(queues.takeDue(at: at(60), watchers: watchers).isEmpty)
        #expect(queues.takeDue(at: at(100), watchers: watchers) == [20, 21, 22])
        #expect(queues.waitMilliseconds(at: at(100)) == nil)
        #expect(asked.count == 4)
    }
}

struct SpectatorFeedTests {
    /// Offsets count from the feed's start, so they stay valid as what everyone has had is dropped.
    @Test func offsetsSurviveDiscardingWhatEveryoneHasHad() {
        var feed = SpectatorFeed()
        feed.append(Array("one\n".utf8))
        let late = feed.end
        feed.append(Array("two\n".utf8))
        #expect(Array(feed.unread(from: 0)) == Array("one\ntwo\n".utf8))
        #expect(Array(feed.unread(from: late)) == Array("two\n".utf8))
        feed.discard(before: late)
        #expect(feed.start == 4 && feed.keptBytes == 4)
        #expect(Array(feed.unread(from: late)) == Array("two\n".utf8))
        #expect(feed.unread(from: feed.end).isEmpty)
        feed.discard(before: feed.end)
        #expect(feed.keptBytes == 0 && feed.end == 8)
    }
}
