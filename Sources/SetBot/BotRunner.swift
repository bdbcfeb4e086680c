import SetClient
import SetNet
import SetRules
import SetWire
import Synchronization

/// Runs bots on one event loop thread. Its state lives in a loop-owned core that only the thread
/// holding it may touch: `run()` holds it for the whole run, and the few calls made before or
/// after (adding bots, reading what they saw) take it in turn. Other threads steer the run only
/// through `control`, which is Sendable by what it holds, not by a promise. The callbacks run
/// while the run holds the core: they may use `control`, never `views`, `failures` or `add`.
package final class BotRunner: Sendable {
    /// Stops and wakes a running `BotRunner` from any thread.
    package struct Control: Sendable {
        let loop: EventLoop
        let stopRequest: StopRequest
        let stepping: Stepping

        /// Ends the run after the current batch.
        package func stop() { loop.stop() }

        /// Asks the bots to leave their seats as soon as nothing of theirs is in flight: a claim
        /// sent and not yet answered, a window of their own. Leaving then costs them nothing (a
        /// seat that leaves passes its window, and a claim is 10 points), and the run ends.
        package func stepOut() {
            _ = stepping.state.compareExchange(expected: .playing, desired: .leaving, ordering: .acquiringAndReleasing)
            loop.wake()
        }

        /// Takes back a `stepOut()` not yet done: true when the bots play on in their seats, false
        /// when they have left (the run is over, or ending).
        package func stayIn() -> Bool {
            let (exchanged, original) = stepping.state.compareExchange(expected: .leaving, desired: .playing,
                                                                        ordering: .acquiringAndReleasing)
            loop.wake()
            return exchanged || original == .playing
        }

        /// Makes the loop look at the clock again; tests call it after moving a manual clock.
        package func wake() { loop.wake() }

        /// Stops once every bot still connected has applied the event numbered `seq`, so what they
        /// saw can be compared with what a spectator saw up to it.
        package func stop(afterSeq seq: Int) {
            stopRequest.afterSeq.store(seq, ordering: .releasing)
            loop.wake()
        }
    }

    /// Whether the bots play, are to leave once nothing of theirs is in flight, or have left.
    enum StepOut: UInt8, AtomicRepresentable { case playing, leaving, left }

    final class Stepping: Sendable {
        let state = Atomic<StepOut>(.playing)
    }

    /// The seq `stop(afterSeq:)` asked for; `none` until then.
    final class StopRequest: Sendable {
        static let none = Int.min
        let afterSeq = Atomic<Int>(StopRequest.none)
    }

    package let control: Control
    private let core: Mutex<BotRunnerCore>

    package init(clock: TimeSource = MonotonicTime()) throws(SystemCallError) {
        Sockets.ignoreBrokenPipes()
        let loop = try EventLoop()
        control = Control(loop: loop, stopRequest: StopRequest(), stepping: Stepping())
        core = Mutex(BotRunnerCore(loop: loop, clock: clock, stopRequest: control.stopRequest, stepping: control.stepping))
    }

    /// Called on the loop thread when a bot's connection ends. Set it before `run()`.
    package var onBotClosed: @Sendable (String) -> Void {
        get { core.withLock { $0.onBotClosed } }
        set { core.withLock { $0.onBotClosed = newValue } }
    }

    /// Called on the loop thread when the server confirms a bot's join: its name, the match, the
    /// seat token it was given, and where. Set it before `run()`.
    package var onBotJoined: @Sendable (BotJoined) -> Void {
        get { core.withLock { $0.onBotJoined } }
        set { core.withLock { $0.onBotJoined = newValue } }
    }

    /// Called on the loop thread on an arena bot's arena events (`BotOptions.arena`): its name, and
    /// each pairing, each duel's end and each state heard (the last one final). Set it before `run()`.
    package var onBotArena: @Sendable (String, ArenaHeard) -> Void {
        get { core.withLock { $0.onBotArena } }
        set { core.withLock { $0.onBotArena = newValue } }
    }

    /// Called on the loop thread with a bot's name and what its session logs (events it missed,
    /// a snapshot asked for again). Set it before `run()`.
    package var onBotLog: @Sendable (String, String) -> Void {
        get { core.withLock { $0.onBotLog } }
        set { core.withLock { $0.onBotLog = newValue } }
    }

    /// Connects a bot and asks to join; it plays once `run()` runs.
    package func add(_ options: BotOptions) throws(SystemCallError) {
        try core.withLock { (core) throws(SystemCallError) in try core.add(options) }
    }

    /// Plays until every bot's connection has ended or `control.stop()` is called.
    package func run() {
        core.withLock { $0.run() }
    }

    /// Same as `control.stop()`.
    package func stop() { control.stop() }

    /// Same as `control.wake()`.
    package func wake() { control.wake() }

    /// Same as `control.stop(afterSeq:)`.
    package func stop(afterSeq seq: Int) { control.stop(afterSeq: seq) }

    /// What each bot sees; waits for a run to end.
    package var views: [MatchView?] { core.withLock { $0.bots.map(\.view) } }

    /// Errors the server sent back to the bots: an honest bot gets only a few, from races.
    package var errorsReceived: Int { core.withLock { $0.bots.map(\.errorsReceived).reduce(0, +) } }

    /// What the arena bots measured: pairing waits, and whether the standings shown agree; waits
    /// for a run to end.
    package var arenaTally: ArenaTally { core.withLock { $0.tally } }

    /// Each arena bot's arena as it last heard it, by name: the final standings once it is over;
    /// waits for a run to end.
    package var arenaStates: [String: ArenaView] {
        core.withLock { core in
            Dictionary(core.bots.compactMap { bot in bot.arenaState.map { (bot.options.name, $0) } }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Why bots failed (a refused join, a fatal error, a server that stopped answering), by name;
    /// waits for a run to end.
    package var failures: [String] {
        core.withLock { core in
            core.bots.compactMap { bot in
                let failure = bot.failure ?? (!bot.hasJoined ? "never joined (\(bot.closedReason ?? "stopped"))" : nil)
                return failure.map { "\(bot.options.name): \($0)" }
            }
        }
    }
}

/// The runner's state, touched only by the thread holding it: the loop thread during `run()`.
final class BotRunnerCore {
    let loop: EventLoop
    let clock: TimeSource
    let stopRequest: BotRunner.StopRequest
    let stepping: BotRunner.Stepping
    private(set) var bots: [BotPlayer] = []
    var onBotClosed: @Sendable (String) -> Void = { _ in }
    var onBotJoined: @Sendable (BotJoined) -> Void = { _ in }
    var onBotArena: @Sendable (String, ArenaHeard) -> Void = { _, _ in }
    var onBotLog: @Sendable (String, String) -> Void = { _, _ in }
    private(set) var tally = ArenaTally()

    init(loop: EventLoop, clock: TimeSource, stopRequest: BotRunner.StopRequest, stepping: BotRunner.Stepping) {
        self.loop = loop
        self.clock = clock
        self.stopRequest = stopRequest
        self.stepping = stepping
    }

    func add(_ options: BotOptions) throws(SystemCallError) {
        let bot = try BotPlayer(options, loop: loop, clock: clock)
        bot.onJoined = { [unowned self, unowned bot] match in
            self.onBotJoined(BotJoined(name: bot.options.name, match: match, token: bot.token, place: bot.place.description))
        }
        bot.onArena = { [unowned self, unowned bot] heard in
            self.tally.heard(heard, by: bot.options.name, at: self.clock.now())
            self.onBotArena(bot.options.name, heard)
        }
        bot.onConnection = { [unowned self, unowned bot] connection in self.hear(bot, on: connection) }
        bot.onLog = { [unowned self, unowned bot] line in self.onBotLog(bot.options.name, line) }
        hear(bot, on: bot.connection)
        bots.append(bot)
    }

    /// Hands a bot its connection's lines, and notes its end.
    private func hear(_ bot: BotPlayer, on connection: LineSocket) {
        connection.onLine = { [unowned self, unowned bot] line in bot.receive(line, at: self.clock.now()) }
        connection.onClose = { [unowned self, unowned bot] reason in
            if bot.connectionEnded(reason, at: self.clock.now()) { return }
            bot.noteClosed(reason)
            // An arena bot's end when the arena is over is its goal reached, not news.
            if !bot.arenaIsOver { self.onBotClosed("\(bot.options.name): \(bot.closedReason ?? reason)") }
            if self.bots.allSatisfy({ !$0.isOpen }) { self.loop.stop() }
        }
    }

    func run() {
        loop.run(timeout: { [unowned self] in self.waitMilliseconds() }, tick: { [unowned self] in self.tick() })
        for bot in bots { bot.connection.close("stopped") }
    }

    private func stopIfCaughtUp() {
        let seq = stopRequest.afterSeq.load(ordering: .acquiring)
        guard seq != BotRunner.StopRequest.none else { return }
        if bots.allSatisfy({ !$0.isOpen || ($0.view?.seq ?? -1) >= seq }) { loop.stop() }
    }

    /// The longest the loop sleeps: a bot whose every wait was lost (its end told to nobody) must
    /// not park the run in `epoll_wait` for good.
    static let longestWaitMs: Int64 = 1_000

    private func waitMilliseconds() -> Int32 {
        let now = clock.now()
        guard let next = bots.filter(\.isOpen).compactMap(\.nextWakeUp).min() else { return Int32(Self.longestWaitMs) }
        return Int32(clamping: min(Self.longestWaitMs, max(0, next.milliseconds(since: now))))
    }

    private func tick() {
        let now = clock.now()
        let leaving = stepping.state.load(ordering: .acquiring) == .leaving
        for bot in bots where bot.isOpen {
            bot.act(at: now, leaving: leaving)
            bot.keepAlive(at: now)
            bot.connection.flush()
        }
        if leaving, bots.allSatisfy({ !$0.isOpen || $0.mayStepOut(at: now) }),
           stepping.state.compareExchange(expected: .leaving, desired: .left, ordering: .acquiringAndReleasing).exchanged {
            for bot in bots where bot.isOpen { bot.stepOut() }
            loop.stop()
            return
        }
        // A bot that failed without its connection telling (a connect that could not start) ends the run too.
        if bots.allSatisfy({ !$0.isOpen }) { loop.stop() }
        stopIfCaughtUp()
    }
}

/// A bot's join the server confirmed: who, in which match (or arena), its seat token, and the
/// server it joined on (the node a redirect sent it to, not always the one it was given).
package struct BotJoined: Sendable, Equatable {
    package let name: String
    package let match: String
    package let token: String?
    package let place: String
}
