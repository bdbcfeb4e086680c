import Foundation
import SetBot
import SetNet
import SetRules
import SetWire
import SetTestSupport
import Testing

/// The bot against a scripted hostile server: a refused join ends it with the server's words made
/// printable, impossible values never reach its brain, and neither a flood of out-of-order events
/// nor a server that stops answering makes it queue or wait without end.
@Suite(.serialized) struct HostileServerBotTests {
    /// The bot "robo" on a thread of its own (`BotsOnAThread`), playing against the fake server
    /// with a manual clock.
    final class RunningBot: @unchecked Sendable {
        let clock = ManualTime(0)
        private(set) var joined: [String] = []
        /// Where each of those joins was confirmed ("host:port").
        private(set) var places: [String] = []
        private var bots: BotsOnAThread?

        /// With `beacon`, a second bot on the same loop connects after the first: see `Beacon`.
        init(port: UInt16, beacon: Bool = false) throws {
            var options = BotOptions()
            options.port = port
            options.name = "robo"
            options.level = .instant
            var all = [options]
            if beacon {
                options.name = "beacon"
                all.append(options)
            }
            bots = try BotsOnAThread(all, clock: clock) { runner in
                runner.onBotJoined = { [unowned self] joined in
                    guard joined.name == "robo" else { return }
                    self.joined.append(joined.match)
                    self.places.append(joined.place)
                }
            }
        }

        var runner: BotRunner { bots!.runner }

        /// Whether `run()` returned within `waitMs`.
        func finished(waitMs: Int = Int(hangMs)) -> Bool { bots!.finished(waitMs: waitMs) }

        func advance(by milliseconds: Int64) {
            clock.advance(by: milliseconds)
            runner.wake()
        }

        func stop() { bots!.stop() }
    }

