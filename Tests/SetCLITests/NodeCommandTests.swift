import SetCLI
import SetServer
import Testing

/// `serve --node NAME --advertise HOST:PORT`: one of several servers sharing a PostgreSQL store.
@Suite struct NodeCommandTests {
    @Test func serveTakesANodeNameAndTheAddressItIsReachedAt() throws {
        let arguments = ["serve", "--store", "postgresql://setgame@10.0.0.9:5432/setgame", "--node", "b", "--advertise", "10.0.0.2:7380"]
        guard case .serve(let command) = try Commands.parse(arguments) else {
            Issue.record("not a serve command")
            return
        }
        #expect(command.config.cluster.node == "b")
        #expect(command.config.cluster.advertise == "10.0.0.2:7380")
        #expect(command.config.cluster.renewEveryMs == 2_000)
        #expect(command.config.cluster.leaseMs == 10_000)
    }

    @Test func aNodeWithoutASharedStoreOrAnAddressIsAUsageError() {
        #expect(throws: UsageError("--node needs a PostgreSQL --store (postgresql://…) that the nodes share", command: "serve")) {
            try Commands.parse(["serve", "--node", "a", "--advertise", "10.0.0.1:7380"])
        }
        #expect(throws: UsageError("--node needs --advertise HOST:PORT, where clients reach this node", command: "serve")) {
            try Commands.parse(["serve", "--store", "postgresql://setgame@10.0.0.9:5432/setgame", "--node", "a"])
        }
        #expect(throws: UsageError("--advertise takes HOST:PORT, a name or address clients can reach (letters, digits, '.', '-'; IPv6 in []), "
                                   + "not 'bad host:7380'", command: "serve")) {
            try Commands.parse(["serve", "--store", "postgresql://setgame@10.0.0.9:5432/setgame", "--node", "a", "--advertise", "bad host:7380"])
        }
        #expect(throws: UsageError("--advertise needs --node", command: "serve")) {
            try Commands.parse(["serve", "--advertise", "10.0.0.1:7380"])
        }
    }
}
