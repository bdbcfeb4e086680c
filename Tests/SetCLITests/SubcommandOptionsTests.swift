import SetBench
import SetCLI
import SetLocal
import SetNet
import SetReplay
import SetRules
import SetWire
import Testing

/// Every subcommand's options as the executable receives them: each lands in its own field, the
/// defaults hold when an option is absent, and a bad value is a usage error naming the command.
struct SubcommandOptionsTests {
    /// The dispatch is by subcommand, not by name with a fallback: each one parses to its own command.
    @Test func everySubcommandParsesToItsOwnCommand() throws {
        for subcommand in Subcommand.allCases {
            let arguments = switch subcommand {
            case .replay: ["replay", "m.jsonl"]
            case .profile: ["profile", "127.0.0.1", "ann"]
            case .nodes: ["nodes", "--store", "postgresql://setgame@127.0.0.1:5432/setgame"]
            default: [subcommand.rawValue]
            }
            let command = try Commands.parse(arguments)
            let matches = switch (subcommand, command) {
            case (.play, .play), (.serve, .serve), (.bot, .bot), (.replay, .replay), (.bench, .bench),
                 (.rules, .rules), (.cards, .cards), (.door, .door), (.nodes, .nodes), (.arena, .arena): true
            case (.join, .join(let options)): options.role == .player
            case (.watch, .join(let options)): options.role == .spectator
            case (.profile, .account(let asked)): asked.query.type == .profile
            case (.history, .account(let asked)): asked.query.type == .history
            case (.leaderboard, .account(let asked)): asked.query.type == .leaderboard
            default: false
            }
            #expect(matches, "\(subcommand) parsed as \(command)")
            #expect(try Commands.parse(arguments + ["--help"]) == .help(subcommand.spec))
        }
        #expect(Commands.all.map(\.name) == Subcommand.allCases.map(\.rawValue))
    }

    @Test func joinTakesAnAddressANameAMatchAndHowToShowIt() throws {
        guard case .join(let options) = try Commands.parse(["join", "example.org:7400", "--name", "ann", "--match", "friday",
                                                            "--mode", "ultra", "--colorblind", "--no-animation"]) else {
            Issue.record("not join"); return
        }
        #expect(ServerAddress(host: options.host, port: options.port) == ServerAddress(host: "example.org", port: 7400))
        #expect(options.name == "ann" && options.match == "friday" && options.variant == .ultra)
        #expect(options.colorblind && !options.animation && options.role == .player && options.mode == .duel)

        guard case .join(let defaults) = try Commands.parse(["join"]) else { Issue.record("not join"); return }
        #expect(ServerAddress(host: defaults.host, port: defaults.port) == ServerAddress())
        #expect(defaults.name == CommandDefaults.test.loginName && defaults.match == nil && defaults.variant == nil)
        #expect(!defaults.colorblind && defaults.animation)
        guard case .join(let solo) = try Commands.parse(["join", ":7401", "--solo"]) else { Issue.record("not join"); return }
        #expect(solo.mode == .solo && ServerAddress(host: solo.host, port: solo.port) == ServerAddress(host: "127.0.0.1", port: 7401))
    }

