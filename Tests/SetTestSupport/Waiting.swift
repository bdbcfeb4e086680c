import Glibc
import SetNet

// Waiting for results, never for a quiet period: a test that waits goes on the moment what it
// waits for has happened, and only a hang reaches the deadline, which the test then fails on.

/// Real time a wait may take before the test fails: only a hang gets anywhere near it.
package let hangMs: Int64 = 20_000

/// Asks `probe` until `done` accepts its answer, which it returns; after a deadline only a hang
/// reaches, it returns the last answer, for the test to fail on with what it shows. For what no
/// barrier orders, such as one connection's end against another connection's request.
package func polled<T>(_ probe: () throws -> T, until done: (T) -> Bool, hangMs: Int64 = hangMs) rethrows -> T {
    let deadline = MonotonicTime.rawMilliseconds() + hangMs
    var answer = try probe()
    while !done(answer) && MonotonicTime.rawMilliseconds() < deadline {
        usleep(2_000)  // a pause between questions, so the loop answering them keeps the CPU
        answer = try probe()
    }
    return answer
}

/// Runs `loop` until `condition` holds after a batch, and says whether it did. The clients' time
/// is their own injected clock; the real-time limit only guards against a hang.
package func runLoop(_ loop: EventLoop, limitMs: Int64 = hangMs, until condition: () -> Bool) -> Bool {
    if condition() { return true }
    let deadline = MonotonicTime.rawMilliseconds() + limitMs
    var met = false
    loop.clearStop()
    loop.run(timeout: { 50 }, tick: {
        met = condition()
        if met || MonotonicTime.rawMilliseconds() >= deadline { loop.stop() }
    })
    loop.clearStop()
    return met
}

/// Bytes the kernel holds for a socket: not yet read (`FIONREAD`), or not yet taken by the peer's
/// kernel (`TIOCOUTQ`, the same request as `SIOCOUTQ` on a socket).
package enum KernelQueue {
    package static func unread(_ fd: Int32) -> Int { count(fd, UInt(FIONREAD)) }
    package static func undelivered(_ fd: Int32) -> Int { count(fd, UInt(TIOCOUTQ)) }

    private static func count(_ fd: Int32, _ request: UInt) -> Int {
        var bytes: Int32 = 0
        return ioctl(fd, request, &bytes) == 0 ? Int(bytes) : 0
    }
}
