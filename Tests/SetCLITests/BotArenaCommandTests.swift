import SetBot
import SetCLI
import Testing

/// `setgame bot HOST --arena NAME [--count N]` (issue 44): parsed into bot options with the arena,
/// and how many such bots; what the arena decides is not the bot's to choose.
struct BotArenaCommandTests {
    @Test func aBotJoinsAnArenaByName() throws {
        var expected = BotOptions()
        expected.host = "example.org"
        expected.level = .hard
        expected.name = "bot-hard"
        expected.seed = CommandDefaults.test.clockSeed
        expected.arena = "friday"
        #expect(try Commands.parse(["bot", "example.org:7380", "--arena", "friday", "--level", "hard"], defaults: .test) == .bot(expected, count: 1),
                "an arena refuses a taken name: the bot takes no suggestion there")
        expected.name = "h"
        #expect(try Commands.parse(["bot", "example.org", "--arena", "friday", "--level", "hard", "--name", "h", "--count", "12"],
                                   defaults: .test) == .bot(expected, count: 12))
        #expect(expected.team(of: 3).map(\.name) == ["h-1", "h-2", "h-3"])
        #expect(expected.team(of: 1).map(\.name) == ["h"])
    }

    @Test func whatTheArenaDecidesIsAUsageError() {
        for wrong in [["bot", "--count", "2"], ["bot", "--arena", "friday", "--count", "0"], ["bot", "--arena", "a.b"],
                      ["bot", "--arena", "friday", "--match", "m"], ["bot", "--arena", "friday", "--mode", "junior"],
                      ["bot", "--arena", "friday", "--casual"], ["bot", "--arena", "friday", "--count", "1001"]] {
            #expect(throws: UsageError.self, "\(wrong)") { try Commands.parse(wrong, defaults: .test) }
        }
    }
}
