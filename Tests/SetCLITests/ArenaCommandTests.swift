import SetCLI
import SetClient
import SetTestSupport
import SetWire
import Testing

/// `setgame arena` (issue 44): parsed into its request, answered by a real server over
/// loopback, printed within 80 columns.
@Suite(.serialized) struct ArenaCommandTests {
    @Test func eachFormParsesIntoItsRequest() throws {
        #expect(try Commands.parse(["arena", "example.org:7400"], defaults: .test) == .arena(ArenaCommand(host: "example.org", port: 7400, action: .list)))
        #expect(try Commands.parse(["arena", "example.org", "friday", "--results", "--json"], defaults: .test)
            == .arena(ArenaCommand(host: "example.org", port: 7380, action: .results(arena: "friday"), json: true)))
        #expect(try Commands.parse(["arena", "--create", "fri", "--minutes", "10", "--mode", "junior", "--casual", "--starts-in", "60"], defaults: .test)
            == .arena(ArenaCommand(host: "127.0.0.1", port: 7380,
                                   action: .create(ArenaCreation(arena: "fri", minutes: 10, variant: .junior, rated: false, startsInS: 60)))))
        // A person joins by NAME, with the client options `join` has.
        var person = ClientOptions(host: "example.org", port: 7380, name: "ann", colorblind: true, animation: false)
        person.command = "setgame"
        #expect(try Commands.parse(["arena", "example.org", "friday", "--name", "ann", "--colorblind", "--no-animation"], defaults: .test)
            == .arenaJoin(person, arena: "friday"))
        guard case .arenaJoin(let login, "friday") = try Commands.parse(["arena", "h", "friday"], defaults: .test) else {
            Issue.record("NAME alone does not join")
            return
        }
        #expect(login.name == "login" && login.colorblind == false && login.animation && login.match == nil && login.role == .player)
        for wrong in [["arena", "--create", "fri"], ["arena", "--create", "fri.day", "--minutes", "5"], ["arena", "--create", "f", "--minutes", "181"],
                      ["arena", "h", "friday", "--json"], ["arena", "h", "--name", "ann"], ["arena", "h", "x", "--results", "--colorblind"],
                      ["arena", "h", "friday.x"], ["arena", "--results"], ["arena", "--minutes", "5"], ["arena", "--casual"],
                      ["arena", "h", "x", "--create", "y", "--minutes", "5"]] {
            #expect(throws: UsageError.self, "\(wrong)") { try Commands.parse(wrong, defaults: .test) }
        }
    }

    /// `watch HOST --arena NAME`: the arena's TV, with the spectator's options; never with a MATCH.
    @Test func watchArenaParsesIntoTheTV() throws {
        var viewer = ClientOptions(host: "example.org", port: 7380, name: "viv", role: .spectator, colorblind: true, animation: true)
        viewer.command = "setgame"
        #expect(try Commands.parse(["watch", "example.org", "--arena", "friday", "--name", "viv", "--colorblind"], defaults: .test)
            == .arenaWatch(viewer, arena: "friday"))
        for wrong in [["watch", "h", "m1", "--arena", "friday"], ["watch", "h", "--arena", "fri.day"], ["watch", "h", "--arena"]] {
            #expect(throws: UsageError.self, "\(wrong)") { try Commands.parse(wrong, defaults: .test) }
        }
    }

    @Test func anArenaIsOpenedListedAndItsStandingsPrinted() throws {
        let server = try TestServer()
        defer { server.stop() }
        var printed: [String] = []
        let create = ArenaCommand(host: "127.0.0.1", port: server.port,
                                  action: .create(ArenaCreation(arena: "friday", minutes: 10, variant: .junior, startsInS: 120)))
        #expect(ArenaCommandClient.run(create) { printed.append($0) } == 0)
        #expect(printed == ["Opened friday: junior rated, 10 minutes, starts in 2 minutes."])
        printed = []
        #expect(ArenaCommandClient.run(ArenaCommand(host: "127.0.0.1", port: server.port, action: .list)) { printed.append($0) } == 0)
        #expect(printed.count == 1 && printed[0].hasPrefix("friday  junior rated  starts in ") && printed[0].hasSuffix("0 players"), "\(printed)")
        printed = []
        #expect(ArenaCommandClient.run(ArenaCommand(host: "127.0.0.1", port: server.port, action: .results(arena: "friday"))) { printed.append($0) } == 0)
        #expect(printed == ["friday  junior rated  starting", "Nobody has joined."])
        #expect(ArenaCommandClient.run(ArenaCommand(host: "127.0.0.1", port: server.port, action: .results(arena: "nothing"))) { printed.append($0) } == 1)
        // Under a minute, in seconds: an arena that starts in 5 s does not say "1 minute".
        #expect(ArenaReport.timeLeft(5_000) == "5 s" && ArenaReport.timeLeft(59_000) == "59 s" && ArenaReport.timeLeft(90_000) == "2 minutes")
    }

    @Test func standingsReadAt80Columns() {
        let long = String(repeating: "x", count: 24)
        let results = ArenaResults(header: ArenaHeader(arena: String(repeating: "a", count: 20), variant: .classic, rated: true, state: .finished, endsAt: 1),
                                   standings: [ArenaEntry(rank: 1, name: long, score: 1_234, games: 456, wins: 400, streak: 0, bot: true, performance: 2_999),
                                               ArenaEntry(rank: 2, name: "bob", score: 2)],
                                   winners: [long])
        let lines = ArenaReport.lines(results)
        #expect(lines.count == 4 && lines.allSatisfy { $0.count <= 80 }, "\(lines)")
        #expect(lines.last == "Won by \(long).")
        #expect(ArenaReport.lines([], now: 0) == ["No arenas are running or starting."])
    }
}
