import SetBot
import SetNet
import SetTestSupport
import Testing

/// Issue 44: an arena bot's join to its next duel, sent right after a burst of moves, may be the
/// line the server's rate limit drops (`rate_limited`, no id): after its quiet second the bot sends
/// it again, or its seat stays empty and the arena never ends (seen in `.ci/e2e/arena-bots.sh`).
@Suite(.serialized) struct ArenaBotRateLimitTests {
    static let state = #"{"arena":"a","boards":[],"endsAt":60000,"rated":true,"standings":[],"startsAt":0,"state":"running","type":"arena","variant":"classic"}"#
    static let pairing = #"{"arena":"a","match":"arena-a-1","opponent":"x","token":"0123456789abcdef0123456789abcdef","type":"arena_pairing"}"#

    @Test func aJoinDroppedByTheRateLimitIsSentAgain() throws {
        let server = try FakeServer()
        let clock = ManualTime(0)
        var options = BotOptions()
        options.port = server.port
        options.name = "robo"
        options.arena = "a"
        options.level = .instant
        let bots = try BotsOnAThread([options], clock: clock)
        defer { bots.stop() }
        let peer = try server.accept()
        peer.send(FakeLines.welcome())
        #expect(peer.await("arena_join") != nil)
        peer.send(Self.state)
        peer.send(Self.pairing)
        let first = peer.await("join")
        #expect(first?.contains("arena-a-1") == true)
        peer.send(FakeLines.error("rate_limited", "Over 50 messages a second; this one was dropped."))
        // The bot's clock moves until the join comes again (its quiet second passes).
        let again = peer.await("join", steppingClock: clock, of: bots, steps: 100)
        #expect(again == first, "the same join, sent again")
    }
}
