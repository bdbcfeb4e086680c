import Foundation
import Glibc
import SetNet
import SetRules
import SetWire
import Testing
@testable import SetScreen
@testable import SetTerminal

/// The client app on a real socket with a clock the test sets: what the terminal shell does,
/// minus the terminal, so time-outs are tested without sleeping. The socket half is the shell's
/// own (`ClientConnection`).
final class ScriptedClient: ClientConnection {
    var app: ClientApp
    var socket: LineSocket?
    var now: Int64 = 0
    let serverHost = "127.0.0.1"
    let serverPort: UInt16
    private(set) var quit: (status: Int32, message: String?)?
    private(set) var logs: [String] = []

    init(port: UInt16, name: String = "ann", match: String? = "m") {
        serverPort = port
        app = ClientApp(state: ClientState(options: ClientConfiguration(name: name, match: match, animation: false),
                                           size: TerminalSize(columns: 100, rows: 30)))
        perform(app.start(at: now))
    }

    func perform(_ effects: [ClientEffect]) {
        for effect in effects {
            switch effect {
            case .connect: connect(at: now)
            case .send(let message): send(message, at: now)
            case .disconnect: disconnect()
            case .log(let text): logs.append(text)
            case .saveToken, .startLocal, .holdLocal: break
            case .quit(let status, let message): if quit == nil { quit = (status, message) }
            }
        }
    }

    /// Moves the app's clock and lets it do what is due.
    func advance(to time: Int64) {
        now = time
        perform(app.tick(at: now))
        _ = app.compose(at: now)
    }
}

/// A scripted hostile server drives the terminal client through everything issue 16 lists: no
/// trap, no hang (time-outs on an injected clock), bounded queues, and a view that never freezes.
@Suite(.serialized) struct HostileServerClientTests {
    /// A client connected to the fake server and greeted, joined and given a snapshot at `seq`.
    func joinedClient(_ server: FakeServer, seq: Int = 5) throws -> (ScriptedClient, FakePeer) {
        let client = ScriptedClient(port: server.port)
        let peer = try server.accept()
        client.pumpUntilConnected()
        peer.send(FakeLines.welcome())
        client.pump(everythingFrom: peer)
        #expect(peer.await("join") != nil)
        peer.send(FakeLines.joined())
        peer.send(FakeLines.snapshot(seq: seq))
        client.pump(everythingFrom: peer)
        #expect(client.app.state.view?.seq == seq)
        return (client, peer)
    }

    @Test func aWelcomeFromTheEndOfTimeIsRefusedAndASilentServerIsGivenUp() throws {
        let server = try FakeServer()
        let client = ScriptedClient(port: server.port)
        let peer = try server.accept()
        client.pumpUntilConnected()
        peer.send(FakeLines.welcome(time: "-9223372036854775808"))
        peer.send(FakeLines.welcome(time: "9223372036854775807"))
        client.pump(everythingFrom: peer)
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
        client.pump(everythingFrom: peer)
        #expect(client.app.state.clock.roundTrip == nil, "a pong answering no ping of ours is no sample")
        #expect(client.app.state.view?.seq == 5 && client.app.state.view?.forfeitAt == nil && client.app.state.view?.window == nil)
        client.advance(to: 1_000)
        peer.send(#"{"clientTime":0,"time":1000,"type":"pong"}"#)
        client.pump(everythingFrom: peer)
        #expect(client.app.state.clock.roundTrip == 1_000, "an honest pong still counts")
    }

    @Test func aSnapshotAskedForOnALostConnectionDoesNotFreezeTheView() throws {
        let server = try FakeServer()
        let (client, peer) = try joinedClient(server)
        peer.send(FakeLines.spectators(1, seq: 7))
        client.pump(everythingFrom: peer)
        #expect(peer.await("snapshot") != nil, "the gap asked for a snapshot")
        peer.close()
        client.pump(until: "the connection is lost") { if case .lost = client.app.state.connection { true } else { false } }
        guard case .lost(_, let retryAt, _) = client.app.state.connection else { Issue.record("not lost"); return }
        client.advance(to: retryAt)
        let again = try server.accept()
        client.pumpUntilConnected()
        again.send(FakeLines.welcome())
        client.pump(everythingFrom: again)
        let join = try #require(again.await("join"))
        #expect(join.contains("\"lastSeq\":5") && join.contains("\"token\""))
        again.send(FakeLines.joined(resumed: true))
        again.send(FakeLines.spectators(1, seq: 6))
        again.send(FakeLines.spectators(2, seq: 7))
        client.pump(everythingFrom: again)
        #expect(client.app.state.view?.seq == 7 && client.app.state.view?.spectators == 2, "the missed events were applied")
    }

    @Test func aServerThatPingsWithoutReadingGetsOneAnswerAndIsGivenUp() throws {
        let server = try FakeServer()
        let client = ScriptedClient(port: server.port)
        let peer = try server.accept(receiveBufferBytes: 2_048)
        client.pumpUntilConnected()
        peer.send(FakeLines.welcome())
        client.pump(everythingFrom: peer)
        for _ in 0..<5_000 { peer.send(#"{"time":2000,"type":"ping"}"#) }
        client.pump(everythingFrom: peer)
        #expect((client.socket?.pendingBytes ?? 0) == 0, "a few lines, all taken by the socket")
        let lines = peer.readEverything(sentBy: try #require(client.socket).fd)
        #expect(lines.filter { $0.contains("\"type\":\"ping\"") }.count == 1, "\(lines)")
        client.advance(to: ClientApp.unansweredLimit)
        #expect(client.quit?.message?.contains("did not answer") == true)
    }

    @Test func aConnectionQueuesNoMoreThanItsCapForAServerThatNeverReads() throws {
        let server = try FakeServer()
        let client = ScriptedClient(port: server.port)
        let peer = try server.accept(receiveBufferBytes: 2_048)
        client.pumpUntilConnected()
        let socket = try #require(client.socket)
        var sent = 0
        while socket.isOpen && sent < 1_000_000 {
            client.send(.list(), at: client.now)
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
        let client = ScriptedClient(port: server.port)
        let peer = try server.accept()
        client.pumpUntilConnected()
        peer.send(FakeLines.welcome())
        client.pump(everythingFrom: peer)
        _ = peer.await("join")
        peer.send(FakeLines.error("match_full", #"Full.\u001b]0;owned\u0007\u001b[2J"#, fatal: true))
        client.pump(everythingFrom: peer)
        #expect(client.quit?.status == 1)
        #expect(client.quit?.message == "setgame: Full.]0;owned[2J")
    }

    @Test func tablesTheRulesCannotProduceNeverReachTheView() throws {
        let server = try FakeServer()
        let (client, peer) = try joinedClient(server)
        peer.send(FakeLines.snapshot(seq: 9, table: FakeLines.table(count: 3_000), deck: 0))
        peer.send(FakeLines.snapshot(seq: 9, table: "[1,1,1,2,2,2]", deck: 0))
        peer.send(#"{"added":[],"deck":0,"kind":"table","match":"m","removed":[],"seq":6,"table":\#(FakeLines.table(count: 200)),"time":1000,"type":"event"}"#)
        client.pump(everythingFrom: peer)
        #expect(client.app.state.view?.seq == 5 && client.app.state.view?.table.count == 12)
    }
}
