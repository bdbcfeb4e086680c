import Foundation
import SetDatabase
import SetNet
import Synchronization

/// The thread that calls the node directory once the server runs, as `StoreWorker` does for the
/// accounts store: one call at a time, in order, each answer left for the loop in its inbox.
/// Nothing on the loop waits for the shared store.
///
/// `@unchecked Sendable` because the directory is not: only the starting thread uses it before
/// `start()` (registration, before the loop runs), then only the worker's thread.
final class NodeWorker: @unchecked Sendable {
    typealias Call = @Sendable (NodeDirectory) -> Void

    private let directory: NodeDirectory
    private let queue = Mutex<(calls: [Call], stopping: Bool)>(([], false))
    private let ready = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private var running = false

    init(directory: NodeDirectory) {
        self.directory = directory
    }

    /// The directory, for the starting thread before the worker runs.
    func withDirectory<Answer>(_ body: (NodeDirectory) throws(DatabaseError) -> Answer) throws(DatabaseError) -> Answer {
        assert(!running, "the node directory is used on the loop while its worker runs")
        return try body(directory)
    }

    func start() {
        guard !running else { return }
        running = true
        let thread = Thread { [self] in work() }
        thread.name = "setgame.nodes"
        thread.start()
    }

    /// Queues `call`; any thread.
    func submit(_ call: @escaping Call) {
        queue.withLock { $0.calls.append(call) }
        ready.signal()
    }

    /// Runs what is queued, then ends the thread.
    func stop() {
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
                next(directory)
                continue
            }
            if queue.withLock({ $0.stopping && $0.calls.isEmpty }) { break }
        }
        stopped.signal()
    }
}

/// Where the worker leaves one answer for the loop.
final class NodeAnswerSlot<Answer: Sendable>: Sendable {
    private let answer = Mutex<Result<Answer, DatabaseError>?>(nil)

    func put(_ result: Result<Answer, DatabaseError>) { answer.withLock { $0 = result } }

    func take() -> Result<Answer, DatabaseError> {
        answer.withLock { $0.take() } ?? .failure(DatabaseError(.unavailable, "the node worker left no answer"))
    }
}
