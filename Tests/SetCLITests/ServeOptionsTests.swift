import SetBench
import SetCLI
import SetServer
import Testing

/// `serve`'s hosting options and `bench --abuse`.
struct ServeOptionsTests {
    @Test func hostingOptionsParse() throws {
        let command = try Commands.parse(["serve", "--host", "0.0.0.0", "--data", "/var/lib/setgame", "--log-format", "json",
                                          "--keep-finished", "500", "--keep-finished-days", "7", "--connections-per-address", "32",
                                          "--matches-per-address", "8", "--max-matches", "1000", "--waiting-per-address", "6", "--placements-per-address", "40",
                                          "--arena-players-per-address", "30", "--unattended-per-address", "5",
                                          "--lobby-size", "300", "--lobby-per-address", "5", "--check"])
        guard case .serve(let options) = command else { Issue.record("not serve: \(command)"); return }
        #expect(options.logFormat == .json && options.check)
        #expect(options.config.finished.keep == 500 && options.config.finished.maxAgeDays == 7)
        #expect(options.config.perAddress.connections == 32 && options.config.perAddress.matches == 8 && options.config.maxMatches == 1_000)
        // Behind a proxy every player waiting for a friend comes from its address: the eight a
        // node allowed one address were every waiting duel of every player it had.
        #expect(options.config.perAddress.waitingMatches == 6)
        #expect(options.config.perAddress.placements == 40 && options.config.addressLimits.placements == 40)
        guard case .serve(let defaults) = try Commands.parse(["serve"]) else { Issue.record("not serve"); return }
        #expect(defaults.config.perAddress.proxies.isEmpty && defaults.config.recordLimits == RecordLimits())
        #expect(defaults.logFormat == .text && !defaults.check && defaults.config.perAddress.connections == nil)
        #expect(defaults.config.perAddress.waitingMatches == nil && defaults.config.addressLimits.waitingMatches == AddressShares.waitingDefault)
        #expect(defaults.config.addressLimits.placements == 8)
        #expect(options.config.addressLimits.arenaPlayers == 30 && defaults.config.addressLimits.arenaPlayers == 8)
        #expect(options.config.addressLimits.unattended == 5 && defaults.config.addressLimits.unattended == 16)
        #expect(options.config.perAddress.lobby == LobbySize(cap: 300, perAddress: 5) && defaults.config.perAddress.lobby == LobbySize(cap: 200, perAddress: 20))
        #expect(defaults.config.finished.keep == 10_000 && defaults.config.finished.maxAgeDays == 30)
        #expect(defaults.config.chat.mode == .on)
        for mode in ChatMode.allCases {
            guard case .serve(let chosen) = try Commands.parse(["serve", "--chat", mode.rawValue]) else { Issue.record("not serve"); return }
            #expect(chosen.config.chat.mode == mode)
        }
    }

    @Test func everyPerAddressAllowanceHasASettingAndProxiesAreNamed() throws {
        let command = try Commands.parse(["serve", "--accounts-per-address", "300", "--accounts-per-network", "600", "--renames-per-address", "90",
                                          "--proxy-from", "10.0.0.5,127.0.0.1"])
        guard case .serve(let options) = command else { Issue.record("not serve: \(command)"); return }
        #expect(options.config.recordLimits.accountsPerAddress == RecordLimits.Bucket(burst: 300, everyMs: 60_000))
        #expect(options.config.recordLimits.accountsPerNetwork == RecordLimits.Bucket(burst: 600, everyMs: 30_000))
        #expect(options.config.recordLimits.renamesPerAddress == RecordLimits.Bucket(burst: 90, everyMs: 60_000))
        #expect(options.config.perAddress.proxies == ["10.0.0.5", "127.0.0.1"])
        for bad in ["localhost", "10.0.0", "10.0.0.256", "10.0.0.5,", "+1.2.3.4", "::1"] {
            #expect(throws: UsageError("--proxy-from takes numeric IPv4 addresses separated by commas, not '\(bad.hasSuffix(",") ? "" : bad)'",
                                       command: "serve"), "\(bad)") {
                try Commands.parse(["serve", "--proxy-from", bad])
            }
        }
    }

    @Test func badHostingValuesAreUsageErrors() {
        #expect(throws: UsageError("--log-format takes text or json, not 'xml'", command: "serve")) {
            try Commands.parse(["serve", "--log-format", "xml"])
        }
        #expect(throws: UsageError("--chat takes on, players or off, not 'maybe'", command: "serve")) {
            try Commands.parse(["serve", "--chat", "maybe"])
        }
        #expect(throws: UsageError("--keep-finished-days takes a whole number from 0 to 36500, not '-1'", command: "serve")) {
            try Commands.parse(["serve", "--keep-finished-days", "-1"])
        }
    }

    /// `--arena-schedule` is repeatable: each value one schedule, in order; a bad one is a usage error in words.
    @Test func arenaSchedulesAreRepeatable() throws {
        let command = try Commands.parse(["serve", "--arena-schedule", "hourly=60:10:classic", "--arena-schedule=kids=30:5:junior"])
        guard case .serve(let options) = command else { Issue.record("not serve: \(command)"); return }
        #expect(options.config.arenaSchedules == [ArenaSchedule(prefix: "hourly", everyMinutes: 60, minutes: 10, variant: .classic),
                                                  ArenaSchedule(prefix: "kids", everyMinutes: 30, minutes: 5, variant: .junior)])
        guard case .serve(let defaults) = try Commands.parse(["serve"]) else { Issue.record("not serve"); return }
        #expect(defaults.config.arenaSchedules.isEmpty)
        #expect(throws: UsageError("--arena-schedule takes PREFIX=EVERY:MINUTES:MODE (e.g. hourly=60:10:classic), not 'hourly'", command: "serve")) {
            try Commands.parse(["serve", "--arena-schedule", "hourly"])
        }
        #expect(throws: UsageError("--arena-schedule's arenas last 1-180 minutes and no longer than the period (30), not 40", command: "serve")) {
            try Commands.parse(["serve", "--arena-schedule", "h=30:40:classic"])
        }
    }

    @Test func benchTakesAnAbuse() throws {
        #expect(try Commands.parse(["bench", "--abuse", "lobby"]) == .bench({ var o = BenchOptions(); o.abuse = .lobby; return o }()))
        #expect(throws: UsageError("--abuse takes one of list, lobby, spectators, fds, chat, not 'ddos'", command: "bench")) {
            try Commands.parse(["bench", "--abuse", "ddos"])
        }
    }
}
