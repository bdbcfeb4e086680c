import Foundation
import Glibc
import SetNet
import SetScreen
import SetWire

/// The full-screen client behind `setgame join` and `setgame watch`.
public enum TerminalClient {
    /// Runs the client until the user quits; returns the exit status (0 after a normal quit, 1
    /// when the server could not be reached or a fatal error ended the session). The terminal is
    /// restored on every way out.
    public static func run(_ options: ClientOptions) -> Int32 {
        Sockets.ignoreBrokenPipes()
        let directory = options.resolvedStateDirectory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let store = SeatTokenStore(directory: directory)
        let environment = ProcessEnvironment.variables
        var configuration = ClientConfiguration(
            name: options.name, match: options.match, mode: options.mode, role: options.role, animation: options.animation,
            theme: Theme.from(environment: environment, colorblind: options.colorblind), banner: options.banner,
            serverAddress: "\(options.host):\(options.port)")
        configuration.command = options.command
        configuration.variant = options.variant
        configuration.watchHint = options.watchCommand.map { CommandHint(lead: options.watchLead, command: $0) }
        if let local = options.local {
            configuration.isLocal = true
            configuration.localStart = local.start
            configuration.quitNote = local.quitNote
            configuration.confirmsQuit = local.confirmsQuit
            configuration.resumeNote = local.resumeNote
        }
        printLines(options.banner)
        let session: TerminalSession
        do {
            session = try TerminalSession(logPath: directory + "/client.log")
        } catch {
            printLines(["setgame: \(error)"], toStandardError: true)
            return 1
        }
        let seed = UInt64(truncatingIfNeeded: MonotonicTime.rawNanoseconds())
        let state = ClientState(options: configuration, size: TerminalSession.size(),
                                token: options.role == .player ? store.token(for: options.seatKey) : nil, seed: seed)
        let loop = ClientRunLoop(app: ClientApp(state: state), session: session, options: options, store: store)
        let outcome = loop.run()
        session.end()
        // The banner is still on the screen from before: only what is new is printed.
        printLines((outcome.message.map { [$0] } ?? []) + ["setgame: log in \(session.logPath)"])
        if let signal = outcome.signal {
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        return outcome.status
    }

    /// Every line leaves sanitised: a message may quote what the server said.
    private static func printLines(_ lines: [String], toStandardError: Bool = false) {
        LineOutput.write(lines.map { ServerText.printable($0) }, to: toStandardError ? STDERR_FILENO : STDOUT_FILENO)
    }
}

/// The thin shell around `ClientApp`: one poll() over the keyboard, the socket and the signal
/// pipe; it performs the app's effects and draws only the cells that changed. It sleeps without a
/// timeout when nothing moves, wakes ~30 times a second only while cards fly, ~10 times for a
/// countdown, and every 5 s to ping.
final class ClientRunLoop: ClientConnection {
    var app: ClientApp
    let session: TerminalSession
    let options: ClientOptions
    let store: SeatTokenStore
    var socket: LineSocket?
    var decoder = InputDecoder()
    var lastFrame: ScreenBuffer?
    var outcome: (status: Int32, message: String?, signal: Int32?)?

    init(app: ClientApp, session: TerminalSession, options: ClientOptions, store: SeatTokenStore) {
        self.app = app
        self.session = session
        self.options = options
        self.store = store
    }

    var serverHost: String { options.host }
    var serverPort: UInt16 { options.port }

    static func now() -> Int64 { MonotonicTime.rawMilliseconds() }

    func run() -> (status: Int32, message: String?, signal: Int32?) {
        perform(app.start(at: Self.now()))
        while outcome == nil {
            let now = Self.now()
            perform(app.tick(at: now))
            if outcome != nil { break }
            draw(at: now)
            wait(timeout: timeout(at: now))
        }
        socket?.close()
        return outcome!
    }

    private func draw(at now: Int64) {
        let frame = app.compose(at: now)
        let diff = FrameRenderer.frameDiff(from: lastFrame, to: frame)
        if !diff.isEmpty { session.write(diff) }
        lastFrame = frame
    }

    private func timeout(at now: Int64) -> Int32 {
        var wake = app.nextWake(at: now)
        // A lone ESC waits ~30 ms to see whether a sequence follows.
        if decoder.hasPendingEscape { wake = min(wake ?? Int64.max, now + 30) }
        guard let wake else { return -1 }
        return Int32(clamping: max(0, wake - now))
    }

    private func wait(timeout: Int32) {
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: session.signalFD, events: Int16(POLLIN), revents: 0)]
        if let entry = pollEntry { fds.append(entry) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        let now = Self.now()
        if ready == 0 && decoder.hasPendingEscape {
            for event in decoder.flushPendingEscape() { perform(app.input(event, at: now)) }
        }
        guard ready > 0 else { return }
        if fds[1].revents != 0 { handleSignals(at: now) }
        if fds[0].revents & Int16(POLLIN) != 0 { readKeyboard(at: now) }
        if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { outcome = (0, "setgame: the terminal went away", nil) }
        if fds.count > 2 { handleSocket(fds[2].revents, at: now) }
    }

    private func handleSignals(at now: Int64) {
        for signal in session.pendingSignals() {
            if signal == SIGWINCH {
                app.resize(to: TerminalSession.size(), at: now)
            } else {
                outcome = (128 + signal, nil, signal)
            }
        }
    }

    private func readKeyboard(at now: Int64) {
        var bytes = [UInt8](repeating: 0, count: 4_096)
        let count = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        guard count > 0 else {
            if count == 0 { outcome = (0, "setgame: the terminal went away", nil) }
            return
        }
        for event in decoder.feed(Array(bytes[0..<count])) {
            perform(app.input(event, at: now))
            if outcome != nil { return }
        }
    }

    func perform(_ effects: [ClientEffect]) {
        for effect in effects {
            switch effect {
            case .connect: connect(at: Self.now())
            case .disconnect: disconnect()
            case .send(let message): send(message, at: Self.now())
            case .saveToken(let token):
                store.set(token, for: options.seatKey)
            case .log(let text):
                FileHandle.standardError.write(Data("setgame client: \(ServerText.printable(text))\n".utf8))
            case .quit(let status, let message):
                if outcome == nil { outcome = (status, message, nil) }
            case .startLocal:
                options.local?.onStart()
            case .holdLocal(let held):
                options.local?.onHold(held)
            }
        }
    }
}
