import Glibc
import SetNet

/// Asks `probe` until `done` accepts its answer, which it returns; after a deadline only a hang
/// reaches, it returns the last answer, for the test to fail on with what it shows. For what no
/// barrier orders, such as one connection's end against another connection's request.
func polled<T>(_ probe: () throws -> T, until done: (T) -> Bool, hangMs: Int64 = 20_000) rethrows -> T {
    let deadline = MonotonicTime.rawMilliseconds() + hangMs
    var answer = try probe()
    while !done(answer) && MonotonicTime.rawMilliseconds() < deadline {
        usleep(2_000)  // a pause between questions, so the loop answering them keeps the CPU
        answer = try probe()
    }
    return answer
}