    @Test func aRefusedJoinEndsTheBotWithTheServersWordsMadePrintable() throws {
        let server = try FakeServer()
        let bot = try RunningBot(port: server.port)
        let peer = try server.accept()
        peer.send(FakeLines.welcome())
        #expect(peer.await("join") != nil)
        peer.send(FakeLines.error("bad_field", #"\"name\" must be 1-24 printable characters\u001b[2J\u0007"#))
        #expect(bot.finished(), "the bot did not hang")
        #expect(bot.joined.isEmpty, "it never said it joined")
        #expect(bot.runner.failures == [#"robo: the server refused to seat it: "name" must be 1-24 printable characters[2J (bad_field)"#])
    }

    @Test func aFatalErrorAfterJoiningEndsTheBot() throws {
        let server = try FakeServer()
        let bot = try RunningBot(port: server.port)
        let peer = try server.accept()
        peer.send(FakeLines.welcome())
        _ = peer.await("join")
        peer.send(FakeLines.joined())
        peer.send(FakeLines.snapshot())
        peer.send(FakeLines.error("claim_taken", "a race, not the end"))
        peer.send(FakeLines.error("slow_consumer", "You are not reading fast enough; disconnected.", fatal: true))
        #expect(bot.finished())
        #expect(bot.joined == ["m"])
        #expect(bot.runner.failures == ["robo: the server ended the connection: You are not reading fast enough; disconnected. (slow_consumer)"])
    }

    @Test func impossibleWindowsAndTablesNeverReachTheBrain() throws {
        let server = try FakeServer()
        let bot = try RunningBot(port: server.port)
        defer { bot.stop() }
        let peer = try server.accept()
        peer.send(FakeLines.welcome())
        _ = peer.await("join")
        peer.send(FakeLines.joined())
        peer.send(FakeLines.snapshot(window: FakeLines.window(opened: "0", deadline: "-9223372036854775808")))
        peer.send(FakeLines.snapshot(table: FakeLines.table(count: 3_000), deck: 0))
        peer.send(FakeLines.snapshot(table: "[1,1,1,2,2,2,3,3,3]", deck: 0))
        // An honest snapshot with no set on the table: the bot asks to deal, so it is alive and sane.
        peer.send(FakeLines.snapshot(seq: 5, table: "[0,1,3,4]", deck: 60))
        let deal = peer.await("deal")
        #expect(deal != nil)
        bot.stop()
        #expect(bot.runner.failures.isEmpty)
    }

    @Test func outOfOrderEventsAskForOneSnapshotNotOneEach() throws {
        let server = try FakeServer()
        let bot = try RunningBot(port: server.port)
        defer { bot.stop() }
        let peer = try server.accept(receiveBufferBytes: 2_048)
        peer.send(FakeLines.welcome())
        _ = peer.await("join")
        peer.send(FakeLines.joined())
        peer.send(FakeLines.snapshot(seq: 5, table: "[0,1,3,4]", deck: 60))
        _ = peer.await("deal")
        for seq in 10..<20_010 { peer.send(FakeLines.spectators(1, seq: seq)) }
        // The answer to its request, then one more gap: the bot asks again only once it has read
        // the whole flood, so the flood's requests are all in before this second one.
        peer.send(FakeLines.snapshot(seq: 20_009, table: "[0,1,3,4]", deck: 60))
        peer.send(FakeLines.spectators(1, seq: 20_011))
        let isSnapshot = { (line: String) in line.contains("\"type\":\"snapshot\"") }
        var lines = peer.readLines(until: "a snapshot request after the answer") { $0.filter(isSnapshot).count >= 2 }
        bot.stop()
        lines += try #require(peer.readToEndOfStream(), "the stopped bot closed its connection")
        #expect(lines.filter(isSnapshot).count == 2, "one for the flood, one for the gap after its answer; \(lines.count) lines")
        #expect(bot.runner.failures.isEmpty)
    }

    @Test func aServerThatStopsAnsweringPingsIsGivenUp() throws {
        let server = try FakeServer()
        let bot = try RunningBot(port: server.port, beacon: true)
        let peer = try server.accept()
        let beacon = try Beacon(server.accept())
        peer.send(FakeLines.welcome())
        _ = peer.await("join")
        peer.send(FakeLines.joined())
        for _ in 0..<8 {
            bot.advance(by: 5_000)
            beacon.settle()  // the bot's loop has acted at this time: every step is seen, none merged
        }
        let lines = try #require(peer.readToEndOfStream(), "the bot never gave up")
        let pings = lines.filter { $0.contains("\"type\":\"ping\"") }.count
        #expect(pings == 1, "one unanswered ping, not one every five seconds")
        beacon.peer.close()
        #expect(bot.finished())
        #expect(bot.runner.failures == ["robo: the server did not answer for 30 s"])
    }

    @Test func aBrainShownAnImpossibleDeadlineDoesNotTrap() {
        var brain = BotBrain(level: .normal, seat: .first, seed: 1)
        var view = MatchView(match: "m", seq: 1, time: 0, mode: .duel, phase: .playing, game: 1, players: [], spectators: 0,
                             table: [Card.all[0], Card.all[1], Card.all[3]], deck: 60, selection: [], selectionSeat: nil,
                             window: Window(kind: .secondChance, holder: .first, opened: Instant(milliseconds: .min),
                                            deadline: Instant(milliseconds: .min)),
                             shown: nil, tableChangedAt: 0, rules: .standard, commitment: nil, result: nil, seed: nil,
                             rematchAsked: [], setsOnTable: nil)
        brain.observe(view, at: Instant(milliseconds: 1_000))
        #expect(brain.due(at: Instant(milliseconds: 1_000), view: view) == [.deal])
        view.window?.deadline = Instant(milliseconds: .max)
        view.table = Array(Card.all.prefix(12))
        brain.observe(view, at: Instant(milliseconds: .max - 1))
        _ = brain.due(at: Instant(milliseconds: .max), view: view)
    }
}
