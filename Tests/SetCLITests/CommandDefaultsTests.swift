import SetBot
import SetCLI
import SetClient
import SetNet
import SetServer
import SetTerminal
import Testing

/// What the command line fills in when an option is left out: decided in SetCLI, from the
/// surroundings it is given, so the executable only wires.
struct CommandDefaultsTests {
    let defaults = CommandDefaults(command: "swift run setgame", stateFolder: "/home/ann/.local/state/setgame",
                                   loginName: "ann", clockSeed: 99)

    @Test func serveWithoutOptionsIsTheServersOwnConfigWithJournalsInTheStateFolder() throws {
        var expected = ServerConfig()
        expected.dataDirectory = "/home/ann/.local/state/setgame/matches"
        // A config built in code starts with lag compensation off (tests, local games); `serve` turns it on.
        expected.lagCompensationMs = ServerConfig.defaultLagCompensationMs
        #expect(try Commands.parse(["serve"], defaults: defaults) == .serve(ServeCommand(config: expected)))
        guard case .serve(let given) = try Commands.parse(["serve", "--data", "/srv/set"], defaults: defaults) else {
            Issue.record("not serve"); return
        }
        #expect(given.config.dataDirectory == "/srv/set")
    }

    @Test func aConnectionMayBurstTwiceItsRate() throws {
        guard case .serve(let standard) = try Commands.parse(["serve"], defaults: defaults),
              case .serve(let slow) = try Commands.parse(["serve", "--messages-per-second", "5"], defaults: defaults) else {
            Issue.record("not serve"); return
        }
        #expect(standard.config.limits.messagesPerSecond == 50 && standard.config.limits.messageBurst == 100)
        #expect(slow.config.limits.messagesPerSecond == 5 && slow.config.limits.messageBurst == 10)
    }

    @Test func aSeedCountsGamesFromItAndNoSeedDealsAtRandom() throws {
        guard case .serve(let seeded) = try Commands.parse(["serve", "--seed", "7"], defaults: defaults),
              case .serve(let random) = try Commands.parse(["serve"], defaults: defaults) else {
            Issue.record("not serve"); return
        }
        #expect(seeded.config.seeds == .counting(from: 7) && random.config.seeds == .random)
    }

    @Test func aBotIsNamedAfterItsLevelAndSeededByTheClock() throws {
        var expected = BotOptions()
        expected.level = .hard
        expected.name = "bot-hard"
        expected.seed = 99
        expected.takesSuggestedName = true
        #expect(try Commands.parse(["bot", "--level", "hard"], defaults: defaults) == .bot(expected),
                "the level's name is the house bot's on every server: a name nobody asked for gives way")
        expected.takesSuggestedName = false
        expected.name = "robo"
        expected.seed = 3
        #expect(try Commands.parse(["bot", "--level", "hard", "--name", "robo", "--seed", "3"], defaults: defaults) == .bot(expected))
    }

    @Test func aPlayerIsTheLoginNameAndANamedMatchSaysHowToWatchIt() throws {
        var expected = ClientOptions(host: "example.org", port: 7400, name: "ann", match: "friday")
        expected.command = "swift run setgame"
        expected.watchCommand = "swift run setgame watch example.org:7400 friday"
        #expect(try Commands.parse(["join", "example.org:7400", "--match", "friday"], defaults: defaults) == .join(expected))

        guard case .join(let pairing) = try Commands.parse(["join"], defaults: defaults),
              case .join(let watching) = try Commands.parse(["watch", "h", "friday"], defaults: defaults) else {
            Issue.record("not join"); return
        }
        #expect(pairing.watchCommand == nil, "pairing with whoever waits has no match name to give")
        #expect(watching.watchCommand == nil && watching.role == .spectator && watching.name == "ann")
    }

    @Test func theProcessDefaultsComeFromItsEnvironment() {
        let current = CommandDefaults.current()
        #expect(current.stateFolder == ProcessEnvironment.stateFolder())
        #expect(current.loginName == ClientOptions.loginName())
        #expect(current.dataDirectory == ProcessEnvironment.stateFolder() + "/matches")
    }
}
