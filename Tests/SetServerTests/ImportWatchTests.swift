import Dispatch
import SetNet
import SetRules
@testable import SetServer
import Testing

/// Issue 43, item 4: while one long statement of the import runs (an index made again, the
/// commit), a thread of its own says which step runs and for how long whenever the log has been
/// quiet for 4.5 s, so a line comes at least every 5 s; the import's own lines count as speaking,
/// and once stopped it says nothing more. Driven by a manual clock and a pause the test releases
/// one look at a time: no sleeps.
@Suite struct ImportWatchTests {
    /// A pause that holds the watch's thread until the test lets it take one look.
    final class SteppedPause: ImportWatch.Pause {
        private let go = DispatchSemaphore(value: 0)
        private let parked = DispatchSemaphore(value: 0)

        func pause(ms: Int64) {
            parked.signal()
            go.wait()
        }

        func wake() { go.signal() }

        /// Waits until the thread is parked in its pause (its earlier look done).
        func waitParked() { parked.wait() }

        /// Lets the thread take one look, and waits until it is parked again.
        func look() {
            go.signal()
            parked.wait()
        }
    }

    @Test func aLongStepIsSaidEveryFewSecondsUntilTheWatchStops() {
        let clock = ManualTime(10_000)
        let said = ServerLogLines()
        let pause = SteppedPause()
        let watch = ImportWatch(step: "making the indexes and foreign keys again, 3 of 12", clock: clock, log: said.log, pause: pause)
        pause.waitParked()
        clock.set(14_499)
        pause.look()
        #expect(said.all.isEmpty)
        clock.set(14_500)
        pause.look()
        #expect(said.all.count == 1)
        #expect(said.all.last?.hasSuffix("accounts import: making the indexes and foreign keys again, 3 of 12 (for 4 s)") == true, "\(said.all)")
        // The import's own line counts: the watch is quiet for 4.5 s after it.
        clock.set(16_000)
        watch.say("accounts import: every row is written; committing")
        watch.begin("committing")
        clock.set(20_499)
        pause.look()
        #expect(said.all.count == 2)
        clock.set(20_500)
        pause.look()
        #expect(said.all.last?.hasSuffix("accounts import: committing (for 4 s)") == true, "\(said.all)")
        clock.set(31_000)
        pause.look()
        #expect(said.all.last?.hasSuffix("accounts import: committing (for 15 s)") == true, "\(said.all)")
        #expect(said.all.count == 4)
        // Stopped, its thread ends (stop waits for it) and the time owed a line passes in silence.
        watch.stop()
        clock.set(60_000)
        watch.stop()
        #expect(said.all.count == 4)
    }

    @Test func theLineOwedDependsOnlyOnTheTimeSinceTheLastLine() {
        var state = ImportWatch.State(step: "committing", stepStarted: Instant(milliseconds: 1_000), lastLine: Instant(milliseconds: 3_000))
        #expect(state.line(at: Instant(milliseconds: 7_499)) == nil)
        #expect(state.line(at: Instant(milliseconds: 7_500)) == "accounts import: committing (for 6 s)")
        #expect(state.line(at: Instant(milliseconds: 11_999)) == nil)
        state.stopped = true
        #expect(state.line(at: Instant(milliseconds: 60_000)) == nil)
    }
}
