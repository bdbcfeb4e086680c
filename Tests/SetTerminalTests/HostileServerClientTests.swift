import Foundation
import Glibc
import SetNet
import SetClient
import SetRules
import SetWire
import SetTestSupport
import Testing
@testable import SetScreen
@testable import SetTerminal

/// The client app on a real socket with a clock the test sets: the terminal shell's own driver
/// and loop (`ClientDriver`), minus the terminal, so time-outs are tested without sleeping.
final class ScriptedClient {
    let driver: ClientDriver<ClientApp>
    let clock = ManualTime(0)
    private(set) var quit: (status: Int32, message: String?)?
    private(set) var logs: [String] = []

    init(port: UInt16, name: String = "ann", match: String? = "m", role: Role = .player) throws {
        let app = ClientApp(state: ClientState(options: ClientOptions(name: name, match: match, role: role, animation: false),
                                               size: TerminalSize(columns: 100, rows: 30)))
        driver = ClientDriver(app: app, loop: try EventLoop(), clock: clock, host: "127.0.0.1", port: port)
        driver.onEffect = { [unowned self] effect in
            switch effect {
            case .log(let text): logs.append(text)
            case .quit(let status, let message): if quit == nil { quit = (status, message) }
            default: break
            }
        }
        driver.start()
    }

    var app: ClientApp { driver.app }
    var now: Int64 { driver.now }
    var socket: LineSocket? { driver.socket }

    /// Runs the loop until the client's connect has finished (it waits for the welcome).
    func pumpConnected() {
        #expect(runLoop(driver.loop) { app.state.connection == .joining || socket == nil }, "the connect finished")
    }

    /// Runs the loop until the client has handled every byte `peer` sent, or its connection ended.
    func pump(_ peer: FakePeer) {
        #expect(runLoop(driver.loop) { socket.map { $0.bytesRead >= peer.bytesSent } ?? true }, "the client read what was sent")
    }

    /// Runs the loop until `condition` holds.
    func pump(until condition: () -> Bool) -> Bool { runLoop(driver.loop, until: condition) }

    /// Moves the app's clock and lets it do what is due.
    func advance(to time: Int64) {
        clock.set(time)
        driver.tick()
        _ = app.compose(at: now)
    }
}

/// A scripted hostile server drives the terminal client through everything issue 16 lists: no
/// trap, no hang (time-outs on an injected clock), bounded queues, and a view that never freezes.
@Suite(.serialized) struct HostileServerClientTests {
    /// A client connected to the fake server and greeted, joined and given a snapshot at `seq`.
    func joinedClient(_ server: FakeServer, seq: Int = 5) throws -> (ScriptedClient, FakePeer) {
        let client = try ScriptedClient(port: server.port)
        let peer = try server.accept()
        client.pumpConnected()
        peer.send(FakeLines.welcome())
        client.pump(peer)
        #expect(peer.await("join") != nil)
        peer.send(FakeLines.joined())
        peer.send(FakeLines.snapshot(seq: seq))
        client.pump(peer)
        #expect(client.app.state.view?.seq == seq)
        return (client, peer)
    }

    @Test func aWelcomeFromTheEndOfTimeIsRefusedAndASilentServerIsGivenUp() throws {
        let server = try FakeServer()
        let client = try ScriptedClient(port: server.port)
        let peer = try server.accept()
        client.pumpConnected()
        peer.send(FakeLines.welcome(time: "-9223372036854775808"))
        peer.send(FakeLines.welcome(time: "9223372036854775807"))
        client.pump(peer)
        #expect(client.app.state.connection == .joining, "neither welcome was taken")
        _ = client.app.compose(at: client.now)
        client.advance(to: ClientApp.unansweredLimit - 1)
        #expect(client.quit == nil)
        client.advance(to: ClientApp.unansweredLimit)
        #expect(client.quit?.status == 1)
        #expect(client.quit?.message?.contains("the server did not answer for 30 s") == true)
        #expect(peer.closedByClient())
    }

