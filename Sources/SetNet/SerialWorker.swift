import Foundation
import Synchronization

/// One thread that makes every call on a subject the loop must not wait for (the accounts store,
/// the node directory): calls run one at a time, in the order they were submitted, so the
/// subject needs no lock of its own and a slow call delays only the calls queued behind it,
/// never the loop.
///
/// `@unchecked Sendable` because the subject is not: it is used only by the thread that set the
/// worker up until `start()` (the server's start, before its loop runs), then only by the
/// worker's thread until `stop()` returns, then by the stopping thread again. `withSubject`
/// checks the owner's side in debug builds.
package final class SerialWorker<Subject>: @unchecked Sendable {
    package typealias Call = @Sendable (Subject) -> Void

    private let subject: Subject
    private let threadName: String
    private let queue = Mutex<(calls: [Call], stopping: Bool)>(([], false))
    private let ready = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    /// Whether the worker thread owns the subject; read and written only by the owning thread.
    private var running = false

    /// `threadName` names the thread in a debugger and in `top -H`.
    package init(_ subject: Subject, threadName: String) {
        self.subject = subject
        self.threadName = threadName
    }

    /// The subject, for the thread that owns it while no worker thread runs (startup, shutdown).
    package func withSubject<Answer, Failure: Error>(_ body: (Subject) throws(Failure) -> Answer) throws(Failure) -> Answer {
        assert(!running, "\(threadName): the subject is used on another thread while its worker runs")
        return try body(subject)
    }

    /// Starts the worker thread; from now on only it calls the subject.
    package func start() {
        guard !running else { return }
        running = true
        let thread = Thread { [self] in work() }
        thread.name = threadName
        thread.start()
    }

    /// Queues `call`; it runs after every call queued before it. Any thread.
    package func submit(_ call: @escaping Call) {
        queue.withLock { $0.calls.append(call) }
        ready.signal()
    }

    /// Runs the calls already queued, then ends the worker thread and returns once it has ended.
    package func stop() {
        guard running else { return }
        queue.withLock { $0.stopping = true }
        ready.signal()
        stopped.wait()
        running = false
    }

    private func work() {
        while true {
            ready.wait()
            let next: Call? = queue.withLock { queue in queue.calls.isEmpty ? nil : queue.calls.removeFirst() }
            if let next {
                next(subject)
                continue
            }
            if queue.withLock({ $0.stopping && $0.calls.isEmpty }) { break }
        }
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
