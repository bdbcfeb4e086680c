import SetBot
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 44: a short arena played to its end by instant bots on one server, over real sockets:
/// four players paired round after round by the server as their duels end, the arena ended by the
/// server's clock while the last duels are under way, those counted, and the final standings
/// pushed equal to those recounted from the stored games (`arena_results`).
@Suite(.serialized) struct ArenaBotTests {
    /// How long a test client waits for a line before the test moves the server's clock.
    static let stepMs = 100

    static func greeted(_ server: TestServer) throws -> TestClient {
        let client = try TestClient(port: server.port, receiveTimeoutMs: stepMs)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        return client
    }

    /// Waits for what `matching` picks, moving the server's clock 100 ms whenever nothing comes for
    /// `stepMs`: a duel has timers of its own on that clock (which stands still otherwise).
    /// Gives up after 30 s of the server's clock.
    static func awaitMoving<T>(_ server: TestServer, _ client: TestClient, _ what: String, _ matching: (ServerMessage) -> T?) throws -> T {
        for _ in 0..<300 {
            do {
                return try client.waitFor(what, matching)
            } catch is ClientTimedOut {
                server.advance(by: 100)
            }
        }
        throw ClientTimedOut(waitingFor: what)
    }

    static func answer(_ server: TestServer, _ client: TestClient, _ request: ArenaRequest) throws -> ServerMessage {
        client.send(.arena(request), id: "a")
        return try awaitMoving(server, client, "the answer") { message in
            switch message {
            case .arena(_, .string("a")?), .arenaResults(_, .string("a")?), .error(_, .string("a")?): message
            default: nil
            }
        }
    }

    /// The fields the pushed state and the stored results share.
    static func table(_ entries: [ArenaEntry]) -> [String] {
        entries.map { "\($0.rank) \($0.name) \($0.score) \($0.games) \($0.wins) \($0.streak) \($0.fire)" }
    }

    @Test func aShortArenaIsPlayedToItsEndByBots() throws {
        // The test moves the clock while bots play: the seat wait and the idle allowance outlast it.
        let server = try TestServer {
            $0.limits.seatWaitMs = 3_600_000
            $0.limits.idleTimeoutMs = 3_600_000
        }
        defer { server.stop() }
        let made = try Self.answer(server, try Self.greeted(server), .create(ArenaCreation(arena: "short", minutes: 10, startsInS: 60)))
        guard case .arena = made else {
            Issue.record("not created: \(made)")
            return
        }
        let names = ["p0", "p1", "p2", "p3"]
        let players = try names.map { name in
            let client = try Self.greeted(server)
            guard case .arena = try Self.answer(server, client, .join(ArenaJoinRequest(arena: "short", name: name, bot: true))) else {
                throw ClientTimedOut(waitingFor: "\(name) joined")
            }
            return client
        }
        server.advance(by: 60_000)
        var bots: BotsOnAThread?
        var matches: Set<String> = []
        for round in 1...3 {
            // Each round's four are paired together: whoever finishes first waits, since their
            // only free candidate is their last opponent while the others still play.
            let notices = try players.map { client in
                try Self.awaitMoving(server, client, "a pairing") { if case .arenaPairing(let notice) = $0 { notice } else { nil } }
            }
            bots?.stop()
            #expect(Set(notices.map(\.match)).count == 2 && matches.isDisjoint(with: notices.map(\.match)), "round \(round)")
            matches.formUnion(notices.map(\.match))
            if round == 3 { server.advance(by: 600_000) }  // the end: these two duels finish and count
            bots = try BotsOnAThread(zip(names, notices).enumerated().map { index, pair in
                var options = BotOptions()
                options.port = server.port
                options.match = pair.1.match
                options.token = pair.1.token
                options.name = pair.0
                options.level = .instant
                options.asksForRematch = false
                options.seed = UInt64(round * 10 + index)
                return options
            })
        }
        let final = try Self.awaitMoving(server, players[0], "the final standings") { message -> ArenaView? in
            if case .arena(let view, nil) = message, view.state == .finished, view.boards.isEmpty { view } else { nil }
        }
        bots?.stop()
        #expect(final.standings.map(\.games) == [3, 3, 3, 3] && matches.count == 6)
        #expect(final.standings.map(\.score).reduce(0, +) >= 12, "six duels give at least two points each")
        guard case .arenaResults(let stored, _) = try Self.answer(server, try Self.greeted(server), .results(arena: "short")) else {
            Issue.record("no results")
            return
        }
        #expect(Self.table(stored.standings) == Self.table(final.standings), "recounted from the stored games")
        #expect(stored.state == .finished && !stored.winners.isEmpty)
    }
}
