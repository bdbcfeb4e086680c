import SetClient
import SetNet
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing
@testable import SetScreen
@testable import SetTerminal

/// The arena's TV on real sockets against a real server (issue 44): its arena connection joins
/// as a watcher, its board connection joins the top board as a spectator, and once that duel is
/// over and the linger has passed (on the TV's own clock) the next duel is watched.
@Suite(.serialized) struct ArenaTVLoopTests {
    static func client(_ server: TestServer) throws -> TestClient {
        let client = try TestClient(port: server.port)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        return client
    }

    /// `name` joined to arena `arena`, and its next pairing sat in on the same connection.
    static func player(_ server: TestServer, _ name: String) throws -> TestClient {
        let client = try Self.client(server)
        client.send(.arena(.join(ArenaJoinRequest(arena: "tv", name: name))), id: .string(name))
        _ = try client.waitFor("\(name) joined") { if case .arena(_, .string(name)?) = $0 { true } else { nil } }
        return client
    }

    static func sit(_ client: TestClient, _ name: String) throws -> String {
        let notice = try client.waitFor("\(name)'s pairing") { if case .arenaPairing(let notice) = $0 { notice } else { nil } }
        client.send(.join(JoinRequest(name: name, match: notice.match, token: notice.token)))
        _ = try client.waitFor("\(name) seated") { if case .snapshot = $0 { true } else { nil } }
        return notice.match
    }

    @Test func theTopBoardIsWatchedThenTheNextOnceItEnds() throws {
        let server = try TestServer()
        defer { server.stop() }
        let creator = try Self.client(server)
        creator.send(.arena(.create(ArenaCreation(arena: "tv", minutes: 10, startsInS: 60))), id: "c")
        _ = try creator.waitFor("the arena made") { if case .arena(_, "c"?) = $0 { true } else { nil } }
        let ann = try Self.player(server, "ann"), bob = try Self.player(server, "bob")

        let loop = try EventLoop()
        let clock = ManualTime(1_000)
        let tv = ArenaTVLoop(app: ArenaTVApp(arena: "tv", options: ClientOptions(name: "viv"), size: TerminalSize(columns: 80, rows: 24)),
                             home: .tcp(host: "127.0.0.1", port: server.port), loop: loop, clock: clock, signalFD: -1) { _ in }
        defer { tv.stop() }
        tv.start()
        #expect(runLoop(loop) { tv.app.screen.arena?.standings.count == 2 }, "the arena's state on the watching connection")

        server.advance(by: 60_000)
        #expect(try Self.sit(ann, "ann") == "arena-tv-1")
        _ = try Self.sit(bob, "bob")
        #expect(runLoop(loop) { tv.app.board?.state.session.view?.match == "arena-tv-1" }, "duel 1 watched as its spectator")
        #expect(tv.app.compose(at: 0).textLines[0].hasPrefix("TV tv · duel 1: ann #1 vs bob #2"))

        bob.send(.act(.resign, seat: nil))
        #expect(runLoop(loop) { tv.app.tv.nextWake != nil }, "its game over heard, lingering")
        _ = try Self.sit(ann, "ann")
        _ = try Self.sit(bob, "bob")
        clock.advance(by: ArenaTV.lingerMs)
        #expect(runLoop(loop) {
            tv.tick()
            return tv.app.board?.state.session.view?.match == "arena-tv-2"
        }, "duel 2 watched after the linger")
        #expect(tv.app.outcome == nil)
    }
}
