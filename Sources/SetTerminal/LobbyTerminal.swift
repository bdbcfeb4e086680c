import Foundation
import Glibc
import SetClient
import SetNet
import SetScreen
import SetWire

/// Runs the lobby screen (`LobbyApp`: the one `ClientSession` and the `LobbyState` drawn by
/// `LobbyView`) on the terminal until the player leaves it: keys, the server's lines and the
/// clock in, only the changed cells out, the terminal restored on the way out. The connection is
/// the lobby's own (`ClientDriver`, as the game's); the game that follows opens its own, as
/// `setgame join` always did.
package enum LobbyTerminal {
    /// Where the lobby's server is: `host:port`, or the door's socket.
    package enum Place: Sendable {
        case tcp(host: String, port: UInt16)
        case door(UnixRoute)
    }

    /// The player's way out of the lobby (`.quit` when there is no terminal or the session ends),
    /// and the session the game goes on with.
    package static func run(_ lobby: LobbyApp, at place: Place, logPath: String, showsLogPath: Bool) -> (outcome: LobbyOutcome, session: ClientSession) {
        Sockets.ignoreBrokenPipes()
        let session: TerminalSession
        do { session = try TerminalSession(logPath: logPath, showsLogPath: showsLogPath) } catch {
            return (.failed("setgame: \(error)"), lobby.session)
        }
        defer { session.end() }
        let loop: EventLoop
        do { loop = try EventLoop() } catch { return (.failed("setgame: \(error)"), lobby.session) }
        let shell = LobbyLoop(app: lobby, place: place, loop: loop, clock: MonotonicTime(), signalFD: session.signalFD,
                              size: TerminalSession.size()) { session.write($0) }
        do { try shell.keyboard.start() } catch { return (.failed("setgame: \(error)"), lobby.session) }
        defer {
            shell.keyboard.stop()
            shell.driver.disconnect()
        }
        shell.start()
        loop.run(timeout: shell.waitMilliseconds, tick: shell.tick)
        return (shell.outcome ?? .quit, shell.driver.app.session)
    }
}

/// The lobby on an `EventLoop`: the keyboard through the `KeyboardReader` the game and the
/// door's menu use, and the connection through the game's `ClientDriver`. Each happening goes to
/// the app; the driver performs its effects, and `.quit` ends the loop.
final class LobbyLoop {
    let driver: ClientDriver<LobbyApp>
    let keyboard: KeyboardReader
    private(set) var size: TerminalSize
    /// Set when the terminal went away or was signalled; the app's own way out otherwise.
    private var interrupted = false
    private var lastFrame: ScreenBuffer?
    private let write: (String) -> Void

    init(app: LobbyApp, place: LobbyTerminal.Place, loop: EventLoop, clock: any TimeSource, signalFD: Int32, size: TerminalSize,
         write: @escaping (String) -> Void) {
        switch place {
        case .tcp(let host, let port): driver = ClientDriver(app: app, loop: loop, clock: clock, host: host, port: port)
        case .door(let route): driver = ClientDriver(app: app, loop: loop, clock: clock, host: "", port: 0, route: route)
        }
        keyboard = KeyboardReader(loop: loop, clock: clock, signalFD: signalFD)
        self.size = size
        self.write = write
        driver.onEffect = { effect in
            if case .log(let text) = effect { FileHandle.standardError.write(Data("setgame lobby: \(ServerText.printable(text))\n".utf8)) }
        }
        keyboard.onHappening = { [unowned self] happening in self.handle(happening) }
    }

    var lobby: LobbyState { driver.app.lobby }
    /// How the player left the lobby: the app's outcome, or `.quit` when the terminal went away.
    var outcome: LobbyOutcome? { driver.app.outcome ?? (interrupted ? .quit : nil) }

    /// Connects (the server speaks first) and draws the first frame.
    func start() {
        driver.start()
        draw()
    }

    /// How long the loop may sleep: until a held ESC's deadline, the session's or the screen's
    /// next due time, or input; not at all once the lobby is left.
    func waitMilliseconds() -> Int32 {
        guard outcome == nil else { return 0 }
        return driver.waitMilliseconds(alsoAt: keyboard.escapeDeadline)
    }

    /// After each batch: a lone ESC whose wait is over, what the lobby has due, then the frame.
    func tick() {
        if outcome == nil { keyboard.tick() }
        if outcome == nil { driver.tick() }
        if outcome != nil { return keyboard.loop.stop() }
        draw()
    }

    func draw() {
        let frame = LobbyView.render(lobby, size: size, at: driver.now)
        let diff = FrameRenderer.frameDiff(from: lastFrame, to: frame)
        if !diff.isEmpty { write(diff) }
        lastFrame = frame
    }

    private func handle(_ happening: TerminalHappening) {
        guard outcome == nil else { return }
        switch happening {
        case .input(let event): driver.update { $0.input(event, at: $1) }
        case .resized(let size): self.size = size
        case .signalled, .closed: interrupted = true
        }
    }
}
