import Glibc
import SetNet
import SetScreen
import SetWire

/// Runs the lobby screen (`LobbyState`, drawn by `LobbyView`) on the terminal until the player
/// leaves it: keys, the server's lines and the clock in, only the changed cells out, the
/// terminal restored on the way out. The connection is the lobby's own; the game that follows
/// opens its own, as `setgame join` always did.
package enum LobbyTerminal {
    /// Where the lobby's server is: `host:port`, or the door's socket.
    package enum Place: Sendable {
        case tcp(host: String, port: UInt16)
        case door(UnixRoute)
    }

    /// The player's way out of the lobby; `.quit` when there is no terminal or the session ends.
    package static func run(_ lobby: LobbyState, at place: Place, logPath: String, showsLogPath: Bool) -> LobbyOutcome {
        Sockets.ignoreBrokenPipes()
        let session: TerminalSession
        do { session = try TerminalSession(logPath: logPath, showsLogPath: showsLogPath) } catch {
            return .failed("setgame: \(error)")
        }
        defer { session.end() }
        let loop: EventLoop
        do { loop = try EventLoop() } catch { return .failed("setgame: \(error)") }
        let clock = MonotonicTime()
        let keyboard = KeyboardReader(loop: loop, clock: clock, signalFD: session.signalFD)
        let shell = LobbyLoop(lobby: lobby, keyboard: keyboard, clock: clock, size: TerminalSession.size()) {
            session.write($0)
        }
        do {
            try keyboard.start()
            try shell.connect(place)
        } catch {
            keyboard.stop()
            return .failed("setgame: cannot reach the server: \(error)")
        }
        defer {
            keyboard.stop()
            shell.disconnect()
        }
        shell.draw()
        loop.run(timeout: shell.waitMilliseconds, tick: shell.tick)
        return shell.outcome ?? .quit
    }
}

/// The lobby on an `EventLoop`: the keyboard through the `KeyboardReader` the game and the
/// door's menu use, and one `LineSocket` to the server. Each happening goes to the state; its
/// effects are sent or end the loop.
final class LobbyLoop {
    private(set) var lobby: LobbyState
    let keyboard: KeyboardReader
    let clock: any TimeSource
    private(set) var size: TerminalSize
    private(set) var outcome: LobbyOutcome?
    private var socket: LineSocket?
    private var lastFrame: ScreenBuffer?
    private let write: (String) -> Void

    init(lobby: LobbyState, keyboard: KeyboardReader, clock: any TimeSource, size: TerminalSize, write: @escaping (String) -> Void) {
        self.lobby = lobby
        self.keyboard = keyboard
        self.clock = clock
        self.size = size
        self.write = write
        keyboard.onHappening = { [unowned self] happening in self.handle(happening) }
    }

    private var now: Int64 { clock.now().milliseconds }

    /// Opens the lobby's connection; the server speaks first (its welcome).
    func connect(_ place: LobbyTerminal.Place) throws(SystemCallError) {
        let socket: LineSocket
        switch place {
        case .tcp(let host, let port):
            socket = try LineSocket.connect(host: host, port: port, maxLineBytes: 1 << 20, maxQueuedBytes: 64 * 1024)
        case .door(let route):
            socket = try LineSocket.connect(route, maxLineBytes: 1 << 20, maxQueuedBytes: 64 * 1024)
        }
        try socket.serve(on: keyboard.loop)
        self.socket = socket
        socket.onLine = { [unowned self] line in
            guard case .success(let message) = ServerMessageCoding.decode(line) else { return }
            perform(lobby.receive(message, at: now))
        }
        socket.onClose = { [unowned self] reason in
            self.socket = nil
            perform(lobby.connectionLost(reason))
        }
    }

    /// Follows the lobby to the node that holds it (`HOST:PORT`, as a redirect names it).
    private func moveTo(_ address: String) {
        disconnect()
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]) else {
            return perform([.finish(.failed("setgame: the lobby was redirected to \"\(ServerText.printable(address))\", which is not HOST:PORT"))])
        }
        do { try connect(.tcp(host: String(address[..<colon]), port: port)) } catch {
            perform(lobby.connectionLost("cannot reach the lobby at \(address): \(error)"))
        }
    }

    func disconnect() {
        guard let socket else { return }
        self.socket = nil
        socket.onClose = { _ in }  // our own close is no loss of the server (a redirect moves on)
        socket.close("closed by the client")
    }

    /// How long the loop may sleep: until a held ESC's deadline, the lobby's next refresh or
    /// countdown second, or input; not at all once the lobby is left.
    func waitMilliseconds() -> Int32 {
        guard outcome == nil else { return 0 }
        let now = self.now
        guard let wake = [lobby.nextWake(at: now), keyboard.escapeDeadline].compactMap({ $0 }).min() else { return -1 }
        return Int32(clamping: max(0, wake - now))
    }

    /// After each batch: a lone ESC whose wait is over, what the lobby has due, then the frame.
    func tick() {
        if outcome == nil { keyboard.tick() }
        if outcome == nil { perform(lobby.tick(at: now)) }
        if outcome != nil { return keyboard.loop.stop() }
        draw()
    }

    func draw() {
        let frame = LobbyView.render(lobby, size: size, at: now)
        let diff = FrameRenderer.frameDiff(from: lastFrame, to: frame)
        if !diff.isEmpty { write(diff) }
        lastFrame = frame
    }

    private func handle(_ happening: TerminalHappening) {
        guard outcome == nil else { return }
        switch happening {
        case .input(let event): perform(lobby.input(event, at: now))
        case .resized(let size): self.size = size
        case .signalled, .closed: outcome = .quit
        }
    }

    private func perform(_ effects: [LobbyEffect]) {
        for effect in effects {
            switch effect {
            case .send(let message): socket?.write(ClientMessageEncoder.line(ClientRequest(message)))
            case .finish(let outcome): if self.outcome == nil { self.outcome = outcome }
            case .reconnect(let address): moveTo(address)
            }
        }
    }
}
