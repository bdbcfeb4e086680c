import Foundation
import SetClient
import SetNet
import SetTestSupport
import SetWire
import Testing

/// Issue 42, item 8: a bot redirected to a node that refuses connections (killed with -9 while its
/// lease still runs, or advertising an address it does not own) is never parked in `epoll_wait`:
/// it counts down on its clock, goes back to the server it was given, and either is seated there
/// or, after a bounded number of tries, stops with the reason.
@Suite(.serialized) struct DeadNodeBotTests {
    typealias RunningBot = HostileServerBotTests.RunningBot

    /// Moves the bot's clock on a second at a time until it connects to `server` again.
    func awaitReturn(of bot: RunningBot, to server: FakeServer) throws -> FakePeer {
        for _ in 0..<64 {
            if let peer = try? server.accept(waitMs: 50) { return peer }
            bot.advance(by: 1_000)
        }
        return try server.accept(waitMs: 0)
    }

    @Test func aBotSentToARefusingNodeComesBackToItsServerAndIsSeated() throws {
        let server = try FakeServer()
        let bot = try RunningBot(port: server.port)
        let peer = try server.accept()
        peer.send(FakeLines.welcome())
        #expect(peer.await("join") != nil)
        peer.send(FakeLines.redirect(match: "m", to: 1))
        #expect(peer.closedByClient(), "it followed the redirect")
        let back = try awaitReturn(of: bot, to: server)
        back.send(FakeLines.welcome())
        let join = try #require(back.await("join"))
        #expect(join.contains(#""match":"m""#), "the same join, naming the match it was sent for")
        back.send(FakeLines.joined())
        back.send(FakeLines.snapshot())
        #expect(polled({ bot.joined }, until: { $0 == ["m"] }) == ["m"])
        bot.stop()
        #expect(bot.runner.failures.isEmpty, "seated, not failed")
    }

    @Test func aBotSentToARefusingNodeAgainAndAgainStopsWithTheReason() throws {
        let server = try FakeServer()
        let bot = try RunningBot(port: server.port)
        var peer = try server.accept()
        for _ in 0...ClientSession.maxUnreachableRetries {
            peer.send(FakeLines.welcome())
            #expect(peer.await("join") != nil)
            peer.send(FakeLines.redirect(match: "m", to: 1))
            #expect(peer.closedByClient())
            guard let back = try? awaitReturn(of: bot, to: server) else { break }
            peer = back
        }
        guard bot.finished() else {
            Issue.record("the run did not end: a bot was left waiting")
            return bot.stop()
        }
        let failures = bot.runner.failures
        #expect(failures.count == 1 && failures[0].hasPrefix("robo: the server holding the match (127.0.0.1:1) did not answer after 6 tries"),
                "\(failures)")
    }
}
