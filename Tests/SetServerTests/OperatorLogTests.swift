import Foundation
import SetNet
@testable import SetServer
import SetTestSupport
import SetWire
import Testing

/// What a host reads in the log: a limit that turned a client away, and a proxy sending PROXY
/// headers to a node that was not told of it. Over real sockets.
@Suite struct OperatorLogTests {
    func errorCode(_ client: TestClient) throws -> ErrorCode {
        try client.waitFor("an error") { if case .error(let error, _) = $0 { error.code } else { nil } }
    }

    @Test func aLimitReachedIsSaidInTheLogWithTheAddress() throws {
        let server = try TestServer { $0.maxMatches = 1 }
        defer { server.stop() }
        let first = try TestClient.greeted(port: server.port)
        #expect(try first.joinOutcome(JoinRequest(name: "ann", match: "one", mode: .solo)) == nil)
        let second = try TestClient.greeted(port: server.port)
        #expect(try second.joinOutcome(JoinRequest(name: "bob", match: "two", mode: .solo))?.code == .serverFull)
        let said = server.logLines.all.filter { $0.contains("server_full") }
        #expect(said.count == 1 && said[0].contains("from 127.0.0.1") && said[0].contains("hosts 1 matches already"), "\(server.logLines.all)")
        withExtendedLifetime(first) {}
    }

    /// A health check comes and goes unsaid (a load balancer's checks were most of a node's
    /// log); a player's join says where from, and its leave is said.
    @Test func aHealthCheckLeavesNoLineAndAJoinSaysItsAddress() throws {
        let server = try TestServer()
        defer { server.stop() }
        let probe = try TestClient.greeted(port: server.port)
        probe.send(.health, id: .string("h"))
        _ = try probe.waitFor("health") { if case .health = $0 { true } else { nil } }
        probe.hangUp()
        let ann = try TestClient.joined(port: server.port, name: "ann", key: nil)
        ann.hangUp()
        let lines = polled({ server.logLines.all }, until: { $0.contains { $0.contains("ann") && $0.contains(" left: ") } })
        #expect(lines.contains { $0.contains("ann (seat 0 of m) joined from 127.0.0.1") }, "\(lines)")
        #expect(lines.filter { $0.contains(" left: ") }.allSatisfy { $0.contains("ann") }, "\(lines)")
    }

    @Test func aProxyHeaderFromAnUnlistedAddressIsSaidInTheLog() throws {
        let server = try TestServer()
        defer { server.stop() }
        let proxy = try TestClient.greeted(port: server.port)
        proxy.sendRaw(ProxyHeader.signature + [0x21, 0x11, 0x00, 0x0C] + [203, 0, 113, 5, 127, 0, 0, 1, 0x30, 0x39, 0x1C, 0xD8] + Array("\n".utf8))
        #expect(try errorCode(proxy) == .badJSON)
        #expect(server.logLines.all.contains { $0.contains("began with a PROXY header, but 127.0.0.1 is not in --proxy-from") },
                "\(server.logLines.all)")
        // A client's own bad line says nothing of proxies.
        let client = try TestClient.greeted(port: server.port)
        client.sendRaw("QUIT\n")
        #expect(try errorCode(client) == .badJSON)
        #expect(server.logLines.all.filter { $0.contains("PROXY") }.count == 1)
    }
}
