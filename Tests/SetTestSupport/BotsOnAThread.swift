import Dispatch
import Foundation
import SetBot
import SetNet
import Synchronization
import Testing

/// Bots of one `BotRunner` playing on a thread of their own, for tests in every target: the test
/// keeps the runner to ask what the bots saw, and a stop that waits until the runner has returned.
package final class BotsOnAThread: Sendable {
    package let runner: BotRunner
    private let done = DispatchSemaphore(value: 0)
    private let returned = Mutex(false)

    /// Adds `bots` to a runner on `clock` and runs it; `prepare` sets the runner's callbacks
    /// first, so none is missed.
    package init(_ bots: [BotOptions], clock: TimeSource = MonotonicTime(), prepare: (BotRunner) -> Void = { _ in }) throws {
        runner = try BotRunner(clock: clock)
        prepare(runner)
        for options in bots { try runner.add(options) }
        let runner = self.runner, done = self.done
        Thread.detachNewThread {
            runner.run()
            done.signal()
        }
    }

    /// Whether `run()` returned within `waitMs`.
    package func finished(waitMs: Int = Int(hangMs)) -> Bool {
        if returned.withLock({ $0 }) { return true }
        guard done.wait(timeout: .now() + .milliseconds(waitMs)) == .success else { return false }
        returned.withLock { $0 = true }
        return true
    }

    /// Stops the bots at once and waits until the runner has returned; a runner that does not
    /// return fails the test rather than hanging it.
    package func stop() {
        runner.stop()
        if !finished() { Issue.record("the bots did not stop") }
    }

    /// Stops the bots once each has seen the event numbered `seq`; whether they had within `waitMs`.
    package func stop(afterSeq seq: Int, waitMs: Int) -> Bool {
        runner.stop(afterSeq: seq)
        return finished(waitMs: waitMs)
    }
}

extension FakePeer {
    /// Moves `clock` a quarter second at a time, waking `bots` and waiting 100 ms of real time
    /// after each step, until the client sends a line of `type`; nil after `steps` steps.
    package func await(_ type: String, steppingClock clock: ManualTime, of bots: BotsOnAThread, steps: Int) -> String? {
        for _ in 0..<steps {
            clock.advance(by: 250)
            bots.runner.wake()
            if let line = self.await(type, waitMs: 100) { return line }
        }
        return nil
    }
}

extension FakeServer {
    /// A bot of `options` (told this server's port) seated in seat 0 of match "m" with its table
    /// just shown (`FakeLines.snapshot(seq: 5)`): its runner, and the server's end of its connection.
    package func seat(_ options: BotOptions, clock: TimeSource) throws -> (bots: BotsOnAThread, peer: FakePeer) {
        var options = options
        options.port = port
        let bots = try BotsOnAThread([options], clock: clock)
        let peer = try accept()
        peer.send(FakeLines.welcome())
        _ = peer.await("join")
        peer.send(FakeLines.joined(seat: 0))
        peer.send(FakeLines.snapshot(seq: 5))
        return (bots, peer)
    }
}
