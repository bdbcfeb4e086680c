import CLinux
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

    /// The scheduler's slice a thread runs with, from `/proc/thread-self/sched` (nil where the
    /// kernel does not show it).
    static func ownSlice() -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/sched", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("se.slice") }
        return line.flatMap { $0.split(separator: ":").last }.flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Whether this kernel gives a thread the slice it asks for (custom slices, Linux 6.12 on;
    /// an older kernel takes the request and keeps its default). Asked on a thread of its own, for
    /// a slice other than the worker's, so this probe cannot stand in for what the test checks.
    static let kernelGivesCustomSlices: Bool = {
        final class Answer: Sendable { let given = Mutex(false) }
        let answer = Answer(), done = DispatchSemaphore(value: 0)
        let asked: UInt64 = 200_000
        let thread = Thread {
            answer.given.withLock { $0 = setgame_request_short_slice(asked) == 0 && ownSlice() == asked }
            done.signal()
        }
        thread.start()
        done.wait()
        return answer.given.withLock { $0 }
    }()

    /// A worker's calls are short: its thread asks for the shortest slice, so its wake-up need not
    /// wait for the end of a busy loop's slice on the same core (a question waited up to 1.4 ms).
    @Test(.enabled(if: kernelGivesCustomSlices, "this kernel keeps its default slice whatever a thread asks (custom slices: Linux 6.12 on)"))
    func theWorkersThreadRunsWithAShortSlice() throws {
        let caller = try #require(Self.ownSlice(), "this kernel does not show se.slice")
        let seen = Mutex<UInt64?>(nil)
        let worker = SerialWorker(0, threadName: "test.worker")
        worker.start()
        worker.submit { _ in seen.withLock { $0 = Self.ownSlice() } }
        #expect(worker.stop())
        #expect(caller > SerialWorker<Int>.sliceNanoseconds)
        #expect(seen.withLock { $0 } == SerialWorker<Int>.sliceNanoseconds)
    }

    /// Work nobody waits for (the journals' syncs) runs at nice 19, so its thread's wake-ups never
    /// take the core from the loop; a prompt worker keeps the nice the process has.
    @Test func aBackgroundWorkersThreadRunsAtTheLowestPriority() {
        let caller = setgame_thread_nice()
        let seen = Mutex<[Int32]>([])
        let background = SerialWorker((), threadName: "test.background", urgency: .background)
        let prompt = SerialWorker((), threadName: "test.prompt")
        background.start()
        prompt.start()
        background.submit { _ in seen.withLock { $0.append(setgame_thread_nice()) } }
        #expect(background.stop())
        prompt.submit { _ in seen.withLock { $0.append(setgame_thread_nice()) } }
        #expect(prompt.stop())
        #expect(caller < 19)
        #expect(seen.withLock { $0 } == [19, caller])
        #expect(setgame_thread_nice() == caller)
    }

    @Test func theSubjectIsTheCallersBeforeTheWorkerStartsThenTheThreads() throws {
        let worker = SerialWorker([1, 2, 3], threadName: "test.worker")
        #expect(worker.withSubject { $0.count } == 3)
        let sum = Mutex(0)
        worker.start()
        worker.submit { numbers in sum.withLock { $0 = numbers.reduce(0, +) } }
        #expect(worker.stop())
        #expect(sum.withLock { $0 } == 6)
    }

    /// A lane sheds what it cannot queue: past its capacity `submit` refuses, and nothing refused runs.
    @Test func aBoundedWorkerRefusesCallsPastItsCapacity() {
        let ran = Mutex(0)
        let worker = SerialWorker((), threadName: "test.bounded", capacity: 3)
        let gate = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        worker.start()
        #expect(worker.submit { _ in holding.signal(); gate.wait() })
        holding.wait()  // the first call runs (and waits): the queue is empty again
        let accepted = (0..<5).map { _ in worker.submit { _ in ran.withLock { $0 += 1 } } }
        #expect(accepted == [true, true, true, false, false])
        #expect(worker.waiting == 3)
        gate.signal()
        #expect(worker.stop())
        #expect(ran.withLock { $0 } == 3)
    }

    /// A stop waits a bounded time for a call that does not return (a store that stopped
    /// answering), and says it did not end.
    @Test func aStopWaitsAtMostItsBoundForACallThatDoesNotReturn() {
        let worker = SerialWorker((), threadName: "test.stuck")
        let gate = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        worker.start()
        worker.submit { _ in holding.signal(); gate.wait() }
        holding.wait()
        #expect(!worker.stop(waitingAtMost: .milliseconds(50)))
        #expect(!worker.submit { _ in })
        gate.signal()
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
