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
        let server = try Self.server()
        defer { server.stop() }
        let bots = try BotsOnAThread(Self.instantPair(port: server.port, match: "gg"))
        defer { bots.stop() }
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

    /// Issue 32 item 15: a house bot says "gg" after every game of a rematch, the second as the
    /// first: a stock phrase is no repeat (the rule once refused it for ever).
    @Test func botsSayGgAfterEveryGameOfARematch() throws {
        let server = try Self.server()
        defer { server.stop() }
        let bots = try BotsOnAThread(Self.instantPair(port: server.port, match: "gg-again") { index, options in
            // Accounts, as the door's house bots are: two guests on one address would share one
            // chat allowance (five lines in ten seconds), and quick games outrun it.
            options.account = String(repeating: index == 0 ? "a" : "b", count: 64)
            options.asksForRematch = true
        })
        defer { bots.stop() }
        var said: [String: Int] = [:]
        var overs = 0
        // Until both said it twice, or four games ended without that (the bots play on).
        let ended = try spectate(port: server.port, match: "gg-again", name: "eve") { message in
            if case .event(let event) = message, case .gameOver = event.body { overs += 1 }
            if case .chat(let line) = message, line.text == "gg" { said[line.name, default: 0] += 1 }
            return said["left", default: 0] >= 2 && said["right", default: 0] >= 2 || overs >= 4
        }
        #expect(ended && said["left", default: 0] >= 2 && said["right", default: 0] >= 2, "\(said), \(overs) game(s) seen over")
    }
}
