import CLinux
import Foundation
import Synchronization

/// One thread that makes every call on a subject the loop must not wait for (a lane of the store
/// gateway: a connection to the accounts store or the node directory): calls run one at a time,
/// in the order they were submitted, so the subject needs no lock of its own and a slow call
/// delays only the calls queued behind it, never the loop.
///
/// The subject is handed over, not shared: it is `sending` into the worker, kept in a `Mutex`
/// until `start()`, then taken out by the worker's thread, which keeps it until it ends (and lets
/// it go there: a connection is closed by the thread that used it). Whoever holds it is the only
/// one who can reach it, and the compiler checks it; `withSubject` once the thread took it is a
/// programming error that traps in every build.
package final class SerialWorker<Subject>: Sendable {
    package typealias Call = @Sendable (Subject) -> Void

    /// How soon a call must run once it is submitted, which sets how the thread is scheduled.
    package enum Urgency: Sendable {
        /// Someone waits for the answer (a question, a seat's account): the thread asks for a
        /// short slice, so its wake-up is not held behind a busy loop's on a shared core.
        case prompt
        /// Nobody waits (journals put on disk): the thread runs at nice 19, so it never takes
        /// the core from the loop when it wakes, and on a busy core still gets a share.
        case background
    }

    /// The subject until the worker thread takes it.
    private let parked: Mutex<Subject?>
    private let threadName: String
    /// At most this many calls wait at once; `submit` refuses more.
    private let capacity: Int
    private let urgency: Urgency
    private let queue = Mutex<Queue>(Queue())
    private let ready = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    private struct Queue {
        var calls: [Call] = []
        /// Where the next call is in `calls` (taken calls are dropped in bulk, not one by one).
        var head = 0
        var running = false
        var stopping = false

        var waiting: Int { calls.count - head }
    }

    /// `threadName` names the thread in a debugger and in `top -H`; `capacity` bounds the calls
    /// that wait (a lane that sheds load when full).
    package init(_ subject: sending Subject, threadName: String, capacity: Int = .max, urgency: Urgency = .prompt) {
        parked = Mutex(subject)
        self.threadName = threadName
        self.capacity = capacity
        self.urgency = urgency
    }

    /// The subject, for the thread setting the worker up, before `start()` (a server's start).
    package func withSubject<Answer: Sendable, Failure: Error>(_ body: (Subject) throws(Failure) -> Answer) throws(Failure) -> Answer {
        try parked.withLock { (held: inout sending Subject?) throws(Failure) -> Answer in
            guard let subject = held else { preconditionFailure("\(threadName): the subject is used while its worker thread holds it") }
            return try body(subject)
        }
    }

    /// Starts the worker thread, which takes the subject: from now on only it calls it.
    package func start() {
        let first = queue.withLock { queue in
            guard !queue.running else { return false }
            (queue.running, queue.stopping) = (true, false)
            return true
        }
        guard first else { return }
        let thread = Thread { [self] in work() }
        thread.name = threadName
        thread.start()
    }

    /// How many calls wait now (not the one running).
    package var waiting: Int { queue.withLock { $0.waiting } }

    /// Queues `call`; it runs after every call queued before it. Any thread. False, and `call`
    /// is dropped, when `capacity` calls wait already or the worker is stopping.
    @discardableResult
    package func submit(_ call: @escaping Call) -> Bool {
        let queued = queue.withLock { queue in
            guard !queue.stopping, queue.waiting < capacity else { return false }
            queue.calls.append(call)
            return true
        }
        if queued { ready.signal() }
        return queued
    }

    /// Runs the calls already queued, then ends the worker thread and returns true once it has
    /// ended. With `waitingAtMost`, returns false when the thread has not ended by then (a call
    /// stuck on a store that does not answer): the process may exit without it.
    @discardableResult
    package func stop(waitingAtMost bound: Duration? = nil) -> Bool {
        let wasRunning = queue.withLock { queue in
            defer { queue.stopping = true }
            return queue.running && !queue.stopping
        }
        guard wasRunning else { return true }
        ready.signal()
        guard let bound else {
            stopped.wait()
            return true
        }
        let (seconds, attoseconds) = bound.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return stopped.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }

    /// The scheduler's slice each worker thread asks for: its calls are short (a statement, a
    /// round trip), and with the default slice (1.4 ms here) a call the loop asked for waited for
    /// the end of the busy loop's slice on a shared core before it could start.
    package static var sliceNanoseconds: UInt64 { 100_000 }

    private func work() {
        switch urgency {
        case .prompt: _ = setgame_request_short_slice(Self.sliceNanoseconds)
        case .background: _ = setgame_lower_to_background()
        }
        guard let subject = parked.withLock({ (held: inout sending Subject?) -> sending Subject? in held.take() }) else { return }
        while true {
            ready.wait()
            let next: Call? = queue.withLock { queue in
                guard queue.head < queue.calls.count else { return nil }
                let call = queue.calls[queue.head]
                queue.head += 1
                if queue.head > 1_024, queue.head * 2 > queue.calls.count {
                    queue.calls.removeFirst(queue.head)
                    queue.head = 0
                }
                return call
            }
            if let next {
                next(subject)
                continue
            }
            if queue.withLock({ $0.stopping && $0.waiting == 0 }) { break }
        }
        withExtendedLifetime(subject) {}
        queue.withLock { $0.running = false }
        stopped.signal()
    }
}

/// Where a worker leaves one answer for the loop to take once its inbox says it is there.
package final class AnswerSlot<Answer: Sendable, Failure: Error>: Sendable {
    private let answer = Mutex<Result<Answer, Failure>?>(nil)
    /// What `take` gives when nothing was put (a worker that stopped first).
    private let missing: Failure

    package init(missing: Failure) { self.missing = missing }

    package func put(_ result: Result<Answer, Failure>) { answer.withLock { $0 = result } }

    package func take() -> Result<Answer, Failure> { answer.withLock { $0.take() } ?? .failure(missing) }
}
