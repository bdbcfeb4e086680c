import Dispatch
import Foundation
import SetNet
import SetServer
import SetTestSupport
import SetWire
import Synchronization
import Testing
@testable import SetBench

/// `setgame bench --server A,B,C`: the duels go to the listed servers in turn, a `redirect` is
/// followed to the server it names, and each server's share is reported beside the totals.
@Suite(.serialized) struct ManyServersTests {
    /// A real server whose rate limits a load cannot reach.
    func loadableServer() throws -> RunningServer {
        var config = ServerConfig()
        config.limits.messagesPerSecond = 100_000
        config.limits.messageBurst = 200_000
        return try RunningServer(config: config)
    }

    func shortRun(_ servers: [ServerAddress], matches: Int) -> BenchConfig {
        var config = BenchConfig()
        config.servers = servers
        config.matches = matches
        config.spectatorsPerMatch = 1
        config.paceMs = 0
        config.durationSeconds = 0.5
        config.pingIntervalMs = 50
        return config
    }

    @Test func theDuelsGoToEachListedServerInTurnAndEachIsReportedApart() throws {
        let first = try loadableServer(), second = try loadableServer()
        defer { first.stop(); second.stop() }
        let listed = [ServerAddress(port: first.port), ServerAddress(port: second.port)]
        let result = try LoadGenerator(shortRun(listed, matches: 5)).run()

        #expect(result.servers.map(\.address) == listed.map(\.label))
        #expect(result.servers.map(\.load.matches) == [3, 2], "matches 0, 2, 4 on the first; 1, 3 on the second")
        #expect(result.servers.map(\.load.connections) == [9, 6])
        for server in result.servers {
            #expect(server.load.actions > 0 && server.load.pingLatency.count > 0, "\(server.address) was loaded")
            #expect(server.load.errors.isEmpty && server.load.drops == 0, "\(server.address): \(server.load.errors)")
        }
        #expect(result.actions == result.servers.map(\.load.actions).reduce(0, +))
        #expect(result.connections == 15 && result.matches == 5 && result.redirects == 0)
        #expect(result.actionLatency.count == result.servers.map(\.load.actionLatency.count).reduce(0, +))
    }

    @Test func aJoinAnsweredWithARedirectIsSentAgainToTheServerItNames() throws {
        let home = try loadableServer()
        defer { home.stop() }
        let redirector = try Redirector(connections: 4, to: ServerAddress(port: home.port))
        defer { redirector.stop() }
        let result = try LoadGenerator(shortRun([ServerAddress(port: redirector.port)], matches: 2)).run()

        #expect(redirector.finished(), "each player's first connection was answered with a redirect")
        #expect(result.redirects == 4, "both players of both duels followed it")
        #expect(result.servers.map(\.address) == ["127.0.0.1:\(redirector.port)", "127.0.0.1:\(home.port)"])
        #expect(result.servers.map(\.load.matches) == [0, 2], "the duels, spectators and all, are played where the redirect said")
        #expect(result.servers[1].load.actions > 0 && result.servers[1].load.redirects == 4)
        #expect(result.errors.isEmpty && result.drops == 0, "\(result.errors)")
    }

    @Test func theReportGivesEachServersShareBesideTheTotals() throws {
        var first = LoadResult(), second = LoadResult()
        (first.matches, first.connections, first.actions, first.seconds) = (3, 12, 30, 1)
        (second.matches, second.connections, second.actions, second.seconds, second.redirects) = (2, 8, 20, 1, 4)
        var total = LoadResult()
        (total.matches, total.connections, total.actions, total.seconds, total.redirects) = (5, 20, 50, 1, 4)
        total.servers = [ServerLoad(address: "10.0.0.1:7380", load: first), ServerLoad(address: "10.0.0.2:7380", load: second)]
        let report = BenchReport(config: BenchConfig(), load: total, server: nil, machine: "test")
        let rows = report.table.split(separator: "\n").filter { $0.hasPrefix("10.0.0.") }.map { $0.split(separator: " ").prefix(7).joined(separator: " ") }
        #expect(rows == ["10.0.0.1:7380 3 12 30 0 0 0", "10.0.0.2:7380 2 8 20 0 0 4"])
        guard case .array(let servers)? = try JSONParser.parse(report.json).objectValue?["servers"] else {
            Issue.record("no servers in \(report.json)"); return
        }
        #expect(servers.map { $0.objectValue?["address"]?.stringValue } == ["10.0.0.1:7380", "10.0.0.2:7380"])
        #expect(servers.map { $0.objectValue?["redirects"]?.intValue } == [0, 4])
    }

    @Test func aServerListIsReadAsHostPortPairsOrARedirectsAddress() {
        #expect(ServerAddress(redirectAddress: "10.0.0.2:7381") == ServerAddress(host: "10.0.0.2", port: 7381))
        #expect(ServerAddress(redirectAddress: "[::1]:7381") == ServerAddress(host: "::1", port: 7381))
        #expect(ServerAddress(redirectAddress: "10.0.0.2") == nil)
        #expect(ServerAddress(redirectAddress: ":7381") == nil)
        #expect(ServerAddress(host: "::1", port: 7381).label == "[::1]:7381")
    }
}

/// A server that answers each of its first `connections` joins with a `redirect` to `target`,
/// as a node does for a match another node holds, on a thread of its own.
final class Redirector: Sendable {
    let port: UInt16
    private let done = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let answered = Mutex(0)
    private let expected: Int

    init(connections: Int, to target: ServerAddress) throws {
        nonisolated(unsafe) let server = try FakeServer()
        port = server.port
        expected = connections
        Thread.detachNewThread { [self] in
            var peers: [FakePeer] = []
            for _ in 0..<connections {
                guard let peer = try? server.accept(), let line = peer.await("join"),
                      case .success(let request) = ClientMessageDecoder.decode(Array(line.utf8)),
                      case .join(let join) = request.message else { break }
                peer.send(#"{"address":"\#(target.label)","match":"\#(join.match ?? "")","type":"redirect"}"#)
                peers.append(peer)  // the client closes it
                answered.withLock { $0 += 1 }
            }
            done.signal()
            // A node keeps a redirected connection open: the client closes it.
            release.wait()
            withExtendedLifetime(peers) {}
        }
    }

    /// Whether it answered every connection it expected, waiting only for a hang.
    func finished() -> Bool {
        done.wait(timeout: .now() + .milliseconds(Int(hangMs))) == .success && answered.withLock { $0 } == expected
    }

    /// Lets go of the connections it redirected.
    func stop() { release.signal() }
}
