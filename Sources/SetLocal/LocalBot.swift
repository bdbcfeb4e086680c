import Foundation
import SetBot
import Synchronization

/// The bot of a local match: it joins only when the player is ready. While the player reads the
/// help it leaves its seat, which pauses the match on the server exactly as a dropped player does
/// (clocks stopped, journaled, no new wire), and it takes the seat back with its token after.
package final class LocalBot: Sendable {
    private typealias Running = (runner: BotRunner, stopped: DispatchSemaphore)
    private struct State {
        var options: BotOptions
        var running: Running?
        var started = false
    }
    private let state: Mutex<State>
    private let onJoined: @Sendable (String) -> Void

    package init(_ options: BotOptions, onJoined: @escaping @Sendable (String) -> Void) {
        state = Mutex(State(options: options))
        self.onJoined = onJoined
    }

    /// Connects the bot and lets it play; later calls do nothing.
    package func start() {
        state.withLock { state in
            guard !state.started else { return }
            state.started = true
            launch(&state)
        }
    }

    /// Help opened (true): the bot leaves and the match pauses. Closed: it comes back.
    package func hold(_ on: Bool) {
        if on {
            state.withLock { state -> Running? in
                defer { state.running = nil }
                return state.started ? state.running : nil
            }.map(Self.halt)
        } else {
            state.withLock { state in if state.started && state.running == nil { launch(&state) } }
        }
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

    /// With the lock held: a runner for the bot, resuming its seat when it has a token.
    private func launch(_ state: inout State) {
        do {
            let runner = try BotRunner()
            runner.onBotJoined = { [weak self] _, _, token in if let token { self?.joined(token) } }
            try runner.add(state.options)
            // A new look at the table each time: the same seed would replay the same reactions.
            state.options.seed &+= 1
            let stopped = DispatchSemaphore(value: 0)
            Thread.detachNewThread { runner.run(); stopped.signal() }
            state.running = (runner, stopped)
        } catch {
            FileHandle.standardError.write(Data("setgame play: the bot could not join: \(error)\n".utf8))
        }
    }

    private func joined(_ token: String) {
        state.withLock { $0.options.token = token }
        onJoined(token)
    }
}
