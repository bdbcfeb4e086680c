import Foundation
import Glibc
import SetNet
import SetRules
import SetServer
import SetWire
import Testing
@testable import SetScreen
@testable import SetTerminal

/// The `watch` picker against a real server with more live matches than one page of `list` holds.
@Suite(.serialized) struct PickerOverServerTests {
    @Test func theWatchPickerReachesTheTwentyFifthMatch() throws {
        var config = ServerConfig()
        config.port = 0
        config.listCacheMs = 0  // every list sees the matches just made
        let server = try Server(config: config, log: .silent)
        let thread = Thread { server.run() }
        thread.start()
        defer { server.stop() }

        // 25 solo games, kept open: solo matches are not bound by the waiting-duel limit.
        var players: [LineSocket] = []
        defer { players.forEach { $0.close() } }
        for index in 1...25 {
            let socket = try LineSocket.connect(host: "127.0.0.1", port: server.port)
            let join = JoinRequest(name: "p\(index)", match: String(format: "solo-%02d", index), mode: .solo)
            socket.send(ClientMessageEncoder.line(ClientRequest(.join(join))))
            _ = socket.flush()
            players.append(socket)
        }

        let eve = HeadlessClient(name: "eve", role: .spectator, port: server.port)
        let deadline = HeadlessClient.now() + 10_000  // only guards against a hang
        func pump(until done: () -> Bool) -> Bool {
            while !done() {
                guard HeadlessClient.now() < deadline else { return false }
                eve.perform(eve.app.tick(at: HeadlessClient.now()))
                eve.pump()
            }
            return true
        }
        #expect(pump { eve.app.state.listings?.count == 25 }, "listed: \(eve.app.state.listings?.count ?? 0)")
        eve.perform(eve.app.input(.key(.up), at: HeadlessClient.now()))  // wraps to the last line
        eve.perform(eve.app.input(.key(.enter), at: HeadlessClient.now()))
        #expect(pump { eve.app.state.view?.match == "solo-25" })
    }
}
