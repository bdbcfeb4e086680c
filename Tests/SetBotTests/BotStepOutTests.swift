import SetBot
import SetNet
import SetTestSupport
import Testing

/// A bot beside its player (the door's, `play`'s) leaves its seat while the player reads the help.
/// A seat that leaves passes its window, and a claim passed costs 10 points and hands the other
/// seat a second chance; the player's screen cannot see a claim still on its way or held by the
/// server for lag compensation. So the bot leaves only between turns of its own.
@Suite(.serialized) struct BotStepOutTests {
    static let claim = #"{"deadline":6000,"durationMs":5000,"holder":0,"kind":"claim","opened":1000}"#
    static let opened = #"{"kind":"window_opened","match":"m","seq":6,"time":1000,"type":"event","window":\#(claim)}"#
    static let closed = #"{"end":"decided","kind":"window_closed","match":"m","seq":7,"time":1100,"type":"event","window":\#(claim)}"#

    /// A bot of `level` seated in seat 0 of a fake server's duel, its table just shown.
    struct SeatedBot {
        let server: FakeServer
        let clock = ManualTime(0)
        let bots: BotsOnAThread
        let peer: FakePeer

        init(level: BotLevel) throws {
            server = try FakeServer()
            var options = BotOptions()
            options.match = "m"
            options.name = "ann"
            options.level = level
            (bots, peer) = try server.seat(options, clock: clock)
        }

        /// Whether the bot is still there after its loop has looked at everything sent so far.
        /// A server's plain ping is answered by a ping of the client's own, once none of its is
        /// on its way: two rounds, each pong given, mean a whole turn of its loop (and its check
        /// whether to leave) came between. The clock stands still: nothing else is due meanwhile.
        func stillSeated() -> Bool {
            for time in [2_001, 2_002] {
                guard peer.send(#"{"time":\#(time),"type":"ping"}"#), let ping = peer.await("ping", waitMs: 5_000),
                      let sent = ping.firstMatch(of: /"time":(-?[0-9]+)/)?.1 else { return false }
                peer.send(#"{"clientTime":\#(sent),"time":\#(time),"type":"pong"}"#)
            }
            return true
        }
    }

    @Test func aBotAskedToStepOutFinishesTheClaimItSentFirst() throws {
        let bot = try SeatedBot(level: .instant)
        defer { bot.bots.stop() }
        #expect(bot.peer.await("claim") != nil, "an instant bot claims the set it sees")
        bot.bots.runner.control.stepOut()
        #expect(bot.stillSeated(), "its claim is unanswered (on its way, or held): leaving would pass it")
        bot.peer.send(Self.opened)
        #expect(bot.stillSeated(), "the window is its own until its trio is judged")
        bot.peer.send(Self.closed)
        #expect(bot.peer.closedByClient(), "its turn over, it leaves")
        #expect(!bot.bots.runner.control.stayIn(), "gone is gone: a new bot takes the seat back")
        #expect(bot.bots.finished(), "and its run ends by itself")
    }

    /// Told to stay while still picking the cards of its claim, a bot goes on picking: a fresh
    /// look at a window of its own it "no longer remembers" would pass it, 10 points.
    @Test func aBotToldToStayWhileFinishingItsClaimFinishesIt() throws {
        let bot = try SeatedBot(level: .hard)
        defer { bot.bots.stop() }
        #expect(bot.peer.await("claim", steppingClock: bot.clock, of: bot.bots, steps: 100) != nil)
        bot.peer.send(Self.opened)  // its three picks are due 250 ms apart from its claim
        bot.bots.runner.control.stepOut()
        #expect(bot.stillSeated())
        #expect(bot.bots.runner.control.stayIn())
        var lines: [String] = []
        for _ in 0..<6 {
            bot.clock.advance(by: 250)
            bot.bots.runner.wake()
            while let line = bot.peer.readLine(waitMs: 100) { lines.append(line) }
        }
        #expect(lines.filter { $0.contains(#""type":"select""#) }.count == 3, "\(lines)")
        #expect(!lines.contains { $0.contains(#""type":"pass""#) }, "\(lines)")
    }

    @Test func aBotWithNothingInFlightStepsOutAtOnce() throws {
        let bot = try SeatedBot(level: .hard)
        defer { bot.bots.stop() }
        #expect(bot.stillSeated())
        bot.bots.runner.control.stepOut()
        #expect(bot.peer.closedByClient(), "a hard bot still looking at the table has nothing to finish")
        #expect(bot.bots.finished())
    }

    @Test func aBotToldToStayBeforeItLeftPlaysOn() throws {
        let bot = try SeatedBot(level: .instant)
        defer { bot.bots.stop() }
        #expect(bot.peer.await("claim") != nil)
        bot.peer.send(Self.opened)
        bot.bots.runner.control.stepOut()
        #expect(bot.stillSeated())
        #expect(bot.bots.runner.control.stayIn(), "the help closed before its turn was over")
        bot.peer.send(Self.closed)
        // The fake took no cards away: the set it saw is still there, and once it looks again
        // (a moment after its last move) it claims it again.
        #expect(bot.peer.await("claim", steppingClock: bot.clock, of: bot.bots, steps: 8) != nil, "its turn over, it plays on")
        #expect(bot.stillSeated())
    }
}
