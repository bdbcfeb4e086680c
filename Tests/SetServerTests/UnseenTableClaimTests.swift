import Foundation
import SetNet
import SetRules
import SetServer
import SetTestSupport
import SetWire
import Testing

/// A duel claim written behind the join or rematch that deals a game, or behind a join coming back
/// to a table (so sent before its sender had been sent that table) is refused `table_not_seen`,
/// with lag compensation on or off, saying what it saw or not, and after a restart: neither the
/// player who completes a match nor one back from a pause takes a window blind. Over real sockets.
@Suite(.serialized) struct UnseenTableClaimTests {
    static func line(_ message: ClientMessage, id: String? = nil) -> [UInt8] {
        ClientMessageEncoder.line(ClientRequest(id: id.map { .string($0) }, message))
    }

    /// The answer to the request with `id`: its ack (nil) or its error.
    static func answer(_ client: TestClient, _ id: String) throws -> WireError? {
        try client.waitFor("the answer to \(id)") { message -> WireError?? in
            switch message {
            case .error(let error, .string(id)): .some(error)
            case .ack(.string(id), _): .some(nil)
            default: nil
            }
        }
    }

    /// Once the table is seen, a claim is a claim: bob's opens his window.
    static func bobClaimsOnTheTable(_ bob: TestClient, _ server: TestServer, capMs: Int64) throws {
        bob.send(.act(.claim, seat: nil, seen: try #require(bob.view?.seq)), id: .string("seen"))
        server.advance(by: capMs + 1)
        #expect(try answer(bob, "seen") == nil)
        #expect(bob.view?.window?.holder == .second)
    }

    @Test(arguments: [Int64(0), 200], [true, false])
    func aClaimWrittenWithTheJoinThatDealsIsRefused(capMs: Int64, saysWhatItSaw: Bool) throws {
        let server = try TestServer { $0.lagCompensationMs = capMs }
        defer { server.stop() }
        let ann = try TestClient.joined(port: server.port, name: "ann", key: nil)
        let bob = try TestClient.greeted(port: server.port)
        bob.sendRaw(Self.line(.join(JoinRequest(name: "bob", match: "m")))
                    + Self.line(.act(.claim, seat: nil, seen: saysWhatItSaw ? 0 : nil), id: "early"))
        let refused = try Self.answer(bob, "early")
        #expect(refused?.code == .tableNotSeen, "\(refused?.message ?? "acknowledged")")
        #expect(refused?.message.contains("before the table reached you") == true)
        _ = try ann.awaitEvent("the deal") { if case .gameStarted = $0 { true } else { false } }
        #expect(ann.view?.window == nil, "nobody holds a window")
        try Self.bobClaimsOnTheTable(bob, server, capMs: capMs)
    }

    @Test func aClaimWrittenWithTheRematchThatDealsIsRefused() throws {
        let server = try TestServer { $0.lagCompensationMs = 200 }
        defer { server.stop() }
        let (ann, bob) = try TestClient.duel(server)
        ann.send(.act(.resign, seat: nil))
        _ = try bob.awaitEvent("game over") { if case .gameOver = $0 { true } else { false } }
        ann.send(.act(.rematch, seat: nil))
        try bob.awaitSeq(try #require(ann.view?.seq) + 1)
        bob.sendRaw(Self.line(.act(.rematch, seat: nil)) + Self.line(.act(.claim, seat: nil), id: "early"))
        #expect(try Self.answer(bob, "early")?.code == .tableNotSeen)
        _ = try ann.awaitEvent("game 2") { if case .gameStarted = $0 { true } else { false } }
        #expect(bob.view?.game == 2 && bob.view?.window == nil)
        try Self.bobClaimsOnTheTable(bob, server, capMs: 200)
    }

    /// bob, away (the match paused), comes back with a claim written behind his join, as one who
    /// found a set while the clocks stood still would; the same after a restart of the server.
    @Test(arguments: [false, true])
    func aClaimWrittenWithAJoinComingBackIsRefused(restarted: Bool) throws {
        let data = NSTemporaryDirectory() + "setgame-unseen-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        var server = try TestServer { $0.dataDirectory = data; $0.lagCompensationMs = 200 }
        defer { server.stop() }
        var (ann, bob) = try TestClient.duel(server)
        let token = try #require(bob.token)
        if restarted {
            server.stop()
            server = try TestServer { $0.dataDirectory = data; $0.lagCompensationMs = 200 }
            ann = try TestClient.joined(server, name: "ann", token: ann.token)
        } else {
            bob = try TestClient(port: server.port)  // the old socket closes: bob is away
            _ = try ann.awaitEvent("bob away") { if case .presence(.second, false, _) = $0 { true } else { false } }
        }
        bob = try TestClient.greeted(port: server.port)
        bob.sendRaw(Self.line(.join(JoinRequest(name: "bob", match: "m", token: token)))
                    + Self.line(.act(.claim, seat: nil), id: "early"))
        #expect(try Self.answer(bob, "early")?.code == .tableNotSeen)
        _ = try ann.awaitEvent("bob back") { if case .presence(.second, true, _) = $0 { true } else { false } }
        #expect(ann.view?.window == nil)
        try Self.bobClaimsOnTheTable(bob, server, capMs: 200)
        withExtendedLifetime(ann) {}
    }
}
