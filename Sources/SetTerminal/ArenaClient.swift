import Foundation
import Glibc
import SetClient
import SetNet
import SetScreen
import SetWire

/// `setgame arena HOST NAME` as a person sees it: the arena's standings between duels and each
/// dealt duel's own screen, on one connection (`ArenaApp` on `ClientDriver`), keys and the
/// server's lines and the clock in, only the changed cells out, the terminal restored on the way
/// out. The arena's CLI calls `run` for a player joining by name.
package enum ArenaClient {
    /// Runs the arena `arena` for `options.name` on `options.host:port` (or the door's socket)
    /// until the player leaves or quits; returns the exit status.
    package static func run(_ options: ClientOptions, arena: String) -> Int32 {
        let (status, message) = play(options, arena: arena)
        if let message { FileHandle.standardError.write(Data((ServerText.printable(message) + "\n").utf8)) }
        return status
    }

    /// Runs the arena as `run` does; returns the exit status and the words to show after it (the
    /// door's menu shows them, the command prints them).
    package static func play(_ options: ClientOptions, arena: String) -> (status: Int32, message: String?) {
        FullScreen.run(options) { loop, session in
            let app = ArenaApp(arena: arena, options: TerminalClient.appOptions(options), size: TerminalSession.size())
            let shell = ArenaLoop(app: app, host: options.host, port: options.port, route: options.route, loop: loop, clock: MonotonicTime(),
                                  signalFD: session.signalFD) { session.write($0) }
            do { try shell.keyboard.start() } catch { return (1, "setgame: \(error)") }
            defer {
                shell.keyboard.stop()
                shell.driver.disconnect()
            }
            shell.start()
            loop.run(timeout: shell.waitMilliseconds, tick: shell.tick)
            return (shell.end.status, shell.end.message)
        }
    }
}

/// The arena on an `EventLoop`: the keyboard through the `KeyboardReader` the game and the lobby
/// use, the connection through the game's `ClientDriver`; `.quit` ends the loop.
final class ArenaLoop {
    let driver: ClientDriver<ArenaApp>
    let keyboard: KeyboardReader
    private var lastFrame: ScreenBuffer?
    private let write: (String) -> Void
    /// How the program ends: the app's quit, or 0 when the terminal went away.
    private(set) var end = ProgramEnd.running

    init(app: ArenaApp, host: String, port: UInt16, route: UnixRoute? = nil, loop: EventLoop, clock: any TimeSource, signalFD: Int32,
         write: @escaping (String) -> Void) {
        driver = ClientDriver(app: app, loop: loop, clock: clock, host: host, port: port, route: route)
        keyboard = KeyboardReader(loop: loop, clock: clock, signalFD: signalFD)
        self.write = write
        driver.onEffect = { [unowned self] effect in
            switch effect {
            case .log(let text): FileHandle.standardError.write(Data("setgame arena: \(ServerText.printable(text))\n".utf8))
            case .quit(let status, let message): self.end.quit(status: status, message: message)
            default: break
            }
        }
        keyboard.onHappening = { [unowned self] happening in self.handle(happening) }
    }

    private var over: Bool { end.over }

    func start() {
        driver.start()
        draw()
    }

    func waitMilliseconds() -> Int32 {
        guard !over else { return 0 }
        return driver.waitMilliseconds(alsoAt: keyboard.escapeDeadline)
    }

    func tick() {
        if !over { keyboard.tick() }
        if !over { driver.tick() }
        if over { return keyboard.loop.stop() }
        draw()
    }

    func draw() {
        let frame = driver.app.compose(at: driver.now)
        let diff = FrameRenderer.frameDiff(from: lastFrame, to: frame)
        if !diff.isEmpty { write(diff) }
        lastFrame = frame
    }

    private func handle(_ happening: TerminalHappening) {
        guard !over else { return }
        switch happening {
        case .input(let event): driver.update { $0.input(event, at: $1) }
        case .resized(let size): driver.update { app, now in
            app.resize(to: size, at: now)
            return []
        }
        case .signalled, .closed: end.interrupt()
        }
    }
}
