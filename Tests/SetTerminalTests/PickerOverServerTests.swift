import Foundation
import Glibc
import SetNet
import SetRules
import SetServer
import SetWire
import SetTestSupport
import Testing
@testable import SetScreen
@testable import SetTerminal

/// The `watch` picker against a real server with more live matches than one page of `list` holds.
@Suite(.serialized) struct PickerOverServerTests {
    @Test func theWatchPickerReachesTheTwentyFifthMatch() throws {
        var config = ServerConfig()
        config.port = 0
        config.list.cacheMs = 0  // every list sees the matches just made
        let server = try RunningServer(config: config)
        defer { server.stop() }
        let port = server.port

        // 25 solo games, kept open: solo matches are not bound by the waiting-duel limit.
        var players: [TestClient] = []
        defer { players.forEach { $0.socket.close() } }
        for index in 1...25 {
            let player = try TestClient(port: port)
            player.send(.join(JoinRequest(name: "p\(index)", match: String(format: "solo-%02d", index), mode: .solo)))
            players.append(player)
        }

        let loop = try EventLoop(), clock = ManualTime(1_000)
        let eve = HeadlessClient(name: "eve", role: .spectator, port: port, loop: loop, clock: clock)
        // The picker asks for each next page a while after the last answer: its clock moves on by
        // a tenth of a second each time the loop comes round.
        func pump(until done: () -> Bool) -> Bool {
            runLoop(loop) {
                clock.advance(by: 100)
                eve.driver.tick()
                return done()
            }
        }
        #expect(pump { eve.app.state.listings?.count == 25 }, "listed: \(eve.app.state.listings?.count ?? 0)")
        eve.driver.update { $0.input(.key(.up), at: $1) }  // wraps to the last line
        eve.driver.update { $0.input(.key(.enter), at: $1) }
        #expect(pump { eve.app.state.view?.match == "solo-25" })
    }
}
