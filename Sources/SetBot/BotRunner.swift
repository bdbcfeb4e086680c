import SetNet
import SetRules
import SetWire

/// Runs bots on one event loop thread. Only `stop()`, `stop(afterSeq:)` and `wake()` may be called from another thread.
public final class BotRunner: @unchecked Sendable {
    private let loop: EventLoop
    private let clock: TimeSource
    private var bots: [BotPlayer] = []
    private var nextPing: Instant
    /// Set by `stop(afterSeq:)`: the loop stops once every open bot has applied this event.
    private var stopAfterSeq: Int?
    /// Called on the loop thread when a bot's connection ends.
    public var onBotClosed: (String) -> Void = { _ in }
    /// Called on the loop thread when the server confirms a bot's join: its name, the match, and
    /// the seat token it was given.
    public var onBotJoined: (String, String, String?) -> Void = { _, _, _ in }

    public init(clock: TimeSource = MonotonicTime()) throws(SocketError) {
        Sockets.ignoreBrokenPipes()
        loop = try EventLoop()
        self.clock = clock
        nextPing = clock.now().adding(5_000)
    }

    /// Connects a bot and asks to join; it plays once `run()` runs.
    public func add(_ options: BotOptions) throws(SocketError) {
        let bot = try BotPlayer(options, loop: loop)
        bot.connection.onLine = { [unowned self, unowned bot] line in bot.receive(line, at: self.clock.now()) }
        bot.onJoined = { [unowned self, unowned bot] match in self.onBotJoined(bot.options.name, match, bot.token) }
        bot.connection.onClose = { [unowned self, unowned bot] reason in
            bot.noteClosed(reason)
            self.onBotClosed("\(bot.options.name): \(bot.closedReason ?? reason)")
            if self.bots.allSatisfy({ !$0.isOpen }) { self.loop.stop() }
        }
        bots.append(bot)
    }

    /// Plays until every bot's connection has ended or `stop()` is called.
    public func run() {
        loop.run(timeout: { [unowned self] in self.waitMilliseconds() }, tick: { [unowned self] in self.tick() })
        for bot in bots { bot.connection.close("stopped") }
    }

    public func stop() { loop.stop() }

    /// Makes the loop look at the clock again; tests call it after moving a manual clock.
    public func wake() { loop.wake() }

    /// Stops once every bot still connected has applied the event numbered `seq`, so what they
    /// saw can be compared with what a spectator saw up to it. Any thread.
    public func stop(afterSeq seq: Int) {
        loop.execute { [unowned self] in
            self.stopAfterSeq = seq
            self.stopIfCaughtUp()
        }
    }

    private func stopIfCaughtUp() {
        guard let seq = stopAfterSeq else { return }
        if bots.allSatisfy({ !$0.isOpen || ($0.view?.seq ?? -1) >= seq }) { loop.stop() }
    }

    /// What each bot sees; read it only after `run()` has returned.
    public var views: [MatchView?] {
        loop.assertInLoop()
        return bots.map(\.view)
    }

    /// Errors the server sent back to the bots: an honest bot gets only a few, from races.
    public var errorsReceived: Int {
        loop.assertInLoop()
        return bots.map(\.errorsReceived).reduce(0, +)
    }

    /// Why bots failed (a refused join, a fatal error, a server that stopped answering), by name;
    /// read it only after `run()` has returned.
    public var failures: [String] {
        loop.assertInLoop()
        return bots.compactMap { bot in
            let failure = bot.failure ?? (bot.joinedMatch == nil ? "never joined (\(bot.closedReason ?? "stopped"))" : nil)
            return failure.map { "\(bot.options.name): \($0)" }
        }
    }

    private func waitMilliseconds() -> Int32 {
        let now = clock.now()
        let next = bots.compactMap(\.nextWakeUp).min() ?? nextPing
        return Int32(clamping: max(0, min(nextPing, next).milliseconds(since: now)))
    }

    private func tick() {
        let now = clock.now()
        let ping = now >= nextPing
        if ping { nextPing = now.adding(5_000) }
        for bot in bots where bot.isOpen {
            bot.act(at: now)
            if ping { bot.keepAlive(at: now) }
            bot.connection.flush()
        }
        stopIfCaughtUp()
    }
}
