import Foundation
import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a call on a thread of its own, without ever losing one; signals
/// `ignoring` names (a server's SIGHUP) are taken the same way and only said (`whenIgnored`).
///
/// The signals are blocked first, in the calling thread and so in every thread it starts later; a
/// signal that arrives before anyone waits for it stays pending instead of being ignored or
/// killing the process, and a waiting thread takes it with `sigwait`. (Ignoring the signal and
/// watching it with a Dispatch source lost it whenever it came before the source was armed: a
/// script that stopped the server as soon as it announced its port found it hanging.)
/// Create it first thing, before any other thread exists.
package final class StopSignals: Sendable {
    private let handler = Mutex<(@Sendable () -> Void)?>(nil)
    private let caught = Mutex(false)
    private let ignoredHandler = Mutex<(@Sendable (Int32) -> Void)?>(nil)

    package init(_ numbers: [Int32], ignoring ignored: [Int32] = []) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers + ignored { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waitingSet = set
        Thread.detachNewThread { [self] in
            var waitFor = waitingSet
            var number: Int32 = 0
            while sigwait(&waitFor, &number) == 0 {
                if ignored.contains(number) { ignoredHandler.withLock { $0 }?(number) } else { fire() }
            }
        }
    }

    /// Sets what an ignored signal does besides nothing (a log line); one that came before is gone.
    package func whenIgnored(_ action: @escaping @Sendable (Int32) -> Void) {
        ignoredHandler.withLock { $0 = action }
    }

    /// Sets what a signal does; a signal that came before this runs it at once.
    package func whenSignalled(_ action: @escaping @Sendable () -> Void) {
        handler.withLock { $0 = action }
        if caught.withLock({ $0 }) { action() }
    }

    /// Sleeps `milliseconds` unless a signal comes first; false when one came (before or during).
    package func sleep(milliseconds: Int64) -> Bool {
        var left = milliseconds
        while left > 0 {
            if caught.withLock({ $0 }) { return false }
            let step = min(left, 100)
            usleep(UInt32(step) * 1_000)
            left -= step
        }
        return !caught.withLock { $0 }
    }

    private func fire() {
        caught.withLock { $0 = true }
        let action = handler.withLock { $0 }
        action?()
    }
}