    @Test func watchTakesTheMatchAsItsSecondArgument() throws {
        guard case .join(let options) = try Commands.parse(["watch", "10.0.0.2", "friday"]) else { Issue.record("not watch"); return }
        #expect(options.role == .spectator && options.match == "friday"
                && ServerAddress(host: options.host, port: options.port) == ServerAddress(host: "10.0.0.2", port: 7380))
        guard case .join(let listing) = try Commands.parse(["watch"]) else { Issue.record("not watch"); return }
        #expect(listing.role == .spectator && listing.match == nil)
        // The name a spectator chats under (issue 27).
        guard case .join(let named) = try Commands.parse(["watch", "--name", "eve", "10.0.0.2", "friday"]) else { Issue.record("not watch"); return }
        #expect(named.name == "eve" && named.match == "friday")
    }

    @Test func botTakesALevelANameASeedAndAMatch() throws {
        guard case .bot(let options, _) = try Commands.parse(["bot", "host:9", "--match", "m", "--level", "hard", "--name", "robo",
                                                           "--seed", "18446744073709551615", "--mode", "chain"]) else {
            Issue.record("not bot"); return
        }
        #expect(ServerAddress(host: options.host, port: options.port) == ServerAddress(host: "host", port: 9))
        #expect(options.match == "m" && options.level == .hard)
        #expect(options.name == "robo" && options.seed == .max && options.variant == .chain)
        guard case .bot(let defaults, _) = try Commands.parse(["bot"]) else { Issue.record("not bot"); return }
        #expect(defaults.level == .normal && defaults.name == "bot-normal" && defaults.seed == CommandDefaults.test.clockSeed)
        #expect(defaults.variant == nil)
    }

    @Test func playTakesALevelASeedAServerAndTheRules() throws {
        guard case .play(let options) = try Commands.parse(["play", "--level", "normal", "--seed", "42", "--name", "newcomer",
                                                            "--claim-window-ms", "3000"]) else {
            Issue.record("not play"); return
        }
        #expect(options.level == .normal && options.seed == 42 && options.name == "newcomer")
        #expect(options.rules.claimWindowMs == 3_000 && !options.solo && !options.fresh && options.against == nil)
        guard case .play(let remote) = try Commands.parse(["play", "--against", "127.0.0.1:7390", "--name", "newcomer", "--casual"]) else {
            Issue.record("not play"); return
        }
        #expect(remote.against == ServerAddress(host: "127.0.0.1", port: 7390) && remote.casual && remote.name == "newcomer")
        guard case .play(let solo) = try Commands.parse(["play", "--solo", "--mode", "junior", "--new"]) else {
            Issue.record("not play"); return
        }
        #expect(solo.solo && solo.variant == .junior && solo.fresh && solo.against == nil)
    }

    @Test func dailyIsSoloUnlessALevelIsNamed() throws {
        guard case .play(let daily) = try Commands.parse(["play", "--daily", "--mode", "ultra"]) else { Issue.record("not play"); return }
        #expect(daily.daily && daily.solo && daily.variant == .ultra && daily.seed == nil)
        guard case .play(let race) = try Commands.parse(["play", "--daily", "--level", "hard"]) else { Issue.record("not play"); return }
        #expect(race.daily && !race.solo && race.level == .hard)
        guard case .play(let plain) = try Commands.parse(["play"]) else { Issue.record("not play"); return }
        #expect(!plain.daily && !plain.solo)
    }

    @Test func replayTakesAFileAndASpeed() throws {
        #expect(try Commands.parse(["replay", "m.jsonl"]) == .replay(ReplayOptions(file: "m.jsonl", speed: 0)))
        #expect(try Commands.parse(["replay", "m.jsonl", "--speed", "2.5"]) == .replay(ReplayOptions(file: "m.jsonl", speed: 2.5)))
        #expect(try Commands.parse(["replay", "m.jsonl", "--cast", "m.cast"]) == .replay(ReplayOptions(file: "m.jsonl", cast: "m.cast")))
    }

    @Test func benchTakesItsLoadAndRulesTimesTheRules() throws {
        guard case .bench(let options) = try Commands.parse(["bench", "--matches", "50", "--spectators", "0", "--pace", "0",
                                                             "--duration", "2.5", "--json", "--server", "127.0.0.1:7390"]) else {
            Issue.record("not bench"); return
        }
        #expect(options.matches == 50 && options.spectators == 0 && options.paceMs == 0 && options.durationSeconds == 2.5)
        #expect(options.json && options.servers == [ServerAddress(host: "127.0.0.1", port: 7390)])
        #expect(try Commands.parse(["bench", "rules"]) == .benchRules)
    }

    @Test func benchLoadsEachServerOfAList() throws {
        guard case .bench(let options) = try Commands.parse(["bench", "--server", "127.0.0.1:7390,127.0.0.2:7391"]) else {
            Issue.record("not bench"); return
        }
        #expect(options.servers == [ServerAddress(host: "127.0.0.1", port: 7390), ServerAddress(host: "127.0.0.2", port: 7391)])
        #expect(throws: UsageError("'' is not HOST[:PORT]", command: "bench")) { try Commands.parse(["bench", "--server", "127.0.0.1:7390,"]) }
    }

    /// `--relay` runs the reference relay after the server's run; without it there is none.
    @Test func benchRunsTheReferenceRelayOnlyWhenAsked() throws {
        guard case .bench(let relayed) = try Commands.parse(["bench", "--pace", "0", "--relay"]),
              case .bench(let plain) = try Commands.parse(["bench", "--pace", "0"]) else {
            Issue.record("not bench"); return
        }
        #expect(relayed.relay && relayed.paceMs == 0)
        #expect(!plain.relay)
    }

    /// `--feign-lag-ms` adds one race: a near cheat answering pings late against an honest near
    /// racer, compensation on; without it the four link settings are raced alone.
    @Test func benchFairnessRacesACheatFeigningLagOnlyWhenAsked() throws {
        guard case .bench(let plain) = try Commands.parse(["bench", "--fairness"]),
              case .bench(let feigned) = try Commands.parse(["bench", "--fairness", "--feign-lag-ms", "300"]) else {
            Issue.record("not bench"); return
        }
        #expect(plain.fairness?.scenarios.count == 4)
        #expect(feigned.fairness?.scenarios.dropFirst(4).map(\.feignMs) == [300])
        #expect(feigned.fairness?.scenarios.last == FairnessBench.Scenario(delayMs: 0, jitterMs: 0, capMs: 200, feignMs: 300))
    }

    @Test func serveTakesWhereToListenTheDataFolderASeedAndItsLimits() throws {
        guard case .serve(let options) = try Commands.parse(["serve", "--port", "0", "--seed", "7", "--seat-wait-ms", "1000",
                                                             "--max-connections", "64", "--messages-per-second", "5"]) else {
            Issue.record("not serve"); return
        }
        #expect(options.config.port == 0 && options.config.seeds == .counting(from: 7) && options.config.limits.seatWaitMs == 1_000)
        #expect(options.config.limits.maxConnections == 64 && options.config.limits.messagesPerSecond == 5)
        #expect(options.config.dataDirectory == CommandDefaults.test.dataDirectory)
    }

    @Test(arguments: [
        (["join", "host:0"], UsageError("'0' in 'host:0' is not a port number 1-65535", command: "join")),
        (["join", "a:b:c"], UsageError("'a:b:c' is not HOST[:PORT]", command: "join")),
        (["bot", "--level", "godlike"], UsageError("--level must be one of easy, normal, hard, instant, not 'godlike'", command: "bot")),
        // A name the server would refuse is refused before connecting, in the option's words.
        (["join", "h:1", "--name", String(repeating: "a", count: 37)], UsageError("--name must be 1-24 printable characters", command: "join")),
        (["watch", "h:1", "--name", "ann\u{200B}"],
         UsageError("--name must be printable characters only, with no control, format or unassigned character (such as a zero-width space)", command: "watch")),
        (["play", "--solo", "--against", "h:1"],
         UsageError("--solo and --against do not go together: join a solo match with 'setgame join --solo'", command: "play")),
        (["play", "--against", "h:1", "--level", "hard"],
         UsageError("--level is for a local game: --against plays whoever waits on that server, under its rules; "
                    + "'setgame bot HOST --match NAME --level LEVEL' sends a bot there", command: "play")),
        (["play", "--against", "h:1", "--claim-window-ms", "3000"],
         UsageError("--claim-window-ms is for a local game: --against plays whoever waits on that server, under its rules", command: "play")),
        (["play", "--new", "--against", "h:1"],
         UsageError("--new is for a local game: --against plays whoever waits on that server, under its rules", command: "play")),
        (["play", "--daily", "--seed", "4"],
         UsageError("--daily deals today's seed on a local server: leave out --seed", command: "play")),
        (["play", "--daily", "--level", "hard", "--against", "h:1"],
         UsageError("--daily deals today's seed on a local server: leave out --against", command: "play")),
        (["replay"], UsageError("replay needs a journal FILE", command: "replay")),
        (["replay", "m.jsonl", "--speed", "-1"], UsageError("--speed takes a number of times real time, not '-1'", command: "replay")),
        (["bench", "nonsense"], UsageError("unexpected argument 'nonsense'; did you mean 'bench rules'?", command: "bench")),
        (["bench", "--duration", "0"], UsageError("--duration takes seconds from 0 to 3600, not '0'", command: "bench")),
    ] as [([String], UsageError)])
    func badValuesAreUsageErrorsNamingTheCommand(arguments: [String], error: UsageError) {
        #expect(throws: error) { try Commands.parse(arguments) }
    }
}

