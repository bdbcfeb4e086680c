import Glibc
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// Nobody gains by leaving, watching their own match, or by the other's hint; and the last line
/// before a close always arrives.
@Suite(.serialized) struct FairnessPromiseTests {
    func startedDuel(_ server: TestServer) throws -> (TestClient, TestClient) {
        let (ann, bob) = try TestClient.duel(server)
        return (ann, bob)
    }

    func rejoin(_ server: TestServer, token: String) throws -> TestClient {
        try TestClient.joined(server, name: "ann", token: token)
    }

    /// Away time is a budget per game: 20 s away, back, then away again leaves only 10 s of a 30 s
    /// budget, however often the player returns.
    @Test func awayTimeIsABudgetPerGameNotPerAbsence() throws {
        let server = try TestServer { $0.limits.seatWaitMs = 30_000 }
        defer { server.stop() }
        var (ann, bob) = try startedDuel(server)
        let token = try #require(ann.token)
        for (index, awayMs) in [Int64(12_000), 8_000].enumerated() {
            ann = try TestClient(port: server.port)  // the old socket closes
            let away = try bob.awaitEvent("ann away \(index)") { if case .presence(.first, false, _) = $0 { true } else { false } }
            guard case .presence(_, _, let forfeitAt) = away.body else { return }
            #expect(forfeitAt == away.time + 30_000 - (index == 0 ? 0 : 12_000))
            server.advance(by: awayMs)
            ann = try rejoin(server, token: token)
            _ = try bob.awaitEvent("ann back \(index)") { if case .presence(.first, true, _) = $0 { true } else { false } }
        }
        ann = try TestClient(port: server.port)
        let away = try bob.awaitEvent("ann away for good") { if case .presence(.first, false, _) = $0 { true } else { false } }
        guard case .presence(_, _, let forfeitAt) = away.body else { return }
        #expect(forfeitAt == away.time + 10_000)
        server.advance(by: 9_999)
        bob.send(.ping(time: 5))
        _ = try bob.waitFor("pong") { if case .pong(_, 5, _) = $0 { true } else { nil } }
        #expect(bob.view?.phase == .playing)
        server.advance(by: 1)
        let over = try bob.awaitEvent("forfeit") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(let result, _, _) = over.body else { return }
        #expect(result.reason == .forfeited && result.by == .first)
    }

    /// A spectator (perhaps a player's second connection) never hears how many sets a table of a
    /// game still on held, not even of a table that stopped being live: the table that replaced
    /// it keeps most of its cards, so its count would tell of the live one. The count of the last
    /// table comes once the game is over.
    @Test func spectatorsHearTheSetCountOnlyOnceTheGameIsOver() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (ann, bob) = try startedDuel(server)
        let eve = try TestClient.joined(server, name: "eve", role: .spectator)
        #expect(eve.view?.setsOnTable == nil, "the snapshot must not count the live table")
        try bob.awaitSeq(eve.view!.seq)
        let firstTable = try #require(ann.view?.table)
        try playScriptedTurn(ann, bob)
        try playScriptedTurn(bob, ann)
        try eve.awaitSeq(ann.view!.seq)
        #expect(eve.view?.table != firstTable)
        // A fresh look at the match counts no table of this game while it is on.
        eve.send(.snapshot)
        _ = try eve.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        #expect(eve.view?.setsOnTable == nil, "a retired table's count tells of the live one")
        let lastTable = try #require(ann.view?.table)
        ann.send(.act(.resign, seat: nil))
        let over = try eve.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        let (seq, count) = try eve.waitFor("insight") { if case .insight(_, let seq, let sets) = $0 { (seq, sets) } else { nil } }
        #expect(seq == over.seq)
        #expect(count == SetLogic.allSets(in: lastTable).count)
        let insights = eve.received.filter { if case .insight = $0 { true } else { false } }
        #expect(insights.count == 1, "no count while the game was on")
        eve.send(.snapshot)
        _ = try eve.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        #expect(eve.view?.setsOnTable == count)
    }

    @Test func aHintInADuelShowsItsCardsOnlyToThePlayerWhoPaid() throws {
        let server = try TestServer { $0.rules.hintsInDuel = true }
        defer { server.stop() }
        let (ann, bob) = try startedDuel(server)
        let eve = try TestClient.joined(server, name: "eve", role: .spectator)
        try ann.awaitSeq(eve.view!.seq)
        ann.send(.act(.hint, seat: nil))
        func hinted(_ client: TestClient) throws -> (cards: [Card], score: Int) {
            let event = try client.awaitEvent("hint") { if case .rules(.hintShown) = $0 { true } else { false } }
            guard case .rules(.hintShown(_, let cards, _, let score)) = event.body else { return ([], 0) }
            return (cards, score)
        }
        let paid = try hinted(ann)
        #expect(paid.cards.count == 3 && SetLogic.isSet(paid.cards))
        for other in [bob, eve] {
            let seen = try hinted(other)
            #expect(seen.cards.isEmpty)
            #expect(seen.score == paid.score && seen.score == -RuleSettings.standard.hintCost)
        }
    }

    /// The server speaks first even to a connection it refuses: `welcome`, then why, then the end.
    @Test func aRefusedConnectionIsWelcomedThenToldWhyThenClosed() throws {
        let server = try TestServer { $0.limits.maxConnections = 1 }
        defer { server.stop() }
        let first = try TestClient(port: server.port)
        _ = try first.next("welcome")
        let refused = try TestClient(port: server.port)
        guard case .welcome = try refused.next("welcome") else {
            Issue.record("the first line was not welcome: \(refused.lastLine ?? "")")
            return
        }
        guard case .error(let error, _) = try refused.next("server_full") else {
            Issue.record("no refusal: \(refused.lastLine ?? "")")
            return
        }
        #expect(error.code == .serverFull && error.fatal)
        let rest = try #require(refused.drainToEndOfStream(), "reset instead of closed")
        #expect(rest.lines.isEmpty && !rest.endsMidLine)
    }

    /// A client that floods requests and reads nothing is dropped as a slow consumer; when it
    /// reads at last it finds whole lines, then the `slow_consumer` line, then the end of the
    /// stream, never a reset, though its requests were still arriving when the server gave up.
    @Test func theFatalLineArrivesBeforeTheEndEvenWithRequestsUnread() throws {
        let server = try TestServer {
            $0.limits.outboundQueueBytes = 16_384
            $0.limits.messageBurst = 1_000_000
        }
        defer { server.stop() }
        let flood = TestClient(connectedSocket: try starvedSocket(port: server.port))
        _ = try flood.next("welcome")
        let ping = Array(#"{"type":"ping","time":12345}"#.utf8) + [0x0A]
        var burst: [UInt8] = []
        for _ in 0..<40_000 { burst += ping }
        flood.sendRaw(burst)  // about 1.2 MB: the server gives up long before it has read it all
        let (lines, endsMidLine) = try #require(flood.drainToEndOfStream(), "the connection was reset: the fatal line was lost")
        #expect(!endsMidLine)
        let last = try #require(lines.last)
        guard case .success(.error(let error, _)) = ServerMessageCoding.decode(Array(last.utf8)) else {
            Issue.record("the last line is not the fatal error: \(last)")
            return
        }
        #expect(error.code == .slowConsumer && error.fatal)
        for line in lines.dropLast() {
            guard case .success(.pong) = ServerMessageCoding.decode(Array(line.utf8)) else {
                Issue.record("a broken line before the fatal one: \(line)")
                return
            }
        }
    }
}
