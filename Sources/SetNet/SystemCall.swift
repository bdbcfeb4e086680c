import Glibc

/// What one system call came to, once interruptions were retried.
package enum SystemCallResult: Equatable, Sendable {
    /// It succeeded, with the call's non-negative result (a count, a descriptor, 0).
    case done(Int)
    /// The descriptor is non-blocking (or the lock is held) and the call would have had to wait.
    case wouldBlock
    /// It failed with this errno.
    case failed(Int32)
}

/// The one way SetNet makes a system call on a descriptor: a call interrupted by a signal
/// (`EINTR`) is made again, and "not now" (`EAGAIN`/`EWOULDBLOCK`) is told apart from failure,
/// so no caller reads `errno` itself or forgets one of the two.
package enum SystemCall {
    /// Runs `call` (a C call returning -1 and setting errno on failure) until it is not interrupted.
    package static func run(_ call: () -> Int) -> SystemCallResult {
        while true {
            let result = call()
            if result >= 0 { return .done(result) }
            let code = errno
            if code == EINTR { continue }
            return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
        }
    }
}
