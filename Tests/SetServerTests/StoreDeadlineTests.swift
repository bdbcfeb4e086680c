import Foundation
import SetNet
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// Every store call has a deadline (issue 42 item 12): with the PostgreSQL a server uses stopped
/// by SIGSTOP (its kernel still takes bytes; nothing answers), `profile`, `health` and a
/// new-account join are answered within Protocol.md's bound, and a finished game's players are
/// told their result waits.
@Suite(.serialized) struct StoreDeadlineTests {
    static let annKey = String(repeating: "a1", count: 32)
    static let bobKey = String(repeating: "b2", count: 32)
    static let catKey = String(repeating: "c3", count: 32)
    /// Protocol.md "Limits": a request that needs the store is answered within 10 s.
    static let boundSeconds = 10

    /// The wait for `what` on `client`, which must end within the bound.
    func answered<T>(_ client: TestClient, _ what: String, _ match: (ServerMessage) -> T?) throws -> (T, Duration) {
        let start = ContinuousClock.now
        let found = try client.waitFor(what, match)
        return (found, ContinuousClock.now - start)
    }

    @Test func aStoppedPostgresStillHasEveryRequestAnsweredWithinTheBound() throws {
        guard ThrowawayPostgres.binaries != nil else { return print("note: PostgreSQL is not installed: the SIGSTOP test is passed over") }
        let postgres = try ThrowawayPostgres.start()
        defer { postgres.stop() }
        let server = try TestServer { $0.store = .postgres(postgres.url) }
        defer { server.stop() }
        let ann = try TestClient.joined(port: server.port, name: "ann", key: Self.annKey)
        let bob = try TestClient.joined(port: server.port, name: "bob", key: Self.bobKey)
        try ann.awaitSeq(bob.view!.seq)
        try playScriptedTurn(ann, bob)
        let eve = try TestClient.greeted(port: server.port)

        postgres.freeze()
        let bound = Duration.seconds(Self.boundSeconds)
        ann.send(.act(.resign, seat: nil))
        for client in [ann, bob] {
            let (notice, waited) = try answered(client, "the result waits") { message -> WireError? in
                if case .error(let error, _) = message, error.code == .journalFailed { error } else { nil }
            }
            #expect(!notice.fatal)
            #expect(waited < bound)
        }
        eve.send(.account(.profile(name: "ann")), id: "p")
        let (profile, profileWait) = try answered(eve, "profile") { message -> ErrorCode? in
            if case .error(let error, .string("p")?) = message { error.code } else { nil }
        }
        #expect(profile == .journalFailed)
        #expect(profileWait < bound)
        eve.send(.health, id: .string("h"))
        let (health, healthWait) = try answered(eve, "health") { if case .health(let report, .string("h")?) = $0 { report } else { nil } }
        #expect(health.store == .unavailable && !health.ready)
        #expect(healthWait < bound)
        let cat = try TestClient.greeted(port: server.port)
        var request = JoinRequest(name: "cat", match: "c")
        request.account = Self.catKey
        cat.send(.join(request))
        let (refusal, joinWait) = try answered(cat, "the join's answer") { if case .error(let error, _) = $0 { error } else { nil } }
        #expect(!refusal.fatal)
        #expect(joinWait < bound)
    }
}
