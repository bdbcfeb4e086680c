import Glibc
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// A real server on a loopback port, on its own thread, with a clock the test moves.
package final class TestServer: Sendable {
    package let running: RunningServer
    package let clock: ManualTime
    package let logLines: ServerLogLines

    /// `clock` stands still unless the test moves it (or `logLines` does, hearing a line).
    package init(clock: ManualTime = ManualTime(1_000), logLines: ServerLogLines = ServerLogLines(),
                 configure: (inout ServerConfig) -> Void = { _ in }) throws {
        var config = ServerConfig()
        config.port = 0
        config.seeds = .counting(from: 1)
        // The manual clock stands still unless a test moves it: spectator counts are announced
        // and lists rebuilt at once, as tests written before coalescing expect. The suites about
        // coalescing and caching set these back.
        config.spectators.announceMs = 0
        config.list.cacheMs = 0
        config.spectators.crowdRoundMs = 0
        config.perAddress.connectsPerSecond = 1_000_000  // tests connect hundreds at once from 127.0.0.1
        configure(&config)
        self.clock = clock
        self.logLines = logLines
        running = RunningServer(try Server(config: config, clock: clock, log: logLines.log))
    }

    package var port: UInt16 { running.port }
    package var control: ServerControl { running.control }
    /// The names of the matches the server restored at start.
    package var restoredMatches: [String] { running.restoredMatches }

    /// Moves the server's clock and lets its loop notice.
    package func advance(by milliseconds: Int64) {
        clock.advance(by: milliseconds)
        control.wake()
    }

    package func stop() { running.stop() }
}

package struct ClientTimedOut: Error, CustomStringConvertible {
    package var waitingFor: String
    package init(waitingFor: String) { self.waitingFor = waitingFor }
    package var description: String { "no message came while waiting for \(waitingFor)" }
}

/// A protocol client over a real socket, the same `LineSocket` the server uses, left blocking:
/// reads wait, with a timeout that only a broken server reaches. It keeps a `MatchView` current
/// from snapshots and events.
package final class TestClient {
    package let socket: LineSocket
    private var buffered: [(ServerMessage, String)] = []
    /// The text of the last line `next` returned.
    package private(set) var lastLine: String?
    package private(set) var received: [ServerMessage] = []
    package private(set) var view: MatchView?
    package private(set) var seat: Seat?
    package private(set) var token: String?

    package convenience init(port: UInt16, receiveTimeoutMs: Int = 10_000) throws {
        self.init(connectedSocket: try Sockets.connect(host: "127.0.0.1", port: port), receiveTimeoutMs: receiveTimeoutMs)
    }

    /// Adopts a socket that is already connected, such as one from `starvedSocket`.
    package init(connectedSocket: Int32, receiveTimeoutMs: Int = 10_000) {
        Sockets.setReceiveTimeout(connectedSocket, milliseconds: receiveTimeoutMs)
        // A test may send more than any honest client would queue, to a server that reads slowly.
        socket = LineSocket(adopting: connectedSocket, maxLineBytes: 1 << 22, maxQueuedBytes: .max)
    }

    package var fd: Int32 { socket.fd }

    /// Ends the connection as a client whose network or process went away; the server sees end of stream.
    package func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Whether a read would return at once: a line is waiting, or the server has closed.
    package var hasPendingInput: Bool {
        if !buffered.isEmpty { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Reads whatever arrives until the server closes, returning the complete lines and whether
    /// an unfinished one was left; gives up (and returns nil) on a reset or if nothing comes for 10 s.
    package func drainToEndOfStream() -> (lines: [String], endsMidLine: Bool)? {
        var lines = buffered.map(\.1)
        buffered.removeAll()
        while true {
            switch socket.read() {
            case .nothing, .failed: return nil
            case .endOfStream: return (lines, socket.isMidLine)
            case .lines(let read): for case .complete(let bytes) in read { lines.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }

    /// Writes all of `bytes`, waiting while the server's buffers are full; stops if the server is gone.
    package func sendRaw(_ bytes: [UInt8]) {
        socket.send(bytes)
        socket.flush()
    }

    package func sendRaw(_ text: String) { sendRaw(Array(text.utf8)) }

    package func send(_ message: ClientMessage, id: JSONValue? = nil) {
        sendRaw(ClientMessageEncoder.line(ClientRequest(id: id, message)))
    }

    /// The next message, in order.
    package func next(_ waitingFor: String = "a message") throws -> ServerMessage {
        while buffered.isEmpty {
            guard case .lines(let lines) = socket.read() else { throw ClientTimedOut(waitingFor: waitingFor) }
            for line in lines {
                guard case .complete(let bytes) = line else { continue }
                let text = String(decoding: bytes, as: UTF8.self)
                switch ServerMessageCoding.decode(bytes) {
                case .success(let message): buffered.append((message, text))
                case .failure(let error): Issue.record("undecodable server line \(text): \(error.message)")
                }
            }
        }
        let (message, text) = buffered.removeFirst()
        lastLine = text
        received.append(message)
        track(message)
        return message
    }

    /// Reads until `matching` returns a value; everything read on the way is kept in `received`.
    package func waitFor<T>(_ what: String, _ matching: (ServerMessage) -> T?) throws -> T {
        while true {
            if let found = matching(try next(what)) { return found }
        }
    }

    package func awaitError(_ code: ErrorCode) throws -> WireError {
        try waitFor("error \(code.rawValue)") { if case .error(let error, _) = $0, error.code == code { error } else { nil } }
    }

    package func awaitEvent(_ what: String, _ matching: (EventBody) -> Bool) throws -> WireEvent {
        try waitFor(what) { if case .event(let event) = $0, matching(event.body) { event } else { nil } }
    }

    /// Waits until this client has applied the event numbered `seq`.
    package func awaitSeq(_ seq: Int) throws {
        while (view?.seq ?? -1) < seq { _ = try next("event \(seq)") }
    }

    private func track(_ message: ServerMessage) {
        switch message {
        case .joined(_, _, _, let seat, let token, _, _):
            self.seat = seat
            self.token = token
        case .snapshot(let snapshot): view = snapshot
        case .event(let event):
            if view?.apply(event) == false { Issue.record("event \(event.seq) does not follow \(view?.seq ?? -1)") }
        case .insight(_, _, let sets): view?.setsOnTable = sets
        default: break
        }
    }

    /// Connects, reads the welcome, joins, and reads through the snapshot.
    package static func joined(_ server: TestServer, name: String, match: String? = "m", mode: Mode = .duel,
                       role: Role = .player, token: String? = nil) throws -> TestClient {
        let client = try TestClient(port: server.port)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        client.send(.join(JoinRequest(role: role, name: name, match: match, mode: mode, token: token)))
        _ = try client.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        return client
    }

    /// Ann and Bob seated in one duel, Ann caught up with what Bob's joining dealt.
    package static func duel(_ server: TestServer, match: String? = "m", tokens: (String, String)? = nil) throws -> (TestClient, TestClient) {
        let ann = try joined(server, name: "ann", match: match, token: tokens?.0)
        let bob = try joined(server, name: "bob", match: match, token: tokens?.1)
        try ann.awaitSeq(bob.view!.seq)
        return (ann, bob)
    }
}

extension EventBody {
    /// Whether this is `seat`'s player leaving (`present` false) or coming back.
    package func isPresence(of seat: Seat, present: Bool) -> Bool {
        if case .presence(seat, present, _) = self { true } else { false }
    }
}
