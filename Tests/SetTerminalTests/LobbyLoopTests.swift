import SetNet
import SetServer
import SetTestSupport
import SetWire
import Testing
@testable import SetScreen
@testable import SetTerminal

/// The lobby screen's shell on real sockets, its protocol the one session's: the lobby is one
/// room for the service, so a `redirect` from the node first reached moves the lobby to the node
/// holding it, where the player is listed; closing the first connection is not taken for the
/// server's loss.
@Suite(.serialized) struct LobbyLoopTests {
    /// ann's lobby connected to `server` on `clock`, welcomed and asking to be listed.
    static func listed(on server: FakeServer, clock: ManualTime) throws -> (EventLoop, LobbyLoop, FakePeer) {
        let loop = try EventLoop()
        let shell = LobbyLoop(app: LobbyApp(me: "ann"), place: .tcp(host: "127.0.0.1", port: server.port), loop: loop, clock: clock,
                              signalFD: -1, size: TerminalSize(columns: 80, rows: 24)) { _ in }
        shell.start()
        let peer = try server.accept()
        peer.send(FakeLines.welcome())
        #expect(runLoop(loop) { shell.lobby.stage == .listed })
        #expect(peer.await("lobby") != nil)
        return (loop, shell, peer)
    }

    @Test func aLobbyRedirectIsFollowedToTheLobbysNode() throws {
        let first = try FakeServer()
        var config = ServerConfig()
        config.port = 0
        let lobbyNode = try RunningServer(config: config)
        defer { lobbyNode.stop() }
        let (loop, shell, peer) = try Self.listed(on: first, clock: ManualTime(1_000))
        defer { shell.driver.disconnect() }
        peer.send(FakeLines.redirect(match: "~lobby", to: lobbyNode.port))
        #expect(runLoop(loop) { shell.lobby.players.contains { $0.name == "ann" } || shell.outcome != nil })
        #expect(shell.outcome == nil && shell.lobby.players.map(\.name) == ["ann"])
    }

    /// `node_away` for the lobby over a real socket: the screen says so, and once the session's
    /// wait is over (on the injected clock) the lobby is asked for again on the same connection.
    @Test func aLobbyNodeAwayIsWaitedOutAndTheLobbyAskedForAgain() throws {
        let server = try FakeServer()
        let clock = ManualTime(1_000)
        let (loop, shell, peer) = try Self.listed(on: server, clock: clock)
        defer { shell.driver.disconnect() }
        peer.send(FakeLines.nodeAway(match: "~lobby", node: "b", retryAfterMs: 2_000))
        #expect(runLoop(loop) { shell.lobby.note?.contains("is away") == true })
        clock.advance(by: 2_000)
        #expect(runLoop(loop) {
            shell.tick()
            return shell.driver.app.session.nodeAway == nil
        })
        #expect(peer.await("lobby") != nil, "the lobby asked for again after the wait")
        #expect(shell.outcome == nil)
    }
}
