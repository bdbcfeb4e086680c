import SetBot
import SetNet
import SetTestSupport
import Testing

/// A bot's "gg" can be the line the server's rate limit drops (`rate_limited`, no id): an instant
/// bot's last moves may spend its allowance just before the game ends (seen once in
/// `botsSayGgWhenTheGameEnds` on a loaded CI). Unheard, it is said again after the quiet second;
/// heard, never twice; and never in the game that follows.
@Suite(.serialized) struct BotGoodGameRateLimitTests {
    static let gameOver = #"{"kind":"game_over","match":"m","result":{"reason":"no_sets_left","scores":[3,0],"winner":0},"seed":"42","seq":6,"time":2000,"type":"event"}"#
    static let heard = #"{"match":"m","name":"left","role":"player","room":"players","seat":0,"text":"gg","time":2100,"type":"chat"}"#
    static let dropped = FakeLines.error("rate_limited", "Over 50 messages a second; this one was dropped.")
    static let rematchDealt = #"{"commitment":"e11fa260ecddc3c016fd4caec2aac456844458e4aecfa45b00c6f7bb89b17a22","deck":69,"game":2,"kind":"game_started","match":"m","scores":[0,0],"seq":7,"table":[9,40,16,30,47,20,0,14,75,45,77,19],"time":3000,"type":"event"}"#

    /// A bot seated in a fake server's duel whose game has just ended, once it said its first "gg".
    struct BotAtTheEnd {
        let server: FakeServer
        let clock = ManualTime(0)
        let bots: BotsOnAThread
        let peer: FakePeer

        init() throws {
            server = try FakeServer()
            var options = BotOptions()
            options.match = "m"
            options.name = "left"
            options.level = .instant
            options.asksForRematch = false
            (bots, peer) = try server.seat(options, clock: clock)
            peer.send(BotGoodGameRateLimitTests.gameOver)
            #expect(peer.await("chat")?.contains(#""text":"gg""#) == true)
        }

        /// Sends `lines`, then waits until the bot has read them: it answers an echo ping at once.
        func tell(_ lines: [String]) {
            for line in lines { peer.send(line) }
            peer.send(#"{"echo":true,"time":2200,"type":"ping"}"#)
            #expect(peer.await("pong")?.contains(#""time":2200"#) == true)
        }

        /// What the bot sends in one wake past its quiet second and its first keep-alive ping: it
        /// acts (a gg, were it owed) before it pings, so all it would say comes before that ping.
        func linesThroughTheNextPing() -> [String] {
            clock.advance(by: 6_000)
            bots.runner.wake()
            return peer.readLines(until: "a ping") { $0.last?.contains(#""type":"ping""#) == true }
        }
    }

    @Test func aDroppedGgIsSaidAgainAfterTheQuiet() throws {
        let bot = try BotAtTheEnd()
        defer { bot.bots.stop() }
        bot.tell([Self.dropped])
        let again = bot.peer.await("chat", steppingClock: bot.clock, of: bot.bots, steps: 100)
        #expect(again?.contains(#""text":"gg""#) == true, "the gg, said again once the quiet second is over")
    }

    /// What leaves a bot owing no "gg" after its quiet second.
    enum Settled: CaseIterable {
        /// Its gg was heard; then some other line of its was dropped.
        case heardThenALineDropped
        /// Its gg was dropped, and before the quiet was over a rematch dealt game 2.
        case droppedThenARematchDealt

        var lines: [String] {
            switch self {
            case .heardThenALineDropped: [heard, dropped]
            case .droppedThenARematchDealt: [dropped, rematchDealt]
            }
        }
    }

    @Test(arguments: Settled.allCases) func aGgIsNotSaidAgain(_ settled: Settled) throws {
        let bot = try BotAtTheEnd()
        defer { bot.bots.stop() }
        bot.tell(settled.lines)
        let lines = bot.linesThroughTheNextPing()
        #expect(!lines.contains { $0.contains(#""type":"chat""#) }, "\(lines)")
    }
}
