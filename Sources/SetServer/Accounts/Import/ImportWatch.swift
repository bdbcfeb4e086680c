import Dispatch
import Foundation
import SetNet
import SetRules
import Synchronization

/// The import's voice while one long statement runs (issue 43): the import's own lines come
/// between its statements, so a statement of many seconds (an index made again over a whole
/// table, a foreign key checked, the commit) would leave the log silent. A thread of its own
/// says which step is running and for how long whenever the log has been quiet for `quiet`;
/// the import's lines go through it (`say`), so it never speaks over them.
final class ImportWatch: Sendable {
    /// What the watch knows, and the line it owes at a time. Pure: the caller passes the time.
    struct State: Equatable {
        static let prefix = "accounts import: "
        /// At most this long without a line while the watch runs (with `poll`, under 5 s).
        static let quiet: Int64 = 4_500
        var step: String
        var stepStarted: Instant
        var lastLine: Instant
        var stopped = false

        /// The line owed at `now`, or nil while the log spoke recently.
        mutating func line(at now: Instant) -> String? {
            guard !stopped, now.milliseconds - lastLine.milliseconds >= Self.quiet else { return nil }
            lastLine = now
            return Self.prefix + "\(step) (for \((now.milliseconds - stepStarted.milliseconds) / 1_000) s)"
        }
    }

    /// How the watch's thread waits between looks at the clock; `wake` ends a wait at once.
    protocol Pause: Sendable {
        func pause(ms: Int64)
        func wake()
    }

    /// The real wait: a semaphore's timed wait, which `wake` (the stop) signals.
    final class TimedPause: Pause {
        private let semaphore = DispatchSemaphore(value: 0)
        func pause(ms: Int64) { _ = semaphore.wait(timeout: .now() + .milliseconds(Int(ms))) }
        func wake() { semaphore.signal() }
    }

    /// How often the thread looks: a line comes at most this late after it is owed.
    static let poll: Int64 = 250

    private let state: Mutex<State>
    private let clock: any TimeSource
    private let log: ServerLog
    private let pause: any Pause
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching with `step` as the step running; `stop` must follow.
    init(step: String, clock: any TimeSource, log: ServerLog, pause: any Pause = TimedPause()) {
        let now = clock.now()
        (self.clock, self.log, self.pause) = (clock, log, pause)
        state = Mutex(State(step: step, stepStarted: now, lastLine: now))
        Thread.detachNewThread { [self] in
            while true {
                pause.pause(ms: Self.poll)
                let (line, stopped) = state.withLock { state in (state.line(at: clock.now()), state.stopped) }
                if stopped { break }
                if let line { log(line) }
            }
            finished.signal()
        }
    }

    /// Names the step that runs from now (its time counts from now).
    func begin(_ step: String) {
        let now = clock.now()
        state.withLock { ($0.step, $0.stepStarted) = (step, now) }
    }

    /// Logs one of the import's own lines: the watch's quiet counts from it.
    func say(_ line: String) {
        let now = clock.now()
        state.withLock { $0.lastLine = now }
        log(line)
    }

    /// Stops the thread and waits for it: no line comes from the watch after this returns.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        pause.wake()
        finished.wait()
    }
}
