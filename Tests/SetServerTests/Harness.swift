import Foundation
import Glibc
import SetNet
import SetRules
import SetServer
import SetWire
import SetTestSupport
import Testing

/// A real server on a loopback port, on its own thread, with a clock the test moves.
final class TestServer: Sendable {
    let running: RunningServer
    let clock: ManualTime
    let logLines = ServerLogLines()

    init(configure: (inout ServerConfig) -> Void = { _ in }) throws {
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
        clock = ManualTime(1_000)
        running = RunningServer(try Server(config: config, clock: clock, log: logLines.log))
    }

    var port: UInt16 { running.port }
    var control: ServerControl { running.control }
    /// The names of the matches the server restored at start.
    var restoredMatches: [String] { running.restoredMatches }

    /// Moves the server's clock and lets its loop notice.
    func advance(by milliseconds: Int64) {
        clock.advance(by: milliseconds)
        control.wake()
    }

    func stop() { running.stop() }
}

struct ClientTimedOut: Error, CustomStringConvertible {
    var waitingFor: String
    var description: String { "no message came while waiting for \(waitingFor)" }
}

/// A protocol client over a real socket, the same `LineSocket` the server uses, left blocking:
/// reads wait, with a timeout that only a broken server reaches. It keeps a `MatchView` current
/// from snapshots and events.
final class TestClient {
    let socket: LineSocket
    private var buffered: [(ServerMessage, String)] = []
    /// The text of the last line `next` returned.
    private(set) var lastLine: String?
    private(set) var received: [ServerMessage] = []
    private(set) var view: MatchView?
    private(set) var seat: Seat?
    private(set) var token: String?

    convenience init(port: UInt16) throws {
        self.init(connectedSocket: try Sockets.connect(host: "127.0.0.1", port: port))
    }

    /// Adopts a socket that is already connected, such as one from `starvedSocket`.
    init(connectedSocket: Int32) {
        Sockets.setReceiveTimeout(connectedSocket, milliseconds: 10_000)
        // A test may send more than any honest client would queue, to a server that reads slowly.
        socket = LineSocket(adopting: connectedSocket, maxLineBytes: 1 << 22, maxQueuedBytes: .max)
    }

    var fd: Int32 { socket.fd }

    /// Ends the connection as a client whose network or process went away; the server sees end of stream.
    func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Whether a read would return at once: a line is waiting, or the server has closed.
    var hasPendingInput: Bool {
        if !buffered.isEmpty { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Reads whatever arrives until the server closes, returning the complete lines and whether
    /// an unfinished one was left; gives up (and returns nil) on a reset or if nothing comes for 10 s.
    func drainToEndOfStream() -> (lines: [String], endsMidLine: Bool)? {
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
    func sendRaw(_ bytes: [UInt8]) {
        socket.send(bytes)
        socket.flush()
    }

    func sendRaw(_ text: String) { sendRaw(Array(text.utf8)) }

    func send(_ message: ClientMessage, id: JSONValue? = nil) {
        sendRaw(ClientMessageEncoder.line(ClientRequest(id: id, message)))
    }

    /// The next message, in order.
    func next(_ waitingFor: String = "a message") throws -> ServerMessage {
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
    func waitFor<T>(_ what: String, _ matching: (ServerMessage) -> T?) throws -> T {
        while true {
            if let found = matching(try next(what)) { return found }
        }
    }

    func awaitError(_ code: ErrorCode) throws -> WireError {
        try waitFor("error \(code.rawValue)") { if case .error(let error, _) = $0, error.code == code { error } else { nil } }
    }

    func awaitEvent(_ what: String, _ matching: (EventBody) -> Bool) throws -> WireEvent {
        try waitFor(what) { if case .event(let event) = $0, matching(event.body) { event } else { nil } }
    }

    /// Waits until this client has applied the event numbered `seq`.
    func awaitSeq(_ seq: Int) throws {
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
    static func joined(_ server: TestServer, name: String, match: String? = "m", mode: Mode = .duel,
                       role: Role = .player, token: String? = nil) throws -> TestClient {
        let client = try TestClient(port: server.port)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        client.send(.join(JoinRequest(role: role, name: name, match: match, mode: mode, token: token)))
        _ = try client.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        return client
    }

    /// Ann and Bob seated in one duel, Ann caught up with what Bob's joining dealt.
    static func duel(_ server: TestServer, match: String? = "m", tokens: (String, String)? = nil) throws -> (TestClient, TestClient) {
        let ann = try joined(server, name: "ann", match: match, token: tokens?.0)
        let bob = try joined(server, name: "bob", match: match, token: tokens?.1)
        try ann.awaitSeq(bob.view!.seq)
        return (ann, bob)
    }
}

/// A blocking loopback socket with a small receive buffer and small TCP segments, connected to
/// `port`. The peer's kernel sizes its send buffer from the segment size, so a client that stops
/// reading fills both kernels in kilobytes rather than megabytes.
func starvedSocket(port: UInt16, receiveBufferBytes: Int32 = 4_096, maxSegmentBytes: Int32 = 1_000) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketError("socket") }
    var size = receiveBufferBytes, segment = maxSegmentBytes
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_MAXSEG, &segment, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else {
        let error = SocketError("connect")
        Glibc.close(fd)
        throw error
    }
    return fd
}

extension MatchView {
    /// The view without what only spectators see, for comparing players with spectators.
    var asPlayerSees: MatchView {
        var copy = self
        copy.setsOnTable = nil
        return copy
    }
}

/// One scripted turn of a duel: the actor takes the first set it sees (a claim and three picks),
/// or deals when it sees none and the other passes the grace window it is handed; then both
/// catch up with each other, so the next turn sees the whole table.
func playScriptedTurn(_ actor: TestClient, _ other: TestClient) throws {
    if let set = SetLogic.firstSet(in: actor.view!.table) {
        actor.send(.act(.claim, seat: nil))
        for card in set { actor.send(.act(.select(card), seat: nil)) }
        _ = try actor.awaitEvent("set taken") { if case .rules(.setTaken) = $0 { true } else { false } }
    } else {
        actor.send(.act(.deal, seat: nil))
        _ = try actor.awaitEvent("deal") { if case .rules(.tableChanged(let removed, _, _, _)) = $0 { removed.isEmpty } else { false } }
        if actor.view?.window != nil { other.send(.act(.pass, seat: nil)) }
    }
    for client in [actor, other] {
        client.send(.ping(time: -9))
        _ = try client.waitFor("pong") { if case .pong(_, -9, _) = $0 { true } else { nil } }
    }
    try actor.awaitSeq(other.view!.seq)
    try other.awaitSeq(actor.view!.seq)
}

/// A spectator of `match` on a socket that barely reads, joined and announced to `player`.
func stuckSpectator(_ server: TestServer, match: String = "m", announcedTo player: TestClient) throws -> TestClient {
    let eve = TestClient(connectedSocket: try starvedSocket(port: server.port))
    _ = try eve.next("welcome")
    eve.send(.join(JoinRequest(role: .spectator, name: "eve", match: match)))
    _ = try player.awaitEvent("eve arrives") { $0 == .spectators(count: 1) }
    return eve
}
