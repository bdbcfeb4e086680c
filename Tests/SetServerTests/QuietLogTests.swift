@testable import SetServer
import SetRules
import SetWire
import SetTestSupport
import Testing

/// A client that reconnects as fast as its connect rate allows must not flood the server's log:
/// its joins, leaves and closings are said at most once a second per address, with a count of
/// the rest, and what was kept quiet is said once its second is over.
@Suite(.serialized) struct QuietLogTests {
    @Test func reconnectChurnIsLoggedAtMostOncePerSecondPerAddress() throws {
        let server = try TestServer()
        defer { server.stop() }
        let (first, bob) = try TestClient.duel(server)
        var ann = first
        let token = try #require(ann.token)
        // A move, so the match is one whose players' comings and goings are worth naming.
        bob.send(.act(.claim, seat: nil))
        bob.send(.act(.pass, seat: nil))
        _ = try ann.awaitEvent("bob's second chance") { if case .rules(.windowOpened(let window)) = $0 { window.kind == .secondChance } else { false } }
        ann.send(.act(.pass, seat: nil))
        _ = try bob.awaitEvent("ann passes") { if case .rules(.windowClosed(_, .passed)) = $0 { true } else { false } }
        let before = server.logLines.all.count
        let reconnects = 20
        for index in 0..<reconnects {
            ann = try reconnect(ann, server: server, token: token, takingOver: index % 2 == 1, seenBy: bob)
        }
        try sync(ann)
        let churn = server.logLines.all.dropFirst(before)
        // Each kind of line once: a player's join and leave, a replaced connection's closing and leave.
        #expect(churn.count <= 4, "\(reconnects) reconnects wrote \(churn.count) lines: \(churn)")

        // A second later what was kept quiet is said without waiting for more of it: the latest
        // line of each kind, with how many more like it.
        server.advance(by: 1_000)
        let said = ["ann (seat 0 of m) joined with a token", "ann (seat 0 of m) left", "closing #"]
        let later = polled({ Array(server.logLines.all.dropFirst(before)) }, until: { lines in
            said.allSatisfy { kind in lines.contains { $0.contains(kind) && $0.contains(" more like it)") } }
        })
        for kind in said {
            #expect(later.contains { $0.contains(kind) && $0.contains(" more like it)") }, "\(kind): \(later)")
        }
        withExtendedLifetime(bob) {}
    }

    @Test func theThrottleForgetsStaleConditionsOnceThereAreMany() {
        var throttle = LogThrottle()
        for address in 1..<LogThrottle.minimumKept { _ = throttle.admit("joined from 10.0.\(address)", "joined", at: Instant(milliseconds: 0)) }
        #expect(throttle.count == LogThrottle.minimumKept - 1)
        _ = throttle.admit("joined from 10.1.0", "joined", at: Instant(milliseconds: 5_000))
        #expect(throttle.count == 1, "conditions not said for a second are forgotten once there are many")
    }

    /// Ann back in her seat on a new connection: after her last one dropped (bob sees her go),
    /// or taking it over from the last one, which the server then closes.
    private func reconnect(_ old: TestClient, server: TestServer, token: String, takingOver: Bool, seenBy bob: TestClient) throws -> TestClient {
        if !takingOver {
            old.hangUp()
            _ = try bob.awaitEvent("ann away") { if case .presence(.first, false, _) = $0 { true } else { false } }
        }
        let client = try TestClient(port: server.port)
        _ = try client.waitFor("welcome") { if case .welcome = $0 { true } else { nil } }
        client.send(.join(JoinRequest(name: "ann", match: "m", token: token, takeOver: takingOver)))
        _ = try client.waitFor("snapshot") { if case .snapshot = $0 { true } else { nil } }
        if takingOver { _ = old.drainToEndOfStream() }
        return client
    }

    /// Waits until the server has handled everything sent before: its log is written by then.
    private func sync(_ client: TestClient) throws {
        client.send(.ping(time: -7))
        _ = try client.waitFor("pong") { if case .pong(_, -7, _) = $0 { true } else { nil } }
    }
}
