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

    /// A bot seated in a fake server's duel whose game has just ended, and its first "gg".
    static func botAtTheEnd(_ server: FakeServer, clock: ManualTime) throws -> (BotsOnAThread, FakePeer, String?) {
        var options = BotOptions()
        options.port = server.port
        options.match = "m"
        options.name = "left"
        options.level = .instant
        options.asksForRematch = false
        let bots = try BotsOnAThread([options], clock: clock)
        let peer = try server.accept()
        peer.send(FakeLines.welcome())
        _ = peer.await("join")
        peer.send(FakeLines.joined(seat: 0))
        peer.send(FakeLines.snapshot(seq: 5))
        peer.send(gameOver)
        return (bots, peer, peer.await("chat"))
    }

    /// Waits until the bot has read every line sent so far: it answers the server's echo ping at once.
    static func awaitRead(by peer: FakePeer) {
        peer.send(#"{"echo":true,"time":2200,"type":"ping"}"#)
        #expect(peer.await("pong")?.contains(#""time":2200"#) == true)
    }

    @Test func aDroppedGgIsSaidAgainAfterTheQuiet() throws {
        let server = try FakeServer()
        let clock = ManualTime(0)
        let (bots, peer, first) = try Self.botAtTheEnd(server, clock: clock)
        defer { bots.stop() }
        #expect(first?.contains(#""text":"gg""#) == true)
        peer.send(Self.dropped)
        Self.awaitRead(by: peer)
        var again: String?
        for _ in 0..<8 where again == nil {
            clock.advance(by: 250)
            bots.runner.wake()
            again = peer.await("chat", waitMs: 100)
        }
        #expect(again == first, "the same gg, said again once the quiet second is over")
    }

    @Test func aHeardGgIsNotSaidAgain() throws {
        let server = try FakeServer()
        let clock = ManualTime(0)
        let (bots, peer, first) = try Self.botAtTheEnd(server, clock: clock)
        defer { bots.stop() }
        #expect(first?.contains(#""text":"gg""#) == true)
        // Its gg is heard; then some other line of its is dropped.
        peer.send(Self.heard)
        peer.send(Self.dropped)
        Self.awaitRead(by: peer)
        // One wake past the quiet and past the first keep-alive ping: the bot acts (a gg, were it
        // still owed) before it pings, so everything it would say comes before that ping.
        clock.advance(by: 6_000)
        bots.runner.wake()
        let lines = peer.readLines(until: "a ping") { $0.last?.contains(#""type":"ping""#) == true }
        #expect(!lines.contains { $0.contains(#""type":"chat""#) }, "\(lines)")
    }

    @Test func aGgStillOwedWhenTheNextGameBeginsIsNotSaidInIt() throws {
        let server = try FakeServer()
        let clock = ManualTime(0)
        let (bots, peer, first) = try Self.botAtTheEnd(server, clock: clock)
        defer { bots.stop() }
        #expect(first?.contains(#""text":"gg""#) == true)
        // Its gg is dropped, and before the quiet is over a rematch deals game 2.
        peer.send(Self.dropped)
        peer.send(#"{"commitment":"e11fa260ecddc3c016fd4caec2aac456844458e4aecfa45b00c6f7bb89b17a22","deck":69,"game":2,"kind":"game_started","match":"m","scores":[0,0],"seq":7,"table":[9,40,16,30,47,20,0,14,75,45,77,19],"time":3000,"type":"event"}"#)
        Self.awaitRead(by: peer)
        clock.advance(by: 6_000)
        bots.runner.wake()
        let lines = peer.readLines(until: "a ping") { $0.last?.contains(#""type":"ping""#) == true }
        #expect(!lines.contains { $0.contains(#""type":"chat""#) }, "\(lines)")
    }
}
