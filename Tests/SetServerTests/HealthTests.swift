import Foundation
@testable import SetServer
import SetRules
import SetTestSupport
import SetWire
import Testing

/// `health` over a real socket: ready while the store answers, not ready once it cannot be
/// reached (the reason in the log, not on the wire); and the probe behind it, shared and reused.
@Suite(.serialized) struct HealthTests {
    static func health(_ client: TestClient, id: String) throws -> HealthReport {
        client.send(.health, id: .string(id))
        return try client.waitFor("health \(id)") { if case .health(let report, .string(id)?) = $0 { report } else { nil } }
    }

    @Test func aServerWhoseStoreAnswersIsReady() throws {
        let server = try TestServer { $0.store = .memory }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(try Self.health(client, id: "h") == HealthReport(ready: true, store: .ok, node: nil, lease: nil))
        #expect(client.lastLine == #"{"id":"h","ready":true,"store":"ok","type":"health"}"#)
    }

    @Test func aServerWhosePostgresIsDownIsNotReady() throws {
        guard ThrowawayPostgres.binaries != nil else {
            if ProcessInfo.processInfo.environment["SETGAME_REQUIRE_POSTGRES"] == "1" { Issue.record("PostgreSQL is required but not installed") }
            print("note: PostgreSQL is not installed: the store-down health test is passed over")
            return
        }
        let postgres = try ThrowawayPostgres.start()
        defer { postgres.stop() }
        let server = try TestServer { $0.store = .postgres(postgres.url) }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(try Self.health(client, id: "up").ready)

        postgres.stop()
        server.advance(by: HealthProbe.freshMs)
        let down = try Self.health(client, id: "down")
        #expect(down == HealthReport(ready: false, store: .unavailable, node: nil, lease: nil))
        #expect(client.lastLine == #"{"id":"down","ready":false,"store":"unavailable","type":"health"}"#, "no reason on the wire")
        #expect(server.logLines.all.contains { $0.contains("health: not ready: the accounts store is unavailable") }, "\(server.logLines.all)")
        // Everything that needs no store still works: the server is alive, only not ready.
        client.send(.ping(time: 5))
        _ = try client.waitFor("pong") { if case .pong(_, 5, _) = $0 { true } else { nil } }
    }

    @Test func aNodeIsReadyOnlyWhileItHoldsItsLease() throws {
        guard let database = try TestDatabase.make(.postgres) else { return }
        let faults = NodeFaults()
        let node = try NodeServerTests.node("a", database, faults: faults)
        defer { node.stop() }
        let client = try TestClient(port: node.port)
        #expect(try Self.health(client, id: "held") == HealthReport(ready: true, store: .ok, node: "a", lease: .held))
        #expect(client.lastLine == #"{"id":"held","lease":"held","node":"a","ready":true,"store":"ok","type":"health"}"#)

        faults.unreachable = true  // the node's own connection to the store, not the accounts'
        node.advance(by: 11_000)
        #expect(try Self.health(client, id: "lapsed") == HealthReport(ready: false, store: .ok, node: "a", lease: .lapsed))
    }

    @Test func requestsWhileAProbeIsOutWaitForItAndItsAnswerStandsForASecond() {
        var probe = HealthProbe()
        let start = Instant(milliseconds: 1_000)
        #expect(probe.ask(.init(connection: 1, id: "a"), at: start) == .probe)
        #expect(probe.ask(.init(connection: 2, id: "b"), at: start) == .wait)
        #expect(probe.answered(.unavailable, at: start.adding(3)).map(\.connection) == [1, 2])
        #expect(probe.ask(.init(connection: 3, id: nil), at: start.adding(3 + HealthProbe.freshMs - 1)) == .answer(.unavailable))
        #expect(probe.ask(.init(connection: 3, id: nil), at: start.adding(3 + HealthProbe.freshMs)) == .probe)
        #expect(probe.answered(.ok, at: start.adding(2_000)).map(\.connection) == [3])
        #expect(probe.answered(.ok, at: start.adding(2_001)).isEmpty, "an answer nobody waits for is nobody's")
    }

    @Test func aNodesReadinessNeedsItsLease() {
        #expect(HealthReport(store: .ok, node: "a", lease: .held).ready)
        #expect(!HealthReport(store: .ok, node: "a", lease: .lapsed).ready)
        #expect(!HealthReport(store: .unavailable, node: "a", lease: .held).ready)
        #expect(HealthReport(store: .ok).ready && !HealthReport(store: .unavailable).ready)
    }
}
