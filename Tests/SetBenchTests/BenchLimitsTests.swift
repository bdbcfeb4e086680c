import Foundation
import SetNet
import SetServer
import SetTestSupport
import Testing
@testable import SetBench

/// `setgame bench --server` against a server with its default per-address limits: the load
/// spreads over loopback addresses where it can, and a refusal ends the wait for seats with the
/// server's own reason instead of hanging.
@Suite(.serialized) struct BenchLimitsTests {
    @Test func aLoopbackLoadSpreadsPastTheDefaultPerAddressLimits() throws {
        // 30 duels: more waiting duels (8), and connections in a burst (40), than one address may open.
        let result = try loadARealServer(ServerConfig()) { config in
            config.matches = 30
            config.spectatorsPerMatch = 1
        }
        #expect(result.connections == 90 && result.errors.isEmpty && result.drops == 0)
    }

    @Test func aRefusalEndsTheLoadWithTheServersReason() throws {
        var server = ServerConfig()
        server.perAddress.connections = 4
        do {
            _ = try loadARealServer(server) { config in
                config.matches = 4
                config.spreadOverLoopback = false
            }
            Issue.record("the load ran although the server refused its connections")
        } catch let failure as LoadFailure {
            guard case .refused(let reason, spread: false) = failure else { Issue.record("\(failure)"); return }
            #expect(reason.contains("address_limit") && reason.contains("connections open"))
            #expect("\(failure)".contains("--connections-per-address"), "the hint names the limit to raise")
        }
    }
}
