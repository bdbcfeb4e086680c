import Foundation
import SetBot
import SetWire
import Synchronization

/// The bot of a local match: it joins only when the player is ready. While the player reads the
/// help it leaves its seat, which pauses the match on the server exactly as a dropped player does
/// (clocks stopped, journaled, no new wire), and it takes the seat back with its token after. It
/// leaves only between turns of its own, so a pause never costs it a claim.
/// When it cannot take its seat (the server refused it, or could not be reached), the reason goes
/// to whoever listens (`listen`): the player would otherwise wait at "Dealing…" with no word.
package final class LocalBot: Sendable {
    private typealias Running = (runner: BotRunner, stopped: DispatchSemaphore)
    private struct State {
        var options: BotOptions
        var running: Running?
        var started = false
        /// Whether the bot running now has taken its seat.
        var seated = false
        /// Whether the bot running now ended before it took its seat.
        var turnedAway = false
        var listener: (@Sendable (String) -> Void)?
        /// Why it could not take its seat, kept until someone listens.
        var unheard: [String] = []
    }
    private let state: Mutex<State>
    private let onJoined: @Sendable (String) -> Void

    package init(_ options: BotOptions, onJoined: @escaping @Sendable (String) -> Void) {
        state = Mutex(State(options: options))
        self.onJoined = onJoined
    }

    /// Connects the bot and lets it play; later calls do nothing.
    package func start() {
        let failure = state.withLock { state -> String? in
            guard !state.started else { return nil }
            state.started = true
            return launch(&state)
        }
        failure.map(report)
    }

    /// Help opened (true): the bot leaves once nothing of its is in flight (a claim sent, a window
    /// of its own: only it knows of a claim the server holds for lag compensation), which pauses
    /// the match; this does not wait for it. Closed (false): a bot not yet gone stays, one gone
    /// comes back, and so does one the server turned away.
    package func hold(_ on: Bool) {
        if on {
            state.withLock { state in
                if state.started { state.running?.runner.control.stepOut() }
            }
            return
        }
        // One that stepped out (or was turned away) ends its run by itself: it is waited for
        // before another takes the seat with the same token.
        let gone = state.withLock { state -> Running? in
            guard state.started, let running = state.running else { return nil }
            if !state.turnedAway && running.runner.control.stayIn() { return nil }
            state.running = nil
            return running
        }
        gone.map(Self.halt)
        let failure = state.withLock { state -> String? in
            guard state.started, state.running == nil else { return nil }
            return launch(&state)
        }
        failure.map(report)
    }

    /// Stops the bot and waits for its thread.
    package func stop() {
        state.withLock { state -> Running? in
            defer { state.running = nil }
            return state.running
        }.map(Self.halt)
    }

    private static func halt(_ running: Running) {
        running.runner.stop()
        running.stopped.wait()
    }

    /// Hears why the bot could not take its seat, from now on and what was not heard before.
    /// Called on the bot's thread (or the caller's): the listener passes it on to its own.
    package func listen(_ listener: @escaping @Sendable (String) -> Void) {
        let unheard = state.withLock { state in
            state.listener = listener
            defer { state.unheard = [] }
            return state.unheard
        }
        unheard.forEach(listener)
    }

    /// With the lock held: a runner for the bot, resuming its seat when it has a token; why not,
    /// when it cannot even connect.
    private func launch(_ state: inout State) -> String? {
        state.seated = false
        state.turnedAway = false
        do {
            let runner = try BotRunner()
            runner.onBotJoined = { [weak self] joined in self?.joined(joined.token) }
            runner.onBotClosed = { [weak self, unowned runner] reason in self?.closed(runner, reason) }
            // Beside the player's own lines in its client log (standard error there), for whoever
            // reads why a bot went quiet.
            runner.onBotLog = { name, line in
                FileHandle.standardError.write(Data("setgame bot: \(name): \(ServerText.printable(line))\n".utf8))
            }
            try runner.add(state.options)
            // A new look at the table each time: the same seed would replay the same reactions.
            state.options.seed &+= 1
            let stopped = DispatchSemaphore(value: 0)
            Thread.detachNewThread { runner.run(); stopped.signal() }
            state.running = (runner, stopped)
            return nil
        } catch {
            return "the bot could not connect: \(error)"
        }
    }

    private func joined(_ token: String?) {
        state.withLock { state in
            state.seated = true
            if let token { state.options.token = token }
        }
        if let token { onJoined(token) }
    }

    /// A runner's bot is gone. Only the one running now, before it took its seat, is news: one
    /// held off or stopped was closed by us, and a seated bot's absence is the server's to show.
    private func closed(_ runner: BotRunner, _ reason: String) {
        let news = state.withLock { state in
            guard state.running.map({ $0.runner === runner }) == true, !state.seated else { return false }
            state.turnedAway = true
            return true
        }
        if news { report(reason) }
    }

    /// Tells the listener, or keeps the reason for one.
    private func report(_ reason: String) {
        let listener = state.withLock { state in
            if state.listener == nil { state.unheard.append(reason) }
            return state.listener
        }
        listener?(reason)
    }
}
