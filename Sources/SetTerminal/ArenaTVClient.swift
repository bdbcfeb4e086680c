import Foundation
import Glibc
import SetClient
import SetNet
import SetScreen
import SetWire

/// `setgame watch HOST --arena NAME` as a person sees it: the arena's top board, then the next,
/// the standings between them (`ArenaTVApp`), on two connections (the arena's, the board's), the
/// keyboard and the clock on one loop; only the changed cells out, the terminal restored after.
package enum ArenaTVClient {
    /// Runs the TV of arena `arena` on `options`' server until the viewer quits; returns the exit status.
    package static func run(_ options: ClientOptions, arena: String) -> Int32 {
        let (status, message) = FullScreen.run(options) { loop, session in
            let app = ArenaTVApp(arena: arena, options: options.withColourFrom(environment: ProcessEnvironment.variables), size: TerminalSession.size())
            let shell = ArenaTVLoop(app: app, home: options.route.map(ServerPlace.door) ?? .tcp(host: options.host, port: options.port),
                                    loop: loop, clock: MonotonicTime(), signalFD: session.signalFD) { session.write($0) }
            do { try shell.keyboard.start() } catch { return (1, "setgame: \(error)") }
            defer { shell.stop() }
            shell.start()
            loop.run(timeout: shell.waitMilliseconds, tick: shell.tick)
            return (shell.end.status, shell.end.message)
        }
        if let message { FileHandle.standardError.write(Data((ServerText.printable(message) + "\n").utf8)) }
        return status
    }
}

/// The TV on an `EventLoop`: the keyboard through the `KeyboardReader` every screen uses, the
/// arena's and the board's connections (`ClientConnection`), each happening handed to the app
/// with its channel and its effects performed on the channel they name; `.quit` ends the loop.
final class ArenaTVLoop {
    private(set) var app: ArenaTVApp
    let keyboard: KeyboardReader
    let loop: EventLoop
    let clock: any TimeSource
    /// The server the TV was given; a redirect names another per channel.
    let home: ServerPlace
    private let connections: [ArenaTVChannel: ClientConnection]
    private var lastFrame: ScreenBuffer?
    private let write: (String) -> Void
    /// How the program ends: the app's quit, or 0 when the terminal went away.
    private(set) var end = ProgramEnd.running

    init(app: ArenaTVApp, home: ServerPlace, loop: EventLoop, clock: any TimeSource, signalFD: Int32, write: @escaping (String) -> Void) {
        self.app = app
        self.home = home
        self.loop = loop
        self.clock = clock
        self.write = write
        keyboard = KeyboardReader(loop: loop, clock: clock, signalFD: signalFD)
        connections = [.arena: ClientConnection(loop: loop, clock: clock), .board: ClientConnection(loop: loop, clock: clock)]
        for (channel, connection) in connections {
            connection.onConnected = { [unowned self] in self.update { $0.connected(channel, at: $1) } }
            connection.onMessage = { [unowned self] message in self.update { $0.receive(message, on: channel, at: $1) } }
            connection.onLost = { [unowned self] reason in self.update { $0.connectionLost(reason, on: channel, at: $1) } }
        }
        keyboard.onHappening = { [unowned self] happening in self.handle(happening) }
    }

    var now: Int64 { clock.now().milliseconds }
    private var over: Bool { end.over }

    func start() {
        update { app, now in app.start(at: now) }
        draw()
    }

    /// Closes both connections and the keyboard.
    func stop() {
        keyboard.stop()
        connections.values.forEach { $0.disconnect() }
    }

    func waitMilliseconds() -> Int32 {
        guard !over else { return 0 }
        let deadlines = connections.values.compactMap(\.connectDeadline)
        guard let wake = ([app.nextWake(at: now), keyboard.escapeDeadline] + deadlines).compactMap({ $0 }).min() else { return -1 }
        return Int32(clamping: max(0, wake - now))
    }

    func tick() {
        if !over { keyboard.tick() }
        if !over {
            connections.values.forEach { $0.tick() }
            update { $0.tick(at: $1) }
        }
        if over { return loop.stop() }
        draw()
    }

    func draw() {
        let frame = app.compose(at: now)
        let diff = FrameRenderer.frameDiff(from: lastFrame, to: frame)
        if !diff.isEmpty { write(diff) }
        lastFrame = frame
    }

    /// Gives the app one happening at `now` and performs what it returns, each on its channel.
    private func update(_ happening: (inout ArenaTVApp, Int64) -> [ArenaTVEffect]) {
        let effects = happening(&app, now)
        for effect in effects {
            guard let connection = connections[effect.channel] else { continue }
            switch effect.effect {
            case .connect: connection.connect(to: app.redirectedPlace(effect.channel) ?? home)
            case .disconnect: connection.disconnect()
            case .send(let message): connection.send(message)
            case .log(let text): FileHandle.standardError.write(Data("setgame tv: \(ServerText.printable(text))\n".utf8))
            case .quit(let status, let message): end.quit(status: status, message: message)
            case .saveToken, .startLocal, .holdLocal, .saveRecords: break
            }
        }
    }

    private func handle(_ happening: TerminalHappening) {
        guard !over else { return }
        switch happening {
        case .input(let event): update { $0.input(event, at: $1) }
        case .resized(let size): app.resize(to: size, at: now)
        case .signalled, .closed: end.interrupt()
        }
    }
}
