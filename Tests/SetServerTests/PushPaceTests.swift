@testable import SetServer
import SetRules
import Testing

/// The pace of whole-list pushes (the lobby, an arena): a burst, then one a second.
@Suite struct PushPaceTests {
    @Test func aBurstThenOneASecondWithTheHeldPushDueAtTheSecondsEnd() {
        var pace = PushPace()
        let start = Instant(milliseconds: 5_000)
        for _ in 0..<PushPace.burst {
            #expect(pace.allows(at: start) && pace.nextAllowed(after: start) == nil)
            pace.pushed(at: start)
        }
        #expect(!pace.allows(at: start))
        #expect(pace.nextAllowed(after: start.adding(300)) == start.adding(1_000))
        #expect(!pace.allows(at: start.adding(999)))
        #expect(pace.allows(at: start.adding(1_000)))
        pace.pushed(at: start.adding(1_000))
        #expect(!pace.allows(at: start.adding(1_500)), "one a second past the burst")
        #expect(pace.nextAllowed(after: start.adding(1_500)) == start.adding(2_000))
        // Quiet seconds give the burst back, never more than it.
        let later = start.adding(60_000)
        for _ in 0..<PushPace.burst {
            #expect(pace.allows(at: later))
            pace.pushed(at: later)
        }
        #expect(!pace.allows(at: later))
    }
}
