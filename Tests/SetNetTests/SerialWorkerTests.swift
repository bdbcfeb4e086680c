import Foundation
import SetNet
import Synchronization
import Testing

/// The worker thread the accounts store and the node directory are called on: one call at a
/// time, in the order submitted, off the submitting thread, and nothing queued is lost at a stop.
@Suite struct SerialWorkerTests {
    /// What the calls do to the subject: each appends its number and the thread it ran on.
    final class Tally: Sendable {
        let seen = Mutex<[(call: Int, mainThread: Bool)]>([])
    }

    @Test func callsRunOneAtATimeInOrderOnTheWorkersThreadAndAStopRunsWhatIsQueued() {
        let tally = Tally()
        let worker = SerialWorker(tally, threadName: "test.worker")
        let gate = DispatchSemaphore(value: 0)
        worker.start()
        // The first call holds the worker, so the rest are queued when the stop comes.
        worker.submit { _ in gate.wait() }
        for call in 0..<50 {
            worker.submit { tally in tally.seen.withLock { $0.append((call, Thread.isMainThread)) } }
        }
        gate.signal()
        worker.stop()
        let seen = tally.seen.withLock { $0 }
        #expect(seen.map(\.call) == Array(0..<50))
        #expect(seen.allSatisfy { !$0.mainThread })
    }

    @Test func theSubjectIsTheCallersBeforeTheWorkerStartsAndAfterItStops() throws {
        let worker = SerialWorker([1, 2, 3], threadName: "test.worker")
        #expect(worker.withSubject { $0.count } == 3)
        worker.start()
        worker.stop()
        #expect(worker.withSubject { $0.reduce(0, +) } == 6)
    }

    @Test func anAnswerSlotGivesWhatWasPutOrItsMissingFailure() throws {
        struct Lost: Error, Equatable {}
        let slot = AnswerSlot<Int, Lost>(missing: Lost())
        #expect(throws: Lost()) { try slot.take().get() }
        slot.put(.success(7))
        #expect(try slot.take().get() == 7)
        #expect(throws: Lost()) { try slot.take().get() }
    }
}
