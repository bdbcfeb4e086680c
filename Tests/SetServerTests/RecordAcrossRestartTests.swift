import Foundation
import SetDatabase
import SetNet
import SetRules
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Issue 43 item 5: a rated game that ends while PostgreSQL is down loses nothing. Its record
/// waits (the players hear `journal_failed`, nobody hears the game over), is tried again with a
/// backoff until the store is back, and is written once; a record the store cannot take for
/// `AccountsEdge.recordPatienceMs` is given up as a refused one is, and the operator is told.
@Suite(.serialized) struct RecordAcrossRestartTests {
    static let annKey = String(repeating: "a1", count: 32)
    static let bobKey = String(repeating: "b2", count: 32)

    /// What `eventually` throws when its condition never held.
    struct NeverHeld: Error { let what: String }

    /// Waits (bounded by a limit only a broken server reaches) until `done` holds.
    static func eventually(_ what: String, _ done: () throws -> Bool) throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while try !done() {
            guard ContinuousClock.now < deadline else { throw NeverHeld(what: what) }
            usleep(10_000)
        }
    }

    @Test func aRatedGameEndedWhilePostgresIsDownIsRecordedOnceWhenItIsBackAndToldToBoth() throws {
        guard ThrowawayPostgres.binaries != nil else {
            if ProcessInfo.processInfo.environment["SETGAME_REQUIRE_POSTGRES"] == "1" { Issue.record("PostgreSQL is required but not installed") }
            print("note: PostgreSQL is not installed: the restart test is passed over")
            return
        }
        let postgres = try ThrowawayPostgres.start()
        defer { postgres.stop() }
        let clock = ManualTime(1_000)
        let lines = ServerLogLines()
        var config = ServerConfig()
        config.port = 0
        config.seeds = .counting(from: 1)
        config.perAddress.connectsPerSecond = 1_000_000
        config.store = .postgres(postgres.url)
        // The test moves the clock by minutes: nobody is dropped for idleness meanwhile.
        config.limits.idleTimeoutMs = 24 * 3_600_000
        let server = RunningServer(try Server(config: config, clock: clock, log: lines.log))
        defer { server.stop() }
        let ann = try TestClient.joined(port: server.port, name: "ann", key: Self.annKey, match: "m")
        let bob = try TestClient.joined(port: server.port, name: "bob", key: Self.bobKey, match: "m")
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)

        try postgres.halt()
        ann.send(.act(.resign, seat: nil))
        for client in [ann, bob] { _ = try client.awaitError(.journalFailed) }
        #expect(![ann, bob].contains { $0.received.contains { if case .event(let event) = $0, case .gameOver = event.body { true } else { false } } })

        try postgres.resume()
        // Each advance makes the next try due (no backoff is longer than 30 s); the loop runs
        // it at once, and the first that finds the store back commits.
        let check = try PostgresDatabase(url: postgres.url)
        try Self.eventually("the record is committed") {
            clock.advance(by: 30_000)
            server.control.wake()
            return try check.row("SELECT COUNT(*) FROM games")?.int(0) == 1
        }
        for client in [ann, bob] {
            let over = try client.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
            guard case .gameOver(_, _, let ratings) = over.body else { return }
            #expect(ratings.count == 2, "the game is told rated, with its new ratings")
        }
        #expect(try check.row("SELECT COUNT(*) FROM games")?.int(0) == 1)
        #expect(try check.query("SELECT games FROM accounts ORDER BY id").map { try $0.int(0) as Int } == [1, 1])
        #expect(try check.row("SELECT COUNT(*) FROM ratings")?.int(0) == 2)
        #expect(lines.all.contains { $0.contains("after") && $0.contains("failed tries") })
    }

    @Test func aRecordTheStoreCannotTakeForItsPatienceIsPublishedUnratedAndTheOperatorIsTold() throws {
        let gate = StoreGate()
        let lines = ServerLogLines()
        let clock = ManualTime(1_000)
        var config = ServerConfig()
        config.port = 0
        config.seeds = .counting(from: 1)
        config.perAddress.connectsPerSecond = 1_000_000
        // The test moves the clock by ten minutes: nobody is dropped for idleness meanwhile.
        config.limits.idleTimeoutMs = 24 * 3_600_000
        let server = RunningServer(try Server(config: config, clock: clock, log: lines.log, store: try GatedStore(gate: gate)))
        defer { server.stop() }
        func advance(by milliseconds: Int64) {
            clock.advance(by: milliseconds)
            server.control.wake()
        }
        let ann = try TestClient.joined(port: server.port, name: "ann", key: Self.annKey, match: "m")
        let bob = try TestClient.joined(port: server.port, name: "bob", key: Self.bobKey, match: "m")
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)

        gate.failingRecords = true
        ann.send(.act(.resign, seat: nil))
        for client in [ann, bob] { _ = try client.awaitError(.journalFailed) }
        // A try every 30 s of the server's clock: the one 10 minutes after the first failed
        // try (the 21st) gives up.
        for retry in 1...(AccountsEdge.recordPatienceMs / 30_000) {
            #expect(!bob.received.contains { if case .event(let event) = $0, case .gameOver = event.body { true } else { false } })
            advance(by: 30_000)
            try Self.eventually("try \(retry + 1) of the record") { gate.recordCalls == retry + 1 }
        }
        let over = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        guard case .gameOver(_, _, let ratings) = over.body else { return }
        #expect(ratings.isEmpty, "given up: unrated")
        advance(by: 30_000)
        bob.send(.ping(time: nil))
        _ = try bob.waitFor("pong") { if case .pong = $0 { true } else { nil } }
        #expect(gate.recordCalls == 21, "and tried no more")
        #expect(lines.all.contains { $0.contains("OPERATOR") && $0.contains("given up") && $0.contains("not recorded") })
        withExtendedLifetime(ann) {}
    }
}
