import Foundation
import Glibc
import SetNet
import SetRules
import SetServer
import SetWire
import Testing

/// What a restart must keep: a match after a rematch, fresh seeds, a folder for one server only,
/// and a clock that never runs backwards.
@Suite(.serialized) struct RestartPromiseTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-promise") }

    func server(data: String, seeds: SeedSource = .counting(from: 5)) throws -> TestServer {
        try TestServer {
            $0.dataDirectory = data
            $0.seeds = seeds
        }
    }

    /// A duel whose first game ended by resignation and whose second game was dealt by a rematch.
    func rematched(_ server: TestServer) throws -> (TestClient, TestClient) {
        let (ann, bob) = try TestClient.duel(server, match: "again")
        ann.send(.act(.resign, seat: nil))
        _ = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        ann.send(.act(.rematch, seat: nil))
        bob.send(.act(.rematch, seat: nil))
        for client in [ann, bob] {
            _ = try client.awaitEvent("game 2") { if case .gameStarted(let start) = $0 { start.game == 2 } else { false } }
        }
        return (ann, bob)
    }

    @Test func aMatchRestartedAfterARematchIsRestoredWithBothSeats() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data)
        let (ann, bob) = try rematched(first!)
        let before = try #require(bob.view)
        let tokens = (try #require(ann.token), try #require(bob.token))
        first?.stop()
        first = nil

        let second = try server(data: data)
        defer { second.stop() }
        #expect(!second.logLines.all.contains { $0.contains("damaged") }, "\(second.logLines.all)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: data + "/damaged")) ?? []).isEmpty)
        let annBack = try TestClient.joined(second, name: "ann", match: "again", token: tokens.0)
        let bobBack = try TestClient.joined(second, name: "bob", match: "again", token: tokens.1)
        #expect(annBack.seat == .first && bobBack.seat == .second)
        try bobBack.awaitSeq(annBack.view!.seq)
        let after = try #require(bobBack.view)
        #expect(after.game == 2 && after.table == before.table && after.commitment == before.commitment)
    }

    /// Game 2 of a restored match is dealt as a fresh match's would be: with `--seed`, counting on
    /// after the seeds already given out; by default, from the system's generator.
    @Test func laterGamesOfARestoredMatchGetFreshSeeds() throws {
        for seeds in [SeedSource.counting(from: 5), .random] {
            let data = temporaryDirectory()
            var first: TestServer? = try server(data: data, seeds: seeds)
            let ann = try TestClient.joined(first!, name: "ann", match: "fresh")
            let bob = try TestClient.joined(first!, name: "bob", match: "fresh")
            let tokens = (try #require(ann.token), try #require(bob.token))
            let firstCommitment = try #require(bob.view?.commitment)
            first?.stop()
            first = nil

            let second = try server(data: data, seeds: seeds)
            defer { second.stop() }
            let annBack = try TestClient.joined(second, name: "ann", match: "fresh", token: tokens.0)
            let bobBack = try TestClient.joined(second, name: "bob", match: "fresh", token: tokens.1)
            try annBack.awaitSeq(bobBack.view!.seq)
            annBack.send(.act(.resign, seat: nil))
            let over = try bobBack.awaitEvent("game 1 over") { if case .gameOver = $0 { true } else { false } }
            guard case .gameOver(_, let firstSeed, _) = over.body else { return }
            #expect(SeedCommitment.verify(seed: try #require(firstSeed), against: firstCommitment))
            annBack.send(.act(.rematch, seat: nil))
            bobBack.send(.act(.rematch, seat: nil))
            let started = try bobBack.awaitEvent("game 2") { if case .gameStarted = $0 { true } else { false } }
            guard case .gameStarted(let start) = started.body else { return }
            #expect(start.commitment != SeedCommitment.commitment(for: 0), "game 2 was dealt from seed 0")
            #expect(start.commitment != firstCommitment)
            if seeds != .random { #expect(start.commitment == SeedCommitment.commitment(for: 6)) }
            // It ends with a seed that keeps its promise.
            annBack.send(.act(.resign, seat: nil))
            let end = try bobBack.awaitEvent("game 2 over") { if case .gameOver = $0 { true } else { false } }
            guard case .gameOver(_, let seed, _) = end.body else { return }
            #expect(SeedCommitment.verify(seed: try #require(seed), against: start.commitment))
        }
    }

    @Test func aSecondServerOnTheSameDataFolderIsRefusedAtOnce() throws {
        let data = temporaryDirectory()
        let first = try server(data: data)
        var config = ServerConfig()
        config.port = 0
        config.dataDirectory = data
        #expect(throws: ServerStartError.self) { _ = try Server(config: config, clock: ManualTime(1_000), log: .silent) }
        do {
            _ = try Server(config: config, clock: ManualTime(1_000), log: .silent)
        } catch {
            if case .dataDirectoryInUse(let path) = error { #expect(path == data) } else { Issue.record("\(error)") }
        }
        first.stop()
        // Once the first has stopped, the folder is free again.
        let again = try server(data: data)
        again.stop()
    }

    /// Restoring a journal appends a restart record to it: a start that fails on a port in use
    /// must fail before that, or each failed start leaves a record behind for nothing.
    @Test func aServerThatCannotListenLeavesItsJournalsAsTheyWere() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data)
        let seated = try TestClient.duel(first!, match: "kept")
        withExtendedLifetime(seated) { first?.stop() }  // both still connected when it stops
        first = nil
        let journal = data + "/kept.jsonl"
        let before = try #require(FileManager.default.contents(atPath: journal))

        let taken = try Sockets.listen(host: "127.0.0.1", port: 0)
        defer { close(taken) }
        var config = ServerConfig()
        config.port = Sockets.localPort(taken)
        config.dataDirectory = data
        #expect(throws: ServerStartError.self) { _ = try Server(config: config, clock: ManualTime(1_000), log: .silent) }
        #expect(FileManager.default.contents(atPath: journal) == before, "the failed start wrote to the journal")

        // The folder is free again, and the match comes back once.
        let second = try server(data: data)
        defer { second.stop() }
        #expect(second.restoredMatches == ["kept"])
    }

    /// Every time a client saw before a restart is below every time it sees after, even when no
    /// match was left to restore and the new process's clock starts low again.
    @Test func theServerClockNeverRunsBackwardsAcrossARestart() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data)
        let client = try TestClient(port: first!.port)
        _ = try client.next("welcome")
        first!.advance(by: 50_000)
        client.send(.ping(time: 1))
        let seen = try client.waitFor("pong") { if case .pong(let time, 1, _) = $0 { time } else { nil } }
        #expect(seen >= 51_000)
        first?.stop()
        first = nil

        let second = try server(data: data)  // its manual clock starts at 1000 again
        defer { second.stop() }
        let later = try TestClient(port: second.port)
        guard case .welcome(_, _, let welcomeTime, _) = try later.next("welcome") else {
            Issue.record("no welcome: \(later.lastLine ?? "")")
            return
        }
        #expect(welcomeTime > seen)
        later.send(.ping(time: 2))
        let pong = try later.waitFor("pong") { if case .pong(let time, 2, _) = $0 { time } else { nil } }
        #expect(pong > seen)
    }
}
