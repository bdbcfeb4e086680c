import Foundation
import SetRules
@testable import SetServer
import SetWire
import Testing

/// Issue 32 item 10: one data folder never deals the same seed twice, whatever `--seed` a
/// restart is given and even when its state file is lost, so every game's commitment, which
/// its record is known by, is its own.
@Suite(.serialized) struct SeedOnceTests {
    func temporaryDirectory() -> String { temporaryFolder("setgame-seed-once") }

    func server(data: String, from start: UInt64) throws -> TestServer {
        try TestServer {
            $0.dataDirectory = data
            $0.seeds = .counting(from: start)
        }
    }

    /// The commitment the duel in `match` was dealt under.
    func dealt(_ server: TestServer, match: String) throws -> String {
        let (_, bob) = try TestClient.duel(server, match: match)
        return try #require(bob.view?.commitment)
    }

    @Test func aRestartWithALowerSeedCountsOnAfterTheSeedsDealt() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data, from: 5)
        #expect(try dealt(first!, match: "one") == SeedCommitment.commitment(for: 5))
        #expect(try dealt(first!, match: "two") == SeedCommitment.commitment(for: 6))
        first?.stop()
        first = nil
        let second = try server(data: data, from: 3)
        defer { second.stop() }
        #expect(try dealt(second, match: "three") == SeedCommitment.commitment(for: 7), "seed 3 is new, but counting from it reaches 5")
    }

    @Test func aHigherSeedStartsWhereItSays() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data, from: 5)
        #expect(try dealt(first!, match: "one") == SeedCommitment.commitment(for: 5))
        first?.stop()
        first = nil
        let second = try server(data: data, from: 100)
        defer { second.stop() }
        #expect(try dealt(second, match: "two") == SeedCommitment.commitment(for: 100))
    }

    /// With its state file gone, the folder still knows the seeds of the games its accounts store
    /// holds, and passes over them.
    @Test func aLostStateFileStillDealsNoRecordedSeed() throws {
        let data = temporaryDirectory()
        var first: TestServer? = try server(data: data, from: 5)
        let ann = try TestClient(port: first!.port)
        _ = try ann.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        var request = JoinRequest(name: "cat", match: "one")
        request.account = String(repeating: "a1", count: 32)
        ann.send(.join(request))
        _ = try ann.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        let bob = try TestClient.joined(first!, name: "dan", match: "one")
        #expect(bob.view?.commitment == SeedCommitment.commitment(for: 5))
        ann.send(.act(.resign, seat: nil))
        _ = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        withExtendedLifetime((ann, bob)) { first?.stop() }
        first = nil
        unlink(data + "/server-state.json")
        let second = try server(data: data, from: 5)
        defer { second.stop() }
        #expect(try dealt(second, match: "two") == SeedCommitment.commitment(for: 6))
    }
}
