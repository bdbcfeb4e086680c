import Foundation
import Glibc
import SetClient
import SetNet
import SetScreen
import SetWire

/// The full-screen client behind `setgame join` and `setgame watch`.
package enum TerminalClient {
    /// Runs the client until the user quits; returns the exit status (0 after a normal quit, 1
    /// when the server could not be reached or a fatal error ended the session). The terminal is
    /// restored on every way out. `lobby`: the lobby's session an accepted challenge goes on with.
    package static func run(_ options: ClientOptions, continuing lobby: ClientSession? = nil) -> Int32 {
        Sockets.ignoreBrokenPipes()
        let directory = options.resolvedStateDirectory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let store = SeatTokenStore(directory: directory)
        printLines(options.banner, command: options.command)
        if options.role == .player, let problem = store.problem {
            printLines(["setgame: your seat is not kept for a rerun (\(problem))"], toStandardError: true)
        }
        let session: TerminalSession
        do {
            session = try TerminalSession(logPath: directory + "/client.log", showsLogPath: options.showsLogPath)
        } catch {
            printLines(["setgame: \(error)"], toStandardError: true)
            return 1
        }
        let seed = UInt64(truncatingIfNeeded: MonotonicTime.rawNanoseconds())
        var state = ClientState(options: Self.appOptions(options), size: TerminalSession.size(),
                                token: options.role == .player ? store.token(for: options.seatKey) : nil, seed: seed)
        if let lobby { state.continueSession(lobby) }
        let outcome: (status: Int32, message: String?, signal: Int32?)
        do {
            outcome = try ClientRunLoop(app: ClientApp(state: state), session: session, options: options, store: store).run()
        } catch {
            outcome = (1, "setgame: \(error)", nil)
        }
        session.end()
        // The banner is still on the screen from before: only what is new is printed.
        printLines((outcome.message.map { [$0] } ?? []) + (options.showsLogPath ? ["setgame: log in \(session.logPath)"] : []),
                   command: options.command)
        if let signal = outcome.signal {
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        return outcome.status
    }

    /// The options as the app sees them: NO_COLOR from the environment, and the account key kept
    /// for this server (a player's, outside a local game).
    package static func appOptions(_ options: ClientOptions, environment: [String: String] = ProcessEnvironment.variables) -> ClientOptions {
        var options = options.withColourFrom(environment: environment)
        // A local game (`setgame play`) is practice against a bot: no account is made for it.
        if options.role == .player && options.local == nil {
            options.account = SeatTokenStore(accountsIn: options.resolvedStateDirectory).accountKey(for: options.serverAddress)
        }
        return options
    }

    /// Carries out an effect meant for the local match `setgame play` runs in this process.
    package static func performLocal(_ effect: ClientEffect, of local: LocalMatch?) {
        guard let local else { return }
        switch effect {
        case .startLocal: local.onStart()
        case .holdLocal(let held): local.onHold(held)
        case .saveRecords(let records): local.saveRecords(records)
        case .connect, .disconnect, .send, .saveToken, .log, .quit: break
        }
    }

    /// Every line leaves sanitised: a message may quote what the server said.
    private static func printLines(_ lines: [String], toStandardError: Bool = false, command: String = "setgame") {
        let fd = toStandardError ? STDERR_FILENO : STDOUT_FILENO
        printWrapped(lines.map { ServerText.printable($0) }, to: fd, command: command)
    }

    /// Writes lines wrapped at word boundaries to the terminal's width, never inside a command
    /// (`PrintedLines`); to a file or pipe, as they are.
    package static func printWrapped(_ lines: [String], to fd: Int32, command: String) {
        let width = isatty(fd) == 1 ? TerminalSession.size().columns : 0
        LineOutput.write(PrintedLines.wrap(lines, width: width, command: command), to: fd)
    }
}

/// The thin shell around `ClientApp`: one `EventLoop` watches the keyboard and the signal pipe
/// (`KeyboardReader`, shared with the door's menu) and the socket (`ClientDriver`); the shell
/// performs the app's effects and draws only the cells that changed. It sleeps without a timeout
/// when nothing moves, wakes ~30 times a second only while cards fly, ~10 times for a countdown,
/// and every 5 s to ping.
final class ClientRunLoop {
    let driver: ClientDriver<ClientApp>
    let keyboard: KeyboardReader
    let session: TerminalSession
    let options: ClientOptions
    let store: SeatTokenStore
    var lastFrame: ScreenBuffer?
    var outcome: (status: Int32, message: String?, signal: Int32?)?

    init(app: ClientApp, session: TerminalSession, options: ClientOptions, store: SeatTokenStore) throws(SystemCallError) {
        let clock = MonotonicTime()
        driver = ClientDriver(app: app, loop: try EventLoop(), clock: clock, host: options.host, port: options.port,
                              route: options.route)
        keyboard = KeyboardReader(loop: driver.loop, clock: clock, signalFD: session.signalFD)
        self.session = session
        self.options = options
        self.store = store
        driver.onEffect = { [unowned self] effect in self.perform(effect) }
        keyboard.onHappening = { [unowned self] happening in self.handle(happening) }
        hearBotTrouble()
    }

    /// Why the bot beside the player could not take its seat comes from the bot's thread; it is
    /// taken on this loop's.
    private func hearBotTrouble() {
        guard let listen = options.botBeside?.listen ?? options.local?.listen else { return }
        let inbox = driver.loop.inbox { [unowned self] (reasons: [String]) in
            for reason in reasons { driver.change { $0.botCouldNotJoin(reason, at: $1) } }
        }
        listen { inbox.post($0) }
    }

    func run() -> (status: Int32, message: String?, signal: Int32?) {
        let loop = driver.loop
        do throws(SystemCallError) {
            try keyboard.start()
        } catch {
            return (1, "setgame: \(error)", nil)
        }
        driver.start()
        tick()
        loop.run(timeout: { [unowned self] in
            // Ended before the loop ran (the first connection failed at once: a host name that
            // cannot be found): no wait for a key that would never come.
            if outcome != nil { return 0 }
            return driver.waitMilliseconds(alsoAt: keyboard.escapeDeadline)
        }, tick: { [unowned self] in
            tick()
            if outcome != nil { loop.stop() }
        })
        keyboard.stop()
        driver.disconnect()
        return outcome ?? (0, nil, nil)
    }

    /// After every batch the loop handled: a lone ESC whose wait is over, what is due now, then
    /// the screen.
    private func tick() {
        if outcome == nil { keyboard.tick() }
        guard outcome == nil else { return }
        driver.tick()
        guard outcome == nil else { return }
        draw()
    }

    private func draw() {
        let frame = driver.app.compose(at: driver.now)
        let diff = FrameRenderer.frameDiff(from: lastFrame, to: frame)
        if !diff.isEmpty { session.write(diff) }
        lastFrame = frame
    }

    private func handle(_ happening: TerminalHappening) {
        // Once the session ends, what is still in the same read is nobody's news.
        guard outcome == nil else { return }
        switch happening {
        case .input(let event): driver.update { $0.input(event, at: $1) }
        case .resized(let size): driver.change { $0.resize(to: size, at: $1) }
        case .signalled(let signal): outcome = (128 + signal, nil, signal)
        case .closed: outcome = (0, "setgame: the terminal went away", nil)
        }
    }

    private func perform(_ effect: ClientEffect) {
        switch effect {
        case .connect, .disconnect, .send: break
        case .saveToken(let token):
            store.set(token, for: options.seatKey)
        case .log(let text):
            FileHandle.standardError.write(Data("setgame client: \(ServerText.printable(text))\n".utf8))
        case .quit(let status, let message):
            if outcome == nil { outcome = (status, message, nil) }
        case .startLocal where options.botBeside != nil:
            options.botBeside?.start()
        case .holdLocal(let held) where options.botBeside != nil:
            options.botBeside?.hold(held)
        case .startLocal, .holdLocal, .saveRecords:
            TerminalClient.performLocal(effect, of: options.local)
        }
    }
}