/// The command `play` prints to resume a game opens that very game: the same kept folder, so the
/// same journal and seat token (`play --name bob` once printed one without the name).
@Suite struct PlayResumeCommandTests {
    @Test(arguments: [["play"], ["play", "--name", "bob"], ["play", "--solo", "--mode", "junior", "--name", "bob"],
                      ["play", "--mode", "chain", "--name", "o'brien x", "--level", "hard", "--seed", "4", "--new"],
                      ["play", "--daily", "--mode", "junior"], ["play", "--daily", "--level", "normal", "--name", "bob"]])
    func theResumeCommandOpensTheSameGame(_ arguments: [String]) throws {
        guard case .play(let options) = try Commands.parse(arguments) else { Issue.record("not play"); return }
        let printed = options.againCommand("setgame")
        let words = try #require(ShellWords.split(printed))
        #expect(words.first == "setgame")
        guard case .play(let again) = try Commands.parse(Array(words.dropFirst())) else { Issue.record("not play: \(printed)"); return }
        let login = "login-name"
        func kept(_ options: PlayOptions) -> String {
            KeptGame(stateDirectory: "/state", mode: options.solo ? .solo : .duel, variant: options.variant,
                     daily: options.daily ? DailyDeal(year: 2026, month: 11, day: 25) : nil,
                     player: options.name ?? login).dataDirectory
        }
        #expect(kept(again) == kept(options), "'\(printed)' opens another game")
        #expect(again.daily == options.daily, "'\(printed)' opens the daily game and only it")
        #expect(!again.fresh, "resuming must not start afresh")
    }

    @Test func aNameIsQuotedForTheShell() {
        var options = PlayOptions()
        options.name = "o'brien x"
        options.solo = true
        #expect(options.againCommand("setgame") == #"setgame play --solo --name 'o'\''brien x'"#)
        options.name = "bob"
        #expect(options.againCommand("swift run setgame") == "swift run setgame play --solo --name bob")
    }
}

/// Splits a command line as a POSIX shell does for plain words, single quotes and backslashes
/// (all that `againCommand` prints); nil for an unfinished quote.
enum ShellWords {
    static func split(_ line: String) -> [String]? {
        var words: [String] = [], word = "", inWord = false, quoted = false, escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if quoted {
                if character == "'" { quoted = false } else { word.append(character) }
            } else if character == "'" {
                quoted = true
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if quoted || escaped { return nil }
        if inWord { words.append(word) }
        return words
    }
}
