import Glibc
import SetNet
import SetRules
import SetServer
import SetWire
// Exported, so every file of this target sees the test server and client it was written
// against when they lived here (files added in parallel branches included).
@_exported import SetTestSupport
import Testing

/// A blocking loopback socket with a small receive buffer and small TCP segments, connected to
/// `port`. The peer's kernel sizes its send buffer from the segment size, so a client that stops
/// reading fills both kernels in kilobytes rather than megabytes.
func starvedSocket(port: UInt16, receiveBufferBytes: Int32 = 4_096, maxSegmentBytes: Int32 = 1_000) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SystemCallError("socket") }
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
        let error = SystemCallError("connect")
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

/// Proves no event is pending for `client`: the pong to a fresh ping comes back before any
/// further event. The server's own ping to a quiet connection is not an event, nor is the notice
/// that a game's result waits on the accounts store (`journal_failed`, asked by nobody), which a
/// player may be sent at any time while the store cannot take its record.
func nothingPending(_ client: TestClient) throws -> Bool {
    client.send(.ping(time: 7))
    while true {
        switch try client.next("pong") {
        case .pong: return true
        case .ping: continue
        case .error(let error, nil) where error.code == .journalFailed && !error.fatal: continue
        default: return false
        }
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
    } else if actor.view!.deck == 0 {
        // No set and no card left: the game is over, told once its record is committed.
        _ = try actor.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
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
