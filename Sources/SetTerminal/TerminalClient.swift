import Foundation
import Glibc
import SetNet
import SetScreen
import SetWire

/// The full-screen client behind `setgame join` and `setgame watch`.
package enum TerminalClient {
    /// Runs the client until the user quits; returns the exit status (0 after a normal quit, 1
    /// when the server could not be reached or a fatal error ended the session). The terminal is
    /// restored on every way out.
    package static func run(_ options: ClientOptions) -> Int32 {
        Sockets.ignoreBrokenPipes()
        let directory = options.resolvedStateDirectory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let store = SeatTokenStore(directory: directory)
        let configuration = Self.configuration(options)
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
        let state = ClientState(options: configuration, size: TerminalSession.size(),
                                token: options.role == .player ? store.token(for: options.seatKey) : nil, seed: seed)
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

    /// What the pure app is told of the options.
    package static func configuration(_ options: ClientOptions, environment: [String: String] = ProcessEnvironment.variables) -> ClientConfiguration {
        var environment = environment
        if options.noColor { environment["NO_COLOR"] = "1" }
        var configuration = ClientConfiguration(
            name: options.name, match: options.match, mode: options.mode, role: options.role, animation: options.animation,
            theme: Theme.from(environment: environment, colorblind: options.colorblind), banner: options.banner,
            serverAddress: "\(options.host):\(options.port)")
        configuration.command = options.command
        configuration.variant = options.variant
        configuration.casual = options.casual
        configuration.takesSuggestedName = options.takesSuggestedName
        // A local game (`setgame play`) is practice against a bot: no account is made for it.
        if options.role == .player && options.local == nil {
            configuration.account = SeatTokenStore(accountsIn: options.resolvedStateDirectory)
                .accountKey(for: "\(options.host):\(options.port)")
        }
        configuration.door = options.door
        configuration.inviteNote = options.inviteNote
        configuration.quitNote = options.quitNote
        if let hint = options.rejoinHint { configuration.rejoinHint = hint }
        configuration.botBeside = options.botBeside != nil
        configuration.watchHint = options.watchCommand.map { CommandHint(lead: options.watchLead, command: $0) }
        if let local = options.local {
            configuration.isLocal = true
            configuration.localStart = local.start
            configuration.quitNote = local.quitNote
            configuration.confirmsQuit = local.confirmsQuit
            configuration.resumeNote = local.resumeNote
            configuration.records = local.records
            configuration.daily = local.daily
        }
        return configuration
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

/// The thin shell around `ClientApp`: one `EventLoop` watches the keyboard, the signal pipe and
/// the socket (`ClientDriver`); the shell performs the app's effects and draws only the cells that
/// changed. It sleeps without a timeout when nothing moves, wakes ~30 times a second only while
/// cards fly, ~10 times for a countdown, and every 5 s to ping.
final class ClientRunLoop {
    let driver: ClientDriver
    let session: TerminalSession
    let options: ClientOptions
    let store: SeatTokenStore
    var decoder = InputDecoder()
    /// When a lone ESC arrived: it is the Escape key once no sequence has followed for a while.
    var pendingEscapeSince: Int64?
    var lastFrame: ScreenBuffer?
    var outcome: (status: Int32, message: String?, signal: Int32?)?

    /// How long a lone ESC waits to see whether a sequence follows.
    static let escapeWaitMs: Int64 = 30

    init(app: ClientApp, session: TerminalSession, options: ClientOptions, store: SeatTokenStore) throws(SocketError) {
        driver = ClientDriver(app: app, loop: try EventLoop(), clock: MonotonicTime(), host: options.host, port: options.port,
                              route: options.route)
        self.session = session
        self.options = options
        self.store = store
        driver.onEffect = { [unowned self] effect in self.perform(effect) }
    }

    func run() -> (status: Int32, message: String?, signal: Int32?) {
        let loop = driver.loop
        do throws(SocketError) {
            try loop.register(STDIN_FILENO) { [unowned self] readiness in self.keyboard(readiness) }
            try loop.register(session.signalFD) { [unowned self] _ in self.handleSignals() }
        } catch {
            return (1, "setgame: \(error)", nil)
        }
        driver.start()
        tick()
        loop.run(timeout: { [unowned self] in
            // Ended before the loop ran (the first connection failed at once: a host name that
            // cannot be found): no wait for a key that would never come.
            if outcome != nil { return 0 }
            let escapeDue = pendingEscapeSince.map { $0 + Self.escapeWaitMs }
            return driver.waitMilliseconds(alsoAt: escapeDue)
        }, tick: { [unowned self] in
            tick()
            if outcome != nil { loop.stop() }
        })
        loop.unregister(STDIN_FILENO)
        loop.unregister(session.signalFD)
        driver.disconnect()
        return outcome ?? (0, nil, nil)
    }

    /// After every batch the loop handled: what is due now, then the screen.
    private func tick() {
        if outcome == nil, let since = pendingEscapeSince, driver.now - since >= Self.escapeWaitMs {
            pendingEscapeSince = nil
            for event in decoder.flushPendingEscape() where outcome == nil { driver.update { $0.input(event, at: $1) } }
        }
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

    private func handleSignals() {
        for signal in session.pendingSignals() {
            if signal == SIGWINCH {
                driver.change { $0.resize(to: TerminalSession.size(), at: $1) }
            } else if outcome == nil {
                outcome = (128 + signal, nil, signal)
            }
        }
    }

    private func keyboard(_ readiness: Readiness) {
        var bytes = [UInt8](repeating: 0, count: 4_096)
        let count = readiness.contains(.readable) ? bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) } : 0
        guard count > 0 else {
            if count == 0 || readiness.contains(.closed), outcome == nil { outcome = (0, "setgame: the terminal went away", nil) }
            return
        }
        for event in decoder.feed(Array(bytes[0..<count])) {
            driver.update { $0.input(event, at: $1) }
            if outcome != nil { return }
        }
        pendingEscapeSince = decoder.hasPendingEscape ? driver.now : nil
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
        case .holdLocal(let held) where options.botBeside != nil:
            options.botBeside?.hold(held)
        case .startLocal, .holdLocal, .saveRecords:
            TerminalClient.performLocal(effect, of: options.local)
        }
    }
}
