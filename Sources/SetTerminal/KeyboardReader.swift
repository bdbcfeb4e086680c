import Glibc
import SetNet
import SetScreen

/// What the terminal told the program, in the order it happened.
enum TerminalHappening: Hashable, Sendable {
    case input(InputEvent)
    /// The window changed size (SIGWINCH): the new size.
    case resized(TerminalSize)
    /// A signal that ends the program politely (SIGINT, SIGTERM, SIGHUP, SIGQUIT).
    case signalled(Int32)
    /// The terminal went away: its end of the pty closed, or reading it failed.
    case closed
}

/// The one reader of a terminal, shared by the game client and the door's menu, on their
/// `EventLoop`: the keyboard's bytes become keys and clicks (`KeyStream`), a lone ESC becomes
/// the Escape key at a deadline the loop's owner waits for (`waitMilliseconds`, then `tick`),
/// and the signal pipe's numbers become a resize or a polite end. Loop-confined, like the loop.
final class KeyboardReader {
    let loop: EventLoop
    let clock: any TimeSource
    /// Where the keys come from (stdin; a pipe in tests).
    let keyboardFD: Int32
    /// The read end of the pipe the signal handlers write signal numbers into (`TerminalSession`).
    let signalFD: Int32
    /// The terminal's size now, asked at each SIGWINCH.
    let size: () -> TerminalSize
    /// Hears every happening; set before `start()`.
    var onHappening: (TerminalHappening) -> Void = { _ in }
    private var keys = KeyStream()
    /// True once the terminal went away: nothing more is read, and `.closed` is said once.
    private(set) var isClosed = false

    init(loop: EventLoop, clock: any TimeSource, keyboardFD: Int32 = STDIN_FILENO, signalFD: Int32,
         size: @escaping () -> TerminalSize = TerminalSession.size) {
        self.loop = loop
        self.clock = clock
        self.keyboardFD = keyboardFD
        self.signalFD = signalFD
        self.size = size
    }

    /// Starts watching the keyboard and the signal pipe.
    func start() throws(SystemCallError) {
        try loop.register(keyboardFD) { [unowned self] readiness in self.readKeyboard(readiness) }
        do {
            try loop.register(signalFD) { [unowned self] _ in self.readSignals() }
        } catch {
            loop.unregister(keyboardFD)
            throw error
        }
    }

    /// Stops watching; the descriptors stay open (they are not the reader's).
    func stop() {
        if !isClosed { loop.unregister(keyboardFD) }
        loop.unregister(signalFD)
    }

    private var now: Int64 { clock.now().milliseconds }

    /// When (the clock's milliseconds) the loop must call `tick()` for a held ESC; nil when only
    /// input can change anything.
    var escapeDeadline: Int64? { keys.escapeDeadline }

    /// Milliseconds the loop may sleep for the keyboard's sake: -1 when nothing is held.
    func waitMilliseconds() -> Int32 {
        guard let deadline = keys.escapeDeadline else { return -1 }
        return Int32(clamping: max(0, deadline - now))
    }

    /// After each batch the loop handled: a held ESC whose wait is over becomes the Escape key.
    func tick() {
        for event in keys.due(at: now) { onHappening(.input(event)) }
    }

    private func readKeyboard(_ readiness: Readiness) {
        guard !isClosed else { return }
        var bytes = [UInt8](repeating: 0, count: 4_096)
        let result = readiness.contains(.readable) ? SystemCall.run { bytes.withUnsafeMutableBytes { read(keyboardFD, $0.baseAddress, $0.count) } } : .done(0)
        if result == .wouldBlock { return }
        guard case .done(let count) = result, count > 0 else {
            // The end of input, or a terminal that failed: a descriptor that stays ready with
            // nothing to read would spin the loop, so it is watched no more.
            isClosed = true
            loop.unregister(keyboardFD)
            return onHappening(.closed)
        }
        for event in keys.feed(Array(bytes[0..<count]), at: now) { onHappening(.input(event)) }
    }

    private func readSignals() {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(signalFD, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        for number in bytes[0..<count].map({ Int32($0) }) {
            onHappening(number == SIGWINCH ? .resized(size()) : .signalled(number))
        }
    }
}
