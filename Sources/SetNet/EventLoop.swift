import CLinux
import Glibc
import Synchronization

/// Readiness epoll reported for a descriptor.
package struct Readiness: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let readable = Readiness(rawValue: 1)
    package static let writable = Readiness(rawValue: 2)
    /// The peer hung up or the descriptor failed.
    package static let closed = Readiness(rawValue: 4)
}

/// One thread's epoll loop. Every method except `wake()`, `stop()` and `execute(_:)` must be
/// called on the thread running `run` (before it runs, on the thread setting it up); that
/// confinement is why the type may be shared, and debug builds check it on every call. It is the
/// server's one `@unchecked Sendable`: the compiler cannot see a thread confinement, and the loop
/// is what the `Server` and its `ServerControl` share (stop and wake are atomics and an eventfd).
package final class EventLoop: @unchecked Sendable {
    package typealias Handler = (Readiness) -> Void

    private let epollFD: Int32
    /// A second epoll, itself watched by the first, for the descriptors of the priority lane:
    /// within a long batch it is asked every `priorityInterval` handlers (see `run`).
    private let priorityEpollFD: Int32
    private let wakeFD: Int32
    private var handlers: [Int32: Handler] = [:]
    /// The descriptors watched by `priorityEpollFD` rather than `epollFD`.
    private var prioritized: Set<Int32> = []
    private let stopRequested = Atomic<Bool>(false)
    private let tasks = Mutex<[@Sendable () -> Void]>([])
    /// Each inbox's drain (`LoopInbox`), run on the loop thread whenever the loop is woken, and
    /// within and after a batch when something was posted (`drainPosted`).
    private var inboxDrains: [() -> Void] = []
    /// Whether anything was posted to an inbox since the loop last drained them.
    private let posted = Atomic<Bool>(false)
    /// How many times the eventfd was written: a test's count of wake-ups.
    private let wakeWrites = Atomic<Int>(0)
    /// The thread inside `run`, or 0 while none is.
    private let runningThread = Atomic<UInt>(0)

    package init() throws(SystemCallError) {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw SystemCallError("epoll_create1") }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else { throw SystemCallError("eventfd") }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wakeFD))
        epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
        priorityEpollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard priorityEpollFD >= 0 else { throw SystemCallError("epoll_create1") }
        var lane = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: priorityEpollFD))
        epoll_ctl(epollFD, EPOLL_CTL_ADD, priorityEpollFD, &lane)
    }

    deinit {
        Glibc.close(wakeFD)
        Glibc.close(priorityEpollFD)
        Glibc.close(epollFD)
    }

    /// Watches `fd`; `handler` runs on the loop thread whenever it is ready. A descriptor of the
    /// priority lane is served within a few handlers of a long batch, not after all of it.
    package func register(_ fd: Int32, writable: Bool = false, priority: Bool = false, handler: @escaping Handler) throws(SystemCallError) {
        assertInLoop()
        var event = epoll_event(events: mask(writable: writable), data: epoll_data_t(fd: fd))
        guard epoll_ctl(priority ? priorityEpollFD : epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else { throw SystemCallError("epoll_ctl add") }
        handlers[fd] = handler
        if priority { prioritized.insert(fd) }
    }

    /// Moves a watched `fd` into the priority lane or out of it, watched as `readable` and
    /// `writable` say. What is waiting on it is reported by its new lane (epoll is level-triggered).
    package func prioritize(_ fd: Int32, _ priority: Bool, readable: Bool, writable: Bool) {
        assertInLoop()
        guard handlers[fd] != nil, prioritized.contains(fd) != priority else { return }
        var event = epoll_event(events: mask(readable: readable, writable: writable), data: epoll_data_t(fd: fd))
        epoll_ctl(epoll(of: fd), EPOLL_CTL_DEL, fd, nil)
        if priority { prioritized.insert(fd) } else { prioritized.remove(fd) }
        epoll_ctl(epoll(of: fd), EPOLL_CTL_ADD, fd, &event)
    }

    /// Whether `fd` is in the priority lane.
    package func isPrioritized(_ fd: Int32) -> Bool { prioritized.contains(fd) }

    private func epoll(of fd: Int32) -> Int32 { prioritized.contains(fd) ? priorityEpollFD : epollFD }

    /// Turns interest in writability on or off; on only while output is waiting.
    package func watchWritable(_ fd: Int32, _ writable: Bool) { watch(fd, readable: true, writable: writable) }

    /// Sets what `fd` is watched for. Not readable: its input waits in the kernel (a peer over
    /// its rate limit is slowed by TCP, not read and answered line by line); a hang-up is still heard.
    package func watch(_ fd: Int32, readable: Bool, writable: Bool) {
        assertInLoop()
        var event = epoll_event(events: mask(readable: readable, writable: writable), data: epoll_data_t(fd: fd))
        epoll_ctl(epoll(of: fd), EPOLL_CTL_MOD, fd, &event)
    }

    /// Stops watching `fd`; the caller closes it.
    package func unregister(_ fd: Int32) {
        assertInLoop()
        handlers[fd] = nil
        epoll_ctl(epoll(of: fd), EPOLL_CTL_DEL, fd, nil)
        prioritized.remove(fd)
    }

    private func mask(readable: Bool = true, writable: Bool) -> UInt32 {
        (readable ? EPOLLIN.rawValue : 0) | EPOLLRDHUP.rawValue | (writable ? EPOLLOUT.rawValue : 0)
    }

    /// Runs until `stop()`. Before each wait it asks `timeout` how many milliseconds it may sleep
    /// (-1: until something happens); after each batch of readiness it calls `tick`, and within a
    /// large batch it calls `midBatch` after every `midBatchInterval` handlers, so output made early
    /// in a batch need not wait for the whole batch. What other threads posted to an inbox is taken
    /// after the handler during which it came, followed by a `midBatch`, and before each `tick`: a
    /// worker's answer waits for one handler, not for the rest of the batch and the eventfd's turn.
    /// Every `priorityInterval` handlers of a batch, up to `priorityPerCheck` ready descriptors of
    /// the priority lane are served, then a `midBatch`: they wait a few handlers, not the batch
    /// (which may take milliseconds), yet take at most a third of a busy loop's handlers.
    package func run(timeout: () -> Int32, tick: () -> Void, midBatch: () -> Void = {}, midBatchInterval: Int = 32,
                     priorityInterval: Int = 8, priorityPerCheck: Int = 4) {
        let (claimed, _) = runningThread.compareExchange(expected: 0, desired: pthread_self(), ordering: .acquiringAndReleasing)
        precondition(claimed, "EventLoop.run: the loop is already running on another thread")
        defer { runningThread.store(0, ordering: .releasing) }
        var events = [epoll_event](repeating: epoll_event(), count: 512)
        var priorityEvents = [epoll_event](repeating: epoll_event(), count: 64)
        waiting: while !stopRequested.load(ordering: .acquiring) {
            // An interrupted wait is made again, with the time left asked anew.
            let count: Int
            switch SystemCall.run({ Int(epoll_wait(epollFD, &events, Int32(events.count), timeout())) }) {
            case .done(let ready): count = ready
            case .wouldBlock: count = 0
            case .failed: break waiting
            }
            for index in 0..<count {
                let fd = events[index].data.fd
                if fd == wakeFD {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    runTasks()
                    drainInboxes()
                    continue
                }
                if fd == priorityEpollFD {
                    // Alone in the batch, all that is ready; beside other work, its share.
                    if servePriority(&priorityEvents, upTo: count == 1 ? priorityEvents.count : priorityPerCheck) > 0 { midBatch() }
                    continue
                }
                dispatch(events[index])
                var flush = posted.load(ordering: .relaxed) || (index + 1) % midBatchInterval == 0
                if (index + 1) % priorityInterval == 0, servePriority(&priorityEvents, upTo: priorityPerCheck) > 0 { flush = true }
                // A worker's answer (a question's, a record's) goes out after the handler during
                // which it came, not after the rest of a batch that may take milliseconds.
                if flush {
                    drainPosted()
                    midBatch()
                }
            }
            drainPosted()
            tick()
        }
        runTasks()
        drainInboxes()
    }

    private func dispatch(_ event: epoll_event) {
        let flags = event.events
        var readiness: Readiness = []
        if flags & EPOLLIN.rawValue != 0 { readiness.insert(.readable) }
        if flags & EPOLLOUT.rawValue != 0 { readiness.insert(.writable) }
        if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0 { readiness.insert(.closed) }
        handlers[event.data.fd]?(readiness)
    }

    /// Serves up to `limit` ready descriptors of the priority lane, without waiting; how many.
    private func servePriority(_ events: inout [epoll_event], upTo limit: Int) -> Int {
        guard !prioritized.isEmpty else { return 0 }
        guard case .done(let ready) = SystemCall.run({ Int(epoll_wait(priorityEpollFD, &events, Int32(min(limit, events.count)), 0)) }) else {
            return 0
        }
        for index in 0..<ready { dispatch(events[index]) }
        return ready
    }

    private func drainInboxes() {
        posted.store(false, ordering: .sequentiallyConsistent)
        inboxDrains.forEach { $0() }
    }

    /// Takes what was posted since the last drain, if anything was: one atomic load otherwise.
    private func drainPosted() {
        if posted.load(ordering: .relaxed) { drainInboxes() }
    }

    /// A way in for values from other threads: `LoopInbox.post` from any thread, and `receive`
    /// runs on this loop's thread with what was posted, in order. `receive` itself never leaves
    /// the loop's thread, so it may capture what only the loop may touch.
    package func inbox<Message: Sendable>(receive: @escaping ([Message]) -> Void) -> LoopInbox<Message> {
        assertInLoop()
        let inbox = LoopInbox<Message>(loop: self)
        inboxDrains.append { receive(inbox.take()) }
        return inbox
    }

    /// Whether the caller may use the loop's confined methods: it is the thread in `run`, or no
    /// thread is in `run`.
    package var isConfinedHere: Bool {
        let owner = runningThread.load(ordering: .acquiring)
        return owner == 0 || owner == pthread_self()
    }

    /// Stops a debug build when loop-only code runs on another thread than the loop's (NIO's
    /// `assertInEventLoop`); costs nothing in release builds.
    package func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(isConfinedHere, "called off the event loop's thread", file: file, line: line)
    }

    /// Interrupts a wait so the loop re-reads its timeout and runs queued tasks. Any thread.
    package func wake() {
        wakeWrites.add(1, ordering: .relaxed)
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Says an inbox holds something new (`LoopInbox.post`): the loop takes it at its next
    /// drain, within its batch or after its wait; `wakes` is false when the inbox already held
    /// something, whose post woke the loop already, so a burst of answers costs one wake-up.
    func posted(wakes: Bool) {
        posted.store(true, ordering: .sequentiallyConsistent)
        if wakes { wake() }
    }

    /// How many times the loop was woken from another thread so far (tests count wake-ups).
    package var wakeUps: Int { wakeWrites.load(ordering: .relaxed) }

    /// Asks `run` to return after the current batch. Any thread.
    package func stop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    /// Lets `run` be called again after it returned from a `stop()`.
    package func clearStop() { stopRequested.store(false, ordering: .releasing) }

    /// Runs `task` on the loop thread soon. Any thread.
    package func execute(_ task: @escaping @Sendable () -> Void) {
        tasks.withLock { $0.append(task) }
        wake()
    }

    private func runTasks() {
        let pending = tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        for task in pending { task() }
    }
}
