import Foundation
import Synchronization

/// The one thread that calls the accounts store once the server runs: calls are made one at a
/// time, in the order they were submitted, so the store needs no lock of its own and a slow one
/// delays only the calls queued behind it, never the loop.
///
/// `@unchecked Sendable` because the store is not: it is used only by the thread that set the
/// worker up until `start()` (the server's start, before its loop runs), then only by the
/// worker's thread until `stop()` returns, then by the stopping thread again. `withStore`
/// checks the owner's side in debug builds.
final class StoreWorker: @unchecked Sendable {
    typealias Call = @Sendable (AccountStore) -> Void

    private let store: AccountStore
    private let queue = Mutex<(calls: [Call], stopping: Bool)>(([], false))
    private let ready = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    /// Whether the worker thread owns the store; read and written only by the owning thread.
    private var running = false

    init(store: AccountStore) {
        self.store = store
    }

    /// The store, for the thread that owns it while no worker thread runs (startup, shutdown).
    func withStore<Answer>(_ body: (AccountStore) throws(StoreError) -> Answer) throws(StoreError) -> Answer {
        assert(!running, "the accounts store is used on the loop while its worker runs")
        return try body(store)
    }

    /// Starts the worker thread; from now on only it calls the store.
    func start() {
        guard !running else { return }
        running = true
        let thread = Thread { [self] in work() }
        thread.name = "setgame.accounts"
        thread.start()
    }

    /// Queues `call`; it runs after every call queued before it. Any thread.
    func submit(_ call: @escaping Call) {
        queue.withLock { $0.calls.append(call) }
        ready.signal()
    }

    /// Runs the calls already queued, then ends the worker thread and returns once it has ended.
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
            let next: Call? = queue.withLock { queue in
                guard !queue.calls.isEmpty else { return nil }
                return queue.calls.removeFirst()
            }
            if let next {
                next(store)
                continue
            }
            if queue.withLock({ $0.stopping && $0.calls.isEmpty }) { break }
        }
        stopped.signal()
    }
}
