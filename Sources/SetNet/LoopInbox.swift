import Synchronization

/// Values posted to an event loop from other threads (a worker's answers), taken on the loop's
/// thread by the `receive` given to `EventLoop.inbox(receive:)`. Posting never blocks on the loop.
package final class LoopInbox<Message: Sendable>: Sendable {
    private let loop: EventLoop
    private let posted = Mutex<[Message]>([])

    init(loop: EventLoop) { self.loop = loop }

    /// Leaves `message` for the loop and wakes it, unless what was posted before it is still
    /// waiting to be taken: that post's wake-up takes this one too. Any thread.
    package func post(_ message: Message) {
        let first = posted.withLock { posted in
            posted.append(message)
            return posted.count == 1
        }
        loop.posted(wakes: first)
    }

    /// What was posted since the last take, oldest first (the loop's drain).
    func take() -> [Message] {
        posted.withLock { posted in
            defer { posted.removeAll(keepingCapacity: true) }
            return posted
        }
    }
}