    @Test func hostileTimesInPongsSnapshotsAndEventsDoNotTrap() throws {
        let server = try FakeServer()
        let (client, peer) = try joinedClient(server)
        peer.send(#"{"clientTime":-9223372036854775808,"time":1000,"type":"pong"}"#)
        peer.send(#"{"clientTime":9223372036854775807,"time":1000,"type":"pong"}"#)
        peer.send(FakeLines.snapshot(seq: 6, forfeitAt: "9223372036854775807"))
        peer.send(FakeLines.snapshot(seq: 6, window: FakeLines.window(opened: "-9223372036854775808", deadline: "9223372036854775807")))
        peer.send(FakeLines.snapshot(seq: 6, window: FakeLines.window(opened: "4000000000000000000", deadline: "4000000000000000000")))
        peer.send(#"{"forfeitAt":-9223372036854775808,"kind":"presence","match":"m","present":false,"seat":1,"seq":6,"time":1000,"type":"event"}"#)
        client.pump(peer)
        #expect(client.app.state.clock.roundTrip == nil, "a pong answering no ping of ours is no sample")
        #expect(client.app.state.view?.seq == 5 && client.app.state.view?.forfeitAt == nil && client.app.state.view?.window == nil)
        client.advance(to: 1_000)
        peer.send(#"{"clientTime":0,"time":1000,"type":"pong"}"#)
        client.pump(peer)
        #expect(client.app.state.clock.roundTrip == 1_000, "an honest pong still counts")
    }

    @Test func aSnapshotAskedForOnALostConnectionDoesNotFreezeTheView() throws {
        let server = try FakeServer()
        let (client, peer) = try joinedClient(server)
        peer.send(FakeLines.spectators(1, seq: 7))
        client.pump(peer)
        #expect(peer.await("snapshot") != nil, "the gap asked for a snapshot")
        peer.close()
        #expect(client.pump { if case .lost = client.app.state.connection { true } else { false } }, "the close was seen")
        guard case .lost(_, let retryAt, _) = client.app.state.connection else { Issue.record("not lost"); return }
        client.advance(to: retryAt)
        let again = try server.accept()
        client.pumpConnected()
        again.send(FakeLines.welcome())
        client.pump(again)
        let join = try #require(again.await("join"))
        #expect(join.contains("\"lastSeq\":5") && join.contains("\"token\""))
        again.send(FakeLines.joined(resumed: true))
        again.send(FakeLines.spectators(1, seq: 6))
        again.send(FakeLines.spectators(2, seq: 7))
        client.pump(again)
        #expect(client.app.state.view?.seq == 7 && client.app.state.view?.spectators == 2, "the missed events were applied")
    }

    @Test func aServerThatPingsWithoutReadingGetsOneAnswerAndIsGivenUp() throws {
        let server = try FakeServer()
        let client = try ScriptedClient(port: server.port)
        let peer = try server.accept(receiveBufferBytes: 2_048)
        client.pumpConnected()
        peer.send(FakeLines.welcome())
        client.pump(peer)
        for _ in 0..<5_000 { peer.send(#"{"time":2000,"type":"ping"}"#) }
        client.pump(peer)
        #expect((client.socket?.pendingBytes ?? 0) == 0, "a few lines, all taken by the socket")
        let lines = peer.readEverything(sentBy: try #require(client.socket).fd)
        #expect(lines.filter { $0.contains("\"type\":\"ping\"") }.count == 1, "\(lines)")
        client.advance(to: ClientApp.unansweredLimit)
        #expect(client.quit?.message?.contains("did not answer") == true)
    }

    @Test func aConnectionQueuesNoMoreThanItsCapForAServerThatNeverReads() throws {
        let server = try FakeServer()
        let client = try ScriptedClient(port: server.port)
        let peer = try server.accept(receiveBufferBytes: 2_048)
        client.pumpConnected()
        let socket = try #require(client.socket)
        var sent = 0
        while socket.isOpen && sent < 1_000_000 {
            client.driver.send(.list())
            #expect(socket.pendingBytes <= ClientSocketLimits.maxQueuedBytes)
            sent += 1
        }
        #expect(socket.closeReason?.contains("not reading") == true)
        #expect(client.socket == nil, "the connection was lost")
        #expect(client.quit?.message?.contains("not reading") == true, "never joined, so the client ends, saying why")
        peer.close()
    }

    @Test func aFatalRefusalIsPrintedWithoutTheServersEscapeSequences() throws {
        let server = try FakeServer()
        let client = try ScriptedClient(port: server.port)
        let peer = try server.accept()
        client.pumpConnected()
        peer.send(FakeLines.welcome())
        client.pump(peer)
        _ = peer.await("join")
        peer.send(FakeLines.error("match_full", #"Full.\u001b]0;owned\u0007\u001b[2J"#, fatal: true))
        client.pump(peer)
        #expect(client.quit?.status == 1)
        #expect(client.quit?.message == "setgame: Full.]0;owned[2J")
    }

    @Test func tablesTheRulesCannotProduceNeverReachTheView() throws {
        let server = try FakeServer()
        let (client, peer) = try joinedClient(server)
        peer.send(FakeLines.snapshot(seq: 9, table: FakeLines.table(count: 3_000), deck: 0))
        peer.send(FakeLines.snapshot(seq: 9, table: "[1,1,1,2,2,2]", deck: 0))
        peer.send(#"{"added":[],"deck":0,"kind":"table","match":"m","removed":[],"seq":6,"table":\#(FakeLines.table(count: 200)),"time":1000,"type":"event"}"#)
        client.pump(peer)
        #expect(client.app.state.view?.seq == 5 && client.app.state.view?.table.count == 12)
    }
}
