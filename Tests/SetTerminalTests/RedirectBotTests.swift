import SetBot
import SetNet
import SetTestSupport
import Testing

/// The bot across nodes: a redirect is followed with the same join on a new connection, the old
/// one closed without ending the bot, and a loop ends it with its reason.
@Suite(.serialized) struct RedirectBotTests {
    @Test func aBotFollowsARedirectAndIsSeatedOnTheNodeNamed() throws {
        let a = try FakeServer(), b = try FakeServer()
        let bot = try HostileServerBotTests.RunningBot(port: a.port)
        let peer = try a.accept()
        let join = try #require(peer.await("join"))
        peer.send(FakeLines.welcome())
        peer.send(FakeLines.redirect(to: b.port))
        let moved = try b.accept()
        #expect(peer.closedByClient(), "the bot closed its first connection")
        #expect(join == #"{"bot":true,"mode":"duel","name":"robo","protocol":1,"role":"player","type":"join"}"#)
        #expect(moved.await("join") == #"{"bot":true,"match":"m","mode":"duel","name":"robo","protocol":1,"role":"player","type":"join"}"#,
                "the same join on the node named, for the match the redirect named (a quick pairing's)")
        moved.send(FakeLines.welcome())
        moved.send(FakeLines.joined())
        moved.send(FakeLines.snapshot())
        moved.close()
        #expect(bot.finished(), "the bot's connection ended")
        #expect(bot.joined == ["m"], "seated on the second node")
        #expect(bot.places == ["127.0.0.1:\(b.port)"], "and said to be there, not on the first (`setgame bot` prints it)")
        #expect(bot.runner.failures.isEmpty)
    }

    @Test func aRedirectLoopEndsTheBotWithItsReason() throws {
        let a = try FakeServer(), b = try FakeServer()
        let bot = try HostileServerBotTests.RunningBot(port: a.port)
        var peer = try a.accept()
        for hop in 0...3 {
            _ = peer.await("join")
            peer.send(FakeLines.redirect(to: hop % 2 == 0 ? b.port : a.port))
            if hop == 3 { break }
            peer = try (hop % 2 == 0 ? b : a).accept()
        }
        #expect(bot.finished())
        #expect(bot.runner.failures == ["robo: the servers sent this client on 4 times without seating it (last to 127.0.0.1:\(a.port)): a redirect loop"])
    }
}
