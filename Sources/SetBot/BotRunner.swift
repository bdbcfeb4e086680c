import SetNet
import SetRules
import SetWire
import Synchronization

/// Runs bots on one event loop thread. Only `stop()` may be called from another thread.
public final class BotRunner: @unchecked Sendable {
    private let loop: EventLoop
    private let clock: TimeSource
    private var bots: [BotPlayer] = []
    private var nextPing: Instant
    /// Called on the loop thread when a bot's connection ends.
    public var onBotClosed: (String) -> Void = { _ in }
    /// Called on the loop thread with a bot's name and seat token when it has joined.
    public var onBotJoined: (String, String) -> Void = { _, _ in }
    /// While true the bots do nothing (`setgame play` holds them while its player reads help).
    private let held = Atomic<Bool>(false)
    private var wasHeld = false

    public init(clock: TimeSource = MonotonicTime()) throws(SocketError) {
        Sockets.ignoreBrokenPipes()
        loop = try EventLoop()
        self.clock = clock
        nextPing = clock.now().adding(5_000)
    }

    /// Connects a bot and asks to join; it plays once `run()` runs.
    public func add(_ options: BotOptions) throws(SocketError) {
        let bot = try BotPlayer(options, loop: loop)
        bot.connection.onLine = { [unowned self, unowned bot] line in
            let before = bot.token
            bot.receive(line, at: self.clock.now())
            if let token = bot.token, token != before { self.onBotJoined(bot.options.name, token) }
        }
        bot.connection.onClose = { [unowned self, unowned bot] reason in
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

    /// Holds every bot still (true) or lets them play on (false), each looking at the table
    /// afresh. Safe from any thread.
    public func hold(_ on: Bool) {
        held.store(on, ordering: .sequentiallyConsistent)
        loop.wake()
    }

    /// What each bot sees; read it only after `run()` has returned.
    public var views: [MatchView?] { bots.map(\.view) }

    /// Errors the server sent back to the bots: an honest bot gets only a few, from races.
    public var errorsReceived: Int { bots.map(\.errorsReceived).reduce(0, +) }

    private func waitMilliseconds() -> Int32 {
        let now = clock.now()
        if held.load(ordering: .sequentiallyConsistent) { return Int32(max(0, nextPing.milliseconds(since: now))) }
        let next = bots.compactMap(\.nextWakeUp).min() ?? nextPing
        return Int32(max(0, min(nextPing, next).milliseconds(since: now)))
    }

    private func tick() {
        let now = clock.now()
        let ping = now >= nextPing
        if ping { nextPing = now.adding(5_000) }
        let holding = held.load(ordering: .sequentiallyConsistent)
        if wasHeld && !holding { bots.forEach { $0.lookAgain(at: now) } }
        wasHeld = holding
        for bot in bots where bot.isOpen {
            if !holding { bot.act(at: now) }
            if ping { bot.keepAlive(at: now) }
            bot.connection.flush()
        }
    }
}
