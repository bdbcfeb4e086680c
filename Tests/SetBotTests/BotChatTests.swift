import Foundation
import SetBot
import SetNet
import SetRules
import SetServer
import SetWire
import SetTestSupport
import Testing

extension BotDuelTests {
    /// Issue 27: bots say a short "gg" when a game ends, in the players' room, heard by spectators.
    @Test func botsSayGgWhenTheGameEnds() throws {
        var config = ServerConfig()
        config.port = 0
        config.seeds = .counting(from: 7)
        let server = try RunningServer(config: config, log: ServerLogLines().log)
        defer { server.stop() }
        let runner = try BotRunner()
        for (index, name) in ["left", "right"].enumerated() {
            var options = BotOptions()
            options.port = server.port
            options.match = "gg"
            options.level = .instant
            options.name = name
            options.seed = UInt64(index)
            options.asksForRematch = false
            try runner.add(options)
        }
        let runnerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread { runner.run(); runnerDone.signal() }
        defer {
            runner.stop()
            runnerDone.wait()
        }
        var heard: [ChatLine] = []
        var over = false
        // Live or, for a spectator who came late, in the kept lines after its snapshot.
        let both = try spectate(port: server.port, match: "gg", name: "eve") { message in
            if case .event(let event) = message, case .gameOver = event.body { over = true }
            if case .chat(let line) = message { heard.append(line) }
            return Set(heard.map(\.name)) == ["left", "right"]
        }
        #expect(both && over)
        #expect(heard.allSatisfy { $0.text == "gg" && $0.room == .players && $0.seat != nil })
    }
}
