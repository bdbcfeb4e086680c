import SetNet

/// Runs `loop` until `condition` holds after a batch, and says whether it did. The clients' time
/// is their own injected clock; the real-time limit only guards against a hang.
func runLoop(_ loop: EventLoop, limitMs: Int64 = hangMs, until condition: () -> Bool) -> Bool {
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
